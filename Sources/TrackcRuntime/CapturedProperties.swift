/// The values a generated interceptor reads from a handler's arguments and its screen's state
/// (bindings in the config), converted to property values by typed calls: no `Any`, no reflection.
/// An interceptor fills one only when a tracker is installed and the call emits an event.
///
/// An array of key and value pairs, not a dictionary, and only the captured ones: the journal writes
/// them as they come after the rule's static ones (a later pair of a key wins when the event is read
/// back), so the tracking path hashes no key and never copies the rule's properties. Building a
/// dictionary per event cost more than the rest of the bound call.
@_spi(Generated) public struct CapturedProperties: Sendable {
  /// What was captured; a nil value is left out.
  private(set) var pairs: PropertyPairs = []
  /// Bindings the config did not mark `optional: true` whose value was nil: left out, and counted by
  /// the tracker (`Tracker.missingBoundValues`), never a crash.
  public private(set) var missingRequired = 0

  /// With room for a few values: one allocation for the usual event.
  public init() {
    pairs.reserveCapacity(4)
  }

  /// The captured properties (a later pair of a key winning), without the rule's static ones.
  public var values: [String: PropertyValue] { PropertyPairs.dictionary(pairs) }

  mutating func set(_ key: String, _ value: PropertyValue?, required: Bool) {
    if let value {
      pairs.append((key, value))
    } else if required {
      missingRequired += 1
    }
  }

  public mutating func string(_ key: String, _ value: String?, required: Bool) {
    set(key, value.map(PropertyValue.string), required: required)
  }

  public mutating func int(_ key: String, _ value: Int?, required: Bool) {
    set(key, value.map(PropertyValue.int), required: required)
  }

  /// Another integer type (`Int32`, `UInt64`), clamped to `Int`.
  public mutating func integer<Value: BinaryInteger>(_ key: String, _ value: Value?, required: Bool) {
    set(key, value.map { .int(Int(clamping: $0)) }, required: required)
  }

  /// An integer where the plan declares a double.
  public mutating func integerAsDouble<Value: BinaryInteger>(_ key: String, _ value: Value?, required: Bool) {
    set(key, value.map { .double(Double($0)) }, required: required)
  }

  public mutating func double(_ key: String, _ value: Double?, required: Bool) {
    set(key, value.map(PropertyValue.double), required: required)
  }

  /// Another floating-point type (`Float`, `CGFloat`), widened to `Double`.
  public mutating func floatingPoint<Value: BinaryFloatingPoint>(_ key: String, _ value: Value?, required: Bool) {
    set(key, value.map { .double(Double($0)) }, required: required)
  }

  public mutating func bool(_ key: String, _ value: Bool?, required: Bool) {
    set(key, value.map(PropertyValue.bool), required: required)
  }
}
