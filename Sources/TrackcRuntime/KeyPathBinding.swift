import Foundation

/// A bound property that the Objective-C runtime adapter reads by key path, for configs with
/// `interception: objc-runtime`: there the generated code that runs around the handler (a replaced
/// Objective-C implementation, `ObjCHandlerHook`) holds its arguments in their Objective-C forms, so the
/// generated registry carries, with each rule, where its values are (an argument or the screen, and the
/// `@objc` names of the properties on the way) and the adapter reads them with key-value coding when the
/// handler is called or the page appears. Lint has checked that each step is `@objc`
/// (`binding-not-interceptable`).
@_spi(Generated) public struct KeyPathBinding: Sendable, Hashable {
  /// Where the path starts.
  public enum Root: Sendable, Hashable {
    /// The object whose handler is called, or whose page appears: the screen.
    case screen
    /// The handler's argument at this position (0: an action's sender).
    case argument(Int)
  }

  /// The type the plan expects on the wire.
  public enum ValueType: Sendable, Hashable {
    case string, int, double, bool
  }

  /// The property's name in the event.
  public let key: String
  public let root: Root
  /// The Objective-C names of the properties read after the root, in order (none: the argument itself).
  public let steps: [String]
  public let type: ValueType
  /// Not `optional: true` in the config: a nil (or a value of another type) is counted.
  public let isRequired: Bool

  public init(key: String, root: Root, steps: [String], type: ValueType, isRequired: Bool) {
    self.key = key
    self.root = root
    self.steps = steps
    self.type = type
    self.isRequired = isRequired
  }

  /// Walks `steps` from `root` with `step` (one key-value-coding read; nil when the object has no such
  /// property), stopping at the first nil.
  public func read(from root: Any?, step: (Any, String) -> Any?) -> Any? {
    var current = root
    for name in steps {
      guard let object = current else { return nil }
      current = step(object, name)
    }
    return current
  }
}

@_spi(Generated) extension CapturedProperties {
  /// Adds what a key-path read returned, converted to the binding's type without reflection: Swift's
  /// scalars and strings, and `NSNumber` and `NSString` (what key-value coding returns; an `@objc` enum
  /// arrives as an `NSNumber`). `NSNull`, nil or a value of another type is left out (and counted when
  /// the binding is required), never a crash.
  public mutating func add(_ binding: KeyPathBinding, value: Any?) {
    set(binding.key, Self.convert(value, to: binding.type), required: binding.isRequired)
  }

  static func convert(_ value: Any?, to type: KeyPathBinding.ValueType) -> PropertyValue? {
    guard let value, !(value is NSNull) else { return nil }
    switch type {
    case .string:
      if let string = value as? String { return .string(string) }
      if let string = value as? NSString { return .string(string as String) }
      if let describable = value as? CustomStringConvertible { return .string(describable.description) }
      return nil
    case .int:
      if let int = value as? Int { return .int(int) }
      if let number = value as? NSNumber { return .int(number.intValue) }
      return nil
    case .double:
      if let double = value as? Double { return .double(double) }
      if let float = value as? Float { return .double(Double(float)) }
      if let int = value as? Int { return .double(Double(int)) }
      if let number = value as? NSNumber { return .double(number.doubleValue) }
      return nil
    case .bool:
      if let bool = value as? Bool { return .bool(bool) }
      if let number = value as? NSNumber { return .bool(number.boolValue) }
      return nil
    }
  }
}
