/// The one description of what a scan and a handler registry hold, read by every form they are stored
/// in: the binary form of the caches and the parsing workers' answers (`BinaryFieldWriter`), the JSON
/// file `trackc scan` writes (`JSONFieldWriter`) and `trackc lint --handlers` reads (`Codable`, below).
///
/// Each record lists its fields once, in `fields(_:)`, by their JSON key, in the keys' sorted order (the
/// order the JSON is written in; the binary form follows it too). A field added to a record is added to
/// that list and nowhere else; `RecordFieldsTests` fails for a stored property left out of it.
public protocol FieldRecord: FieldValue {
  /// An empty record, which reading fills in field by field.
  init()
  /// Hands every stored property to `coder`, with its key. Writers read the values; readers set them.
  mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure)
}

/// Reads or writes a record's fields, by key.
public protocol FieldCoder {
  associatedtype Failure: Error
  mutating func field<Value: FieldValue>(_ key: StaticString, _ value: inout Value, _ presence: FieldPresence) throws(Failure)
  /// A source file's path: the binary form writes each path once and refers to it by index, so that
  /// reading a registry back makes one string per file, shared by everything declared in it.
  mutating func path(_ key: StaticString, _ value: inout String) throws(Failure)
  /// What a record's fields must say of each other once read (a scan's reference names one of its
  /// declarations); writers do not evaluate it.
  mutating func require(_ condition: @autoclosure () -> Bool) throws(Failure)
}

/// When a JSON member may be left out.
public enum FieldPresence: Sendable {
  /// Written unless it is nil; a missing optional reads as nil, any other missing field is an error.
  case always
  /// Also left out when false or empty, and read as such when missing: for fields added after files
  /// without them were written.
  case omittedWhenEmpty
}

extension FieldCoder {
  mutating func field<Value: FieldValue>(_ key: StaticString, _ value: inout Value) throws(Failure) {
    try field(key, &value, .always)
  }
}

/// A value a field can hold: a string, a number, a flag, a case of a `FieldEnum`, a record, or an
/// optional or a list of those.
public protocol FieldValue: Codable, Sendable {
  /// The value a reader starts from (and a missing optional or omitted field is read as).
  static var emptyField: Self { get }
  /// False, empty or nil: what `FieldPresence.omittedWhenEmpty` leaves out.
  var isEmptyField: Bool { get }
  /// nil, which a JSON object leaves out.
  var isNilField: Bool { get }
  /// Hands the value to the coder's operation for its kind.
  mutating func code<Coder: ValueCoder>(_ coder: inout Coder) throws(Coder.Failure)
}

extension FieldValue {
  public var isNilField: Bool { false }
}

/// The operations of a form on values, one per kind of value.
public protocol ValueCoder: FieldCoder {
  mutating func string(_ value: inout String) throws(Failure)
  mutating func int(_ value: inout Int) throws(Failure)
  mutating func bool(_ value: inout Bool) throws(Failure)
  mutating func enumCase<Value: FieldEnum>(_ value: inout Value) throws(Failure)
  mutating func record<Value: FieldRecord>(_ value: inout Value) throws(Failure)
  mutating func optional<Wrapped: FieldValue>(_ value: inout Wrapped?) throws(Failure)
  mutating func array<Element: FieldValue>(_ value: inout [Element]) throws(Failure)
}

/// An enumeration without payloads, written as its raw value in JSON and as its index in the binary form.
public protocol FieldEnum: FieldValue, CaseIterable, Equatable, RawRepresentable<String> where AllCases == [Self] {}

extension FieldEnum {
  public static var emptyField: Self { allCases[0] }
  public var isEmptyField: Bool { false }
  public mutating func code<Coder: ValueCoder>(_ coder: inout Coder) throws(Coder.Failure) { try coder.enumCase(&self) }
}

extension FieldRecord {
  public static var emptyField: Self { Self() }
  public var isEmptyField: Bool { false }
  public mutating func code<Coder: ValueCoder>(_ coder: inout Coder) throws(Coder.Failure) { try coder.record(&self) }

  /// Two passes, so that a value of the wrong kind is reported before a field that is missing.
  public init(from decoder: any Decoder) throws {
    self.init()
    var coder = KeyedFieldDecoder(container: try decoder.container(keyedBy: FieldKey.self), readsMissing: false)
    try fields(&coder)
    coder.readsMissing = true
    try fields(&coder)
  }

  public func encode(to encoder: any Encoder) throws {
    var coder = KeyedFieldEncoder(container: encoder.container(keyedBy: FieldKey.self))
    var copy = self
    try copy.fields(&coder)
  }
}

extension String: FieldValue {
  public static var emptyField: String { "" }
  public var isEmptyField: Bool { isEmpty }
  public mutating func code<Coder: ValueCoder>(_ coder: inout Coder) throws(Coder.Failure) { try coder.string(&self) }
}

extension Int: FieldValue {
  public static var emptyField: Int { 0 }
  public var isEmptyField: Bool { self == 0 }
  public mutating func code<Coder: ValueCoder>(_ coder: inout Coder) throws(Coder.Failure) { try coder.int(&self) }
}

extension Bool: FieldValue {
  public static var emptyField: Bool { false }
  public var isEmptyField: Bool { !self }
  public mutating func code<Coder: ValueCoder>(_ coder: inout Coder) throws(Coder.Failure) { try coder.bool(&self) }
}

extension Optional: FieldValue where Wrapped: FieldValue {
  public static var emptyField: Wrapped? { nil }
  public var isEmptyField: Bool { self?.isEmptyField ?? true }
  public var isNilField: Bool { self == nil }
  public mutating func code<Coder: ValueCoder>(_ coder: inout Coder) throws(Coder.Failure) { try coder.optional(&self) }
}

extension Array: FieldValue where Element: FieldValue {
  public static var emptyField: [Element] { [] }
  public var isEmptyField: Bool { isEmpty }
  public mutating func code<Coder: ValueCoder>(_ coder: inout Coder) throws(Coder.Failure) { try coder.array(&self) }
}

/// A JSON member's key.
struct FieldKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }

  init(_ key: StaticString) {
    stringValue = key.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
  }

  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// `Decodable` from the field list: what reads a registry file (through `JSONDecoder`, whose errors carry
/// the coding path that `HandlerRegistry.decode` locates in the file).
private struct KeyedFieldDecoder: FieldCoder {
  typealias Failure = any Error

  let container: KeyedDecodingContainer<FieldKey>
  /// The first pass reads the members that are there; the second, those that are not (an error unless
  /// the field may be left out).
  var readsMissing: Bool

  func field<Value: FieldValue>(_ key: StaticString, _ value: inout Value, _ presence: FieldPresence) throws(any Error) {
    let key = FieldKey(key)
    guard container.contains(key) != readsMissing else { return }
    if readsMissing, Value.emptyField.isNilField || presence == .omittedWhenEmpty {
      value = Value.emptyField
    } else {
      value = try container.decode(Value.self, forKey: key)
    }
  }

  func path(_ key: StaticString, _ value: inout String) throws(any Error) {
    try field(key, &value, .always)
  }

  func require(_ condition: @autoclosure () -> Bool) throws(any Error) {
    guard !readsMissing || condition() else {
      throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath, debugDescription: "fields that contradict each other"))
    }
  }
}

/// `Encodable` from the field list, leaving out what the JSON file leaves out.
private struct KeyedFieldEncoder: FieldCoder {
  typealias Failure = any Error

  var container: KeyedEncodingContainer<FieldKey>

  mutating func field<Value: FieldValue>(_ key: StaticString, _ value: inout Value, _ presence: FieldPresence) throws(any Error) {
    guard !value.isNilField, presence == .always || !value.isEmptyField else { return }
    try container.encode(value, forKey: FieldKey(key))
  }

  mutating func path(_ key: StaticString, _ value: inout String) throws(any Error) {
    try field(key, &value, .always)
  }

  func require(_ condition: @autoclosure () -> Bool) {}
}
