/// A compact binary form, for what trackc keeps between runs and passes between processes: the scan
/// and link caches and the answers of parsing workers. JSON cost more there than the parsing it saved
/// (a tenth of a second per thousand files each way).
///
/// Integers are LEB128 varints, strings a length and UTF-8 bytes, optionals a presence byte, lists a
/// count and their elements. Reading checks every length against what is left, so damaged bytes give an
/// error, never a crash or a huge allocation.
struct MalformedBytes: Error {}

/// Appends the binary form to a byte array.
struct BinaryWriter {
  var bytes: [UInt8] = []

  mutating func byte(_ value: UInt8) { bytes.append(value) }
  mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

  mutating func int(_ value: Int) {
    var remaining = UInt64(bitPattern: Int64(value))
    while remaining >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
      remaining >>= 7
    }
    bytes.append(UInt8(remaining))
  }

  mutating func string(_ value: String) {
    var value = value
    value.withUTF8 { utf8 in
      int(utf8.count)
      bytes.append(contentsOf: utf8)
    }
  }

  mutating func optionalString(_ value: String?) {
    guard let value else { return byte(0) }
    byte(1)
    string(value)
  }

  mutating func array<Element>(_ values: [Element], _ element: (inout BinaryWriter, Element) -> Void) {
    int(values.count)
    for value in values { element(&self, value) }
  }
}

/// Reads the binary form, checking every length against the bytes that are left.
struct BinaryReader {
  let bytes: UnsafeRawBufferPointer
  private(set) var offset = 0

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  var isAtEnd: Bool { offset == bytes.count }

  mutating func byte() throws(MalformedBytes) -> UInt8 {
    guard offset < bytes.count else { throw MalformedBytes() }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func bool() throws(MalformedBytes) -> Bool {
    switch try byte() {
    case 0: return false
    case 1: return true
    default: throw MalformedBytes()
    }
  }

  /// Only the one form `BinaryWriter.int` writes: no bits past the 64th, no trailing zero groups (found by
  /// fuzzing: a cache whose checksum had a bit flipped past the 64th still read, as bytes trackc never wrote).
  mutating func int() throws(MalformedBytes) -> Int {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let next = try byte()
      guard shift < 63 || (shift == 63 && next <= 1) else { throw MalformedBytes() }
      result |= UInt64(next & 0x7F) << shift
      if next < 0x80 {
        guard next != 0 || shift == 0 else { throw MalformedBytes() }
        return Int(Int64(bitPattern: result))
      }
      shift += 7
    }
  }

  /// A count or length: not negative, and not more than the bytes left (each element takes at least one).
  mutating func count() throws(MalformedBytes) -> Int {
    let value = try int()
    guard value >= 0, value <= bytes.count - offset else { throw MalformedBytes() }
    return value
  }

  mutating func string() throws(MalformedBytes) -> String {
    let length = try count()
    defer { offset += length }
    return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
  }

  mutating func strings() throws(MalformedBytes) -> [String] {
    try array { (reader: inout BinaryReader) throws(MalformedBytes) in try reader.string() }
  }

  mutating func optionalString() throws(MalformedBytes) -> String? {
    try bool() ? try string() : nil
  }

  mutating func array<Element>(_ element: (inout BinaryReader) throws(MalformedBytes) -> Element) throws(MalformedBytes) -> [Element] {
    let count = try count()
    var result: [Element] = []
    result.reserveCapacity(count)
    for _ in 0..<count { result.append(try element(&self)) }
    return result
  }
}

extension FieldRecord {
  /// Appends the record's binary form: the table of the paths it names, then its fields in order.
  func encodeBinary(into output: inout BinaryWriter) {
    var writer = BinaryFieldWriter()
    var copy = self
    copy.fields(&writer)
    output.array(writer.paths.strings) { $0.string($1) }
    output.bytes += writer.body.bytes
  }

  /// The binary form as bytes of their own.
  func binaryEncoded() -> [UInt8] {
    var writer = BinaryWriter()
    encodeBinary(into: &writer)
    return writer.bytes
  }

  /// Reads a record's binary form from `input`, leaving it after the record.
  static func decodeBinary(from input: inout BinaryReader) throws(MalformedBytes) -> Self {
    let paths = try input.strings()
    var reader = BinaryFieldReader(reader: input, paths: paths)
    var record = Self()
    try record.fields(&reader)
    input = reader.reader
    return record
  }

  /// Reads bytes that hold one record and nothing else; nil when they do not.
  static func decodeBinary(_ bytes: UnsafeRawBufferPointer) -> Self? {
    var reader = BinaryReader(bytes)
    guard let record = try? decodeBinary(from: &reader), reader.isAtEnd else { return nil }
    return record
  }
}

/// Writes the fields in order, keys left out; paths as indices into a table of the paths, first seen first.
private struct BinaryFieldWriter: ValueCoder {
  typealias Failure = Never

  var body = BinaryWriter()
  var paths = PathTable()

  mutating func field<Value: FieldValue>(_ key: StaticString, _ value: inout Value, _ presence: FieldPresence) {
    value.code(&self)
  }

  mutating func path(_ key: StaticString, _ value: inout String) { body.int(paths[value]) }
  func require(_ condition: @autoclosure () -> Bool) {}
  mutating func string(_ value: inout String) { body.string(value) }
  mutating func int(_ value: inout Int) { body.int(value) }
  mutating func bool(_ value: inout Bool) { body.bool(value) }

  mutating func enumCase<Value: FieldEnum>(_ value: inout Value) {
    body.byte(UInt8(Value.allCases.firstIndex(of: value)!))
  }

  mutating func record<Value: FieldRecord>(_ value: inout Value) { value.fields(&self) }

  mutating func optional<Wrapped: FieldValue>(_ value: inout Wrapped?) {
    guard var wrapped = value else { return body.bool(false) }
    body.bool(true)
    wrapped.code(&self)
  }

  mutating func array<Element: FieldValue>(_ value: inout [Element]) {
    body.int(value.count)
    // Each element is copied out rather than coded in place, which would copy the whole list first.
    for var element in value { element.code(&self) }
  }
}

/// Distinct strings in first-seen order, by index.
private struct PathTable {
  private(set) var strings: [String] = []
  private var indices: [String: Int] = [:]

  subscript(string: String) -> Int {
    mutating get {
      if let index = indices[string] { return index }
      indices[string] = strings.count
      strings.append(string)
      return strings.count - 1
    }
  }
}

/// Sets the fields in order from the bytes; paths from the table read first.
private struct BinaryFieldReader: ValueCoder {
  typealias Failure = MalformedBytes

  var reader: BinaryReader
  let paths: [String]

  mutating func field<Value: FieldValue>(_ key: StaticString, _ value: inout Value, _ presence: FieldPresence) throws(MalformedBytes) {
    try value.code(&self)
  }

  mutating func path(_ key: StaticString, _ value: inout String) throws(MalformedBytes) {
    let index = try reader.int()
    guard index >= 0, index < paths.count else { throw MalformedBytes() }
    value = paths[index]
  }

  func require(_ condition: @autoclosure () -> Bool) throws(MalformedBytes) {
    guard condition() else { throw MalformedBytes() }
  }

  mutating func string(_ value: inout String) throws(MalformedBytes) { value = try reader.string() }
  mutating func int(_ value: inout Int) throws(MalformedBytes) { value = try reader.int() }
  mutating func bool(_ value: inout Bool) throws(MalformedBytes) { value = try reader.bool() }

  mutating func enumCase<Value: FieldEnum>(_ value: inout Value) throws(MalformedBytes) {
    let code = Int(try reader.byte())
    let cases = Value.allCases
    guard code < cases.count else { throw MalformedBytes() }
    value = cases[code]
  }

  mutating func record<Value: FieldRecord>(_ value: inout Value) throws(MalformedBytes) { try value.fields(&self) }

  mutating func optional<Wrapped: FieldValue>(_ value: inout Wrapped?) throws(MalformedBytes) {
    guard try reader.bool() else {
      value = nil
      return
    }
    var wrapped = Wrapped.emptyField
    try wrapped.code(&self)
    value = wrapped
  }

  mutating func array<Element: FieldValue>(_ value: inout [Element]) throws(MalformedBytes) {
    let count = try reader.count()
    var elements: [Element] = []
    elements.reserveCapacity(count)
    for _ in 0..<count {
      var element = Element.emptyField
      try element.code(&self)
      elements.append(element)
    }
    value = elements
  }
}
