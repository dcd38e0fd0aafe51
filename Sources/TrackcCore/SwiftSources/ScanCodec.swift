/// A compact binary form of file scans, for the two places that move many of them: the scan cache and
/// the answers of parsing workers. JSON cost more there than the parsing it saved (a tenth of a second
/// per thousand files each way); this is about twenty times faster.
///
/// Integers are LEB128 varints, strings a length and UTF-8 bytes, optionals a presence byte, arrays a
/// count and their elements. Reading checks every length against what is left, so damaged bytes give an
/// error, never a crash or a huge allocation.
enum ScanCodec {
  struct Malformed: Error {}

  static func encode(_ scan: FileScan, into writer: inout BinaryWriter) {
    writer.array(scan.types) { writer, type in
      writer.byte(kindCodes[type.kind]!)
      writer.string(type.name)
      writer.array(type.inheritance) { $0.string($1) }
      writer.bool(type.isGeneric)
      writer.bool(type.inGenericContext)
      writer.bool(type.objcMembers)
      writer.access(type.access)
      writer.bool(type.conditional)
      writer.position(type.position)
      writer.array(type.methods, encodeMethod)
    }
    writer.array(scan.extensions) { writer, scanned in
      writer.string(scanned.extendedName)
      writer.array(scanned.inheritance) { $0.string($1) }
      writer.bool(scanned.isObjC)
      writer.bool(scanned.hasWhereClause)
      writer.access(scanned.access)
      writer.bool(scanned.conditional)
      writer.position(scanned.position)
      writer.array(scanned.methods, encodeMethod)
    }
    writer.array(scan.imports) { $0.string($1) }
    writer.array(scan.problems) { writer, problem in
      writer.int(problem.line)
      writer.int(problem.column)
      writer.string(problem.message)
    }
  }

  static func decode(from reader: inout BinaryReader) throws(Malformed) -> FileScan {
    var scan = FileScan()
    scan.types = try reader.array { (reader: inout BinaryReader) throws(Malformed) in
      let code = try reader.byte()
      guard let kind = kinds.first(where: { kindCodes[$0] == code }) else { throw Malformed() }
      return ScannedType(
        kind: kind, name: try reader.string(), inheritance: try reader.array { (r: inout BinaryReader) throws(Malformed) in try r.string() },
        isGeneric: try reader.bool(), inGenericContext: try reader.bool(), objcMembers: try reader.bool(),
        access: try reader.access(), conditional: try reader.bool(), position: try reader.position(),
        methods: try reader.array(decodeMethod))
    }
    scan.extensions = try reader.array { (reader: inout BinaryReader) throws(Malformed) in
      ScannedExtension(
        extendedName: try reader.string(), inheritance: try reader.array { (r: inout BinaryReader) throws(Malformed) in try r.string() },
        isObjC: try reader.bool(), hasWhereClause: try reader.bool(), access: try reader.access(), conditional: try reader.bool(),
        position: try reader.position(), methods: try reader.array(decodeMethod))
    }
    scan.imports = try reader.array { (r: inout BinaryReader) throws(Malformed) in try r.string() }
    scan.problems = try reader.array { (reader: inout BinaryReader) throws(Malformed) in
      ScanProblem(line: try reader.int(), column: try reader.int(), message: try reader.string())
    }
    return scan
  }

  private static func encodeMethod(_ writer: inout BinaryWriter, _ method: ScannedMethod) {
    writer.string(method.baseName)
    writer.array(method.labels) { $0.optionalString($1) }
    writer.bool(method.isStatic)
    writer.access(method.access)
    writer.array(method.attributes) { $0.string($1) }
    writer.optionalString(method.explicitSelector)
    writer.bool(method.isGeneric)
    writer.bool(method.isThrowing)
    writer.bool(method.isAsync)
    writer.bool(method.conditional)
    writer.optionalString(method.documentation)
    writer.position(method.position)
    writer.array(method.parameterTypes) { $0.string($1) }
    writer.optionalString(method.returnType)
    writer.optionalString(method.effects)
    writer.string(method.fullName)
    writer.string(method.derivedSelector)
  }

  private static func decodeMethod(_ reader: inout BinaryReader) throws(Malformed) -> ScannedMethod {
    ScannedMethod(
      baseName: try reader.string(), labels: try reader.array { (r: inout BinaryReader) throws(Malformed) in try r.optionalString() },
      isStatic: try reader.bool(), access: try reader.access(),
      attributes: try reader.array { (r: inout BinaryReader) throws(Malformed) in try r.string() },
      explicitSelector: try reader.optionalString(), isGeneric: try reader.bool(), isThrowing: try reader.bool(),
      isAsync: try reader.bool(), conditional: try reader.bool(), documentation: try reader.optionalString(),
      position: try reader.position(),
      parameterTypes: try reader.array { (r: inout BinaryReader) throws(Malformed) in try r.string() },
      returnType: try reader.optionalString(), effects: try reader.optionalString(),
      fullName: try reader.string(), derivedSelector: try reader.string())
  }

  private static let kinds: [DeclaredType.Kind] = [.class, .struct, .enum, .actor, .protocol, .external]
  private static let kindCodes: [DeclaredType.Kind: UInt8] = Dictionary(
    uniqueKeysWithValues: kinds.enumerated().map { ($0.element, UInt8($0.offset)) })
}

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

  mutating func access(_ value: AccessLevel?) {
    byte(value.map { UInt8(AccessLevel.allCases.firstIndex(of: $0)!) } ?? 0xFF)
  }

  mutating func position(_ value: ScannedPosition) {
    int(value.line)
    int(value.column)
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

  mutating func byte() throws(ScanCodec.Malformed) -> UInt8 {
    guard offset < bytes.count else { throw ScanCodec.Malformed() }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func bool() throws(ScanCodec.Malformed) -> Bool {
    switch try byte() {
    case 0: return false
    case 1: return true
    default: throw ScanCodec.Malformed()
    }
  }

  /// Only the one form `BinaryWriter.int` writes: no bits past the 64th, no trailing zero groups (found by
  /// fuzzing: a cache whose checksum had a bit flipped past the 64th still read, as bytes trackc never wrote).
  mutating func int() throws(ScanCodec.Malformed) -> Int {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let next = try byte()
      guard shift < 63 || (shift == 63 && next <= 1) else { throw ScanCodec.Malformed() }
      result |= UInt64(next & 0x7F) << shift
      if next < 0x80 {
        guard next != 0 || shift == 0 else { throw ScanCodec.Malformed() }
        return Int(Int64(bitPattern: result))
      }
      shift += 7
    }
  }

  /// A count or length: not negative, and not more than the bytes left (each element takes at least one).
  mutating func count() throws(ScanCodec.Malformed) -> Int {
    let value = try int()
    guard value >= 0, value <= bytes.count - offset else { throw ScanCodec.Malformed() }
    return value
  }

  mutating func string() throws(ScanCodec.Malformed) -> String {
    let length = try count()
    defer { offset += length }
    return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
  }

  mutating func optionalString() throws(ScanCodec.Malformed) -> String? {
    try bool() ? try string() : nil
  }

  mutating func access() throws(ScanCodec.Malformed) -> AccessLevel? {
    let code = try byte()
    if code == 0xFF { return nil }
    guard Int(code) < AccessLevel.allCases.count else { throw ScanCodec.Malformed() }
    return AccessLevel.allCases[Int(code)]
  }

  mutating func position() throws(ScanCodec.Malformed) -> ScannedPosition {
    ScannedPosition(line: try int(), column: try int())
  }

  mutating func array<Element>(_ element: (inout BinaryReader) throws(ScanCodec.Malformed) -> Element) throws(ScanCodec.Malformed) -> [Element] {
    let count = try count()
    var result: [Element] = []
    result.reserveCapacity(count)
    for _ in 0..<count { result.append(try element(&self)) }
    return result
  }
}
