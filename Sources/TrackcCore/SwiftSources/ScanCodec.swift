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
    writer.array(scan.declarations) { writer, declaration in
      writer.byte(kindCodes[declaration.kind]!)
      writer.string(declaration.name)
      writer.array(declaration.inheritance) { $0.string($1) }
      writer.array(declaration.attributes) { $0.string($1) }
      writer.bool(declaration.isGeneric)
      writer.access(declaration.access)
      writer.bool(declaration.conditional)
      writer.position(declaration.position)
      writer.array(declaration.genericParameters) { $0.string($1) }
      writer.array(declaration.requirements) { writer, requirement in
        writer.string(requirement.left)
        writer.string(requirement.right)
      }
      writer.array(declaration.methods, encodeMethod)
      writer.array(declaration.properties, encodeProperty)
      writer.array(declaration.initializers, encodeInitializer)
      writer.array(declaration.subscripts, encodeSubscript)
    }
    writer.array(scan.imports) { $0.string($1) }
    writer.array(scan.references) { writer, reference in
      writer.byte(referenceCodes[reference.kind]!)
      writer.array(reference.names) { $0.string($1) }
      // The owner plus one, so that none is 0.
      writer.int(reference.owner.map { $0 + 1 } ?? 0)
      writer.position(reference.position)
      writer.optionalString(reference.root)
      writer.array(reference.modifiers) { $0.string($1) }
    }
    writer.array(scan.problems) { writer, problem in
      writer.int(problem.line)
      writer.int(problem.column)
      writer.string(problem.message)
    }
    writer.array(scan.uses) { writer, use in
      writer.byte(useCodes[use.kind]!)
      writer.string(use.name)
      writer.optionalString(use.via)
      writer.position(use.position)
    }
    writer.array(scan.typeAliases) { writer, alias in
      writer.string(alias.name)
      writer.array(alias.genericParameters) { $0.string($1) }
      writer.string(alias.aliased)
      writer.access(alias.access)
      writer.bool(alias.conditional)
      writer.position(alias.position)
    }
  }

  static func decode(from reader: inout BinaryReader) throws(Malformed) -> FileScan {
    var scan = FileScan()
    scan.declarations = try reader.array { (reader: inout BinaryReader) throws(Malformed) in
      let code = try reader.byte()
      guard Int(code) < kinds.count else { throw Malformed() }
      return ScannedDeclaration(
        kind: kinds[Int(code)], name: try reader.string(), inheritance: try reader.strings(), attributes: try reader.strings(),
        isGeneric: try reader.bool(), access: try reader.access(), conditional: try reader.bool(), position: try reader.position(),
        genericParameters: try reader.strings(),
        requirements: try reader.array { (reader: inout BinaryReader) throws(Malformed) in
          SameTypeRequirement(left: try reader.string(), right: try reader.string())
        },
        methods: try reader.array(decodeMethod), properties: try reader.array(decodeProperty),
        initializers: try reader.array(decodeInitializer), subscripts: try reader.array(decodeSubscript))
    }
    scan.imports = try reader.strings()
    let declarationCount = scan.declarations.count
    scan.references = try reader.array { (reader: inout BinaryReader) throws(Malformed) in
      let code = try reader.byte()
      guard Int(code) < referenceKinds.count else { throw Malformed() }
      let names = try reader.strings()
      let owner = try reader.int()
      guard owner >= 0, owner <= declarationCount else { throw Malformed() }
      return ScannedReference(
        kind: referenceKinds[Int(code)], names: names, owner: owner == 0 ? nil : owner - 1, position: try reader.position(),
        root: try reader.optionalString(), modifiers: try reader.strings())
    }
    scan.problems = try reader.array { (reader: inout BinaryReader) throws(Malformed) in
      ScanProblem(line: try reader.int(), column: try reader.int(), message: try reader.string())
    }
    scan.uses = try reader.array { (reader: inout BinaryReader) throws(Malformed) in
      let code = try reader.byte()
      guard Int(code) < useKinds.count else { throw Malformed() }
      return ScannedUse(kind: useKinds[Int(code)], name: try reader.string(), via: try reader.optionalString(), position: try reader.position())
    }
    scan.typeAliases = try reader.array { (reader: inout BinaryReader) throws(Malformed) in
      ScannedTypeAlias(
        name: try reader.string(), genericParameters: try reader.strings(), aliased: try reader.string(), access: try reader.access(),
        conditional: try reader.bool(), position: try reader.position())
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
    writer.parameters(method.parameters, labels: method.labels)
    writer.optionalString(method.returnType)
    writer.optionalString(method.effects)
    writer.string(method.fullName)
    writer.string(method.derivedSelector)
  }

  private static func decodeMethod(_ reader: inout BinaryReader) throws(Malformed) -> ScannedMethod {
    let baseName = try reader.string()
    let labels = try reader.array { (r: inout BinaryReader) throws(Malformed) in try r.optionalString() }
    return ScannedMethod(
      baseName: baseName, labels: labels,
      isStatic: try reader.bool(), access: try reader.access(),
      attributes: try reader.strings(),
      explicitSelector: try reader.optionalString(), isGeneric: try reader.bool(), isThrowing: try reader.bool(),
      isAsync: try reader.bool(), conditional: try reader.bool(), documentation: try reader.optionalString(),
      position: try reader.position(),
      parameterTypes: try reader.strings(),
      parameters: try reader.parameters(labels: labels),
      returnType: try reader.optionalString(), effects: try reader.optionalString(),
      fullName: try reader.string(), derivedSelector: try reader.string())
  }

  private static func encodeProperty(_ writer: inout BinaryWriter, _ property: ScannedProperty) {
    writer.string(property.name)
    writer.optionalString(property.type)
    // Six flags in one byte: most properties are plain, and a warm lint decodes every one.
    var flags: UInt8 = 0
    if property.typeIsInferred { flags |= 1 }
    if property.isStatic { flags |= 2 }
    if property.isComputed { flags |= 4 }
    if property.isConstant { flags |= 8 }
    if property.hasEffectfulGetter { flags |= 16 }
    if property.conditional { flags |= 32 }
    writer.byte(flags)
    writer.access(property.access)
    writer.array(property.attributes) { $0.string($1) }
    writer.position(property.position)
  }

  private static func decodeProperty(_ reader: inout BinaryReader) throws(Malformed) -> ScannedProperty {
    let name = try reader.string()
    let type = try reader.optionalString()
    let flags = try reader.byte()
    guard flags < 64 else { throw Malformed() }
    return ScannedProperty(
      name: name, type: type, typeIsInferred: flags & 1 != 0, isStatic: flags & 2 != 0, isComputed: flags & 4 != 0,
      isConstant: flags & 8 != 0, access: try reader.access(),
      attributes: try reader.strings(),
      hasEffectfulGetter: flags & 16 != 0, conditional: flags & 32 != 0, position: try reader.position())
  }

  private static func encodeInitializer(_ writer: inout BinaryWriter, _ initializer: ScannedInitializer) {
    writer.array(initializer.labels) { $0.optionalString($1) }
    writer.array(initializer.parameterTypes) { $0.string($1) }
    writer.parameters(initializer.parameters, labels: initializer.labels)
    writer.optionalString(initializer.failability)
    writer.access(initializer.access)
    writer.array(initializer.attributes) { $0.string($1) }
    writer.bool(initializer.isGeneric)
    writer.optionalString(initializer.effects)
    writer.bool(initializer.conditional)
    writer.optionalString(initializer.documentation)
    writer.position(initializer.position)
  }

  private static func decodeInitializer(_ reader: inout BinaryReader) throws(Malformed) -> ScannedInitializer {
    let labels = try reader.array { (r: inout BinaryReader) throws(Malformed) in try r.optionalString() }
    return ScannedInitializer(
      labels: labels, parameterTypes: try reader.strings(),
      parameters: try reader.parameters(labels: labels), failability: try reader.optionalString(), access: try reader.access(),
      attributes: try reader.strings(), isGeneric: try reader.bool(),
      effects: try reader.optionalString(), conditional: try reader.bool(), documentation: try reader.optionalString(),
      position: try reader.position())
  }

  private static func encodeSubscript(_ writer: inout BinaryWriter, _ member: ScannedSubscript) {
    writer.array(member.parameterTypes) { $0.string($1) }
    writer.string(member.resultType)
    writer.bool(member.isStatic)
    writer.access(member.access)
    writer.bool(member.conditional)
    writer.position(member.position)
  }

  private static func decodeSubscript(_ reader: inout BinaryReader) throws(Malformed) -> ScannedSubscript {
    ScannedSubscript(
      parameterTypes: try reader.strings(), resultType: try reader.string(), isStatic: try reader.bool(), access: try reader.access(),
      conditional: try reader.bool(), position: try reader.position())
  }

  private static let useKinds = ScannedUse.Kind.allCases
  private static let useCodes: [ScannedUse.Kind: UInt8] = Dictionary(
    uniqueKeysWithValues: useKinds.enumerated().map { ($0.element, UInt8($0.offset)) })
  private static let referenceKinds = ScannedReference.Kind.allCases
  private static let referenceCodes: [ScannedReference.Kind: UInt8] = Dictionary(
    uniqueKeysWithValues: referenceKinds.enumerated().map { ($0.element, UInt8($0.offset)) })
  private static let kinds = ScannedDeclaration.Kind.allCases
  private static let kindCodes: [ScannedDeclaration.Kind: UInt8] = Dictionary(
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

  /// A byte per parameter (bit 0: the name is the label; bit 1: there is no name; bit 2: it has a default
  /// value), followed by the name when it is neither: the common case costs the byte alone.
  mutating func parameters(_ parameters: ScannedParameters, labels: [String?]) {
    int(parameters.names.count)
    for (index, name) in parameters.names.enumerated() {
      let hasDefault: UInt8 = index < parameters.hasDefault.count && parameters.hasDefault[index] ? 4 : 0
      if let name {
        if index < labels.count, labels[index] == name {
          byte(1 | hasDefault)
        } else {
          byte(hasDefault)
          string(name)
        }
      } else {
        byte(2 | hasDefault)
      }
    }
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

  mutating func strings() throws(ScanCodec.Malformed) -> [String] {
    try array { (reader: inout BinaryReader) throws(ScanCodec.Malformed) in try reader.string() }
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

  /// See `BinaryWriter.parameters`: a name equal to its label shares the label's storage.
  mutating func parameters(labels: [String?]) throws(ScanCodec.Malformed) -> ScannedParameters {
    let count = try count()
    var result = ScannedParameters()
    result.names.reserveCapacity(count)
    result.hasDefault.reserveCapacity(count)
    for index in 0..<count {
      let flags = try byte()
      guard flags < 8 else { throw ScanCodec.Malformed() }
      if flags & 1 != 0 {
        guard index < labels.count, let label = labels[index] else { throw ScanCodec.Malformed() }
        result.names.append(label)
      } else if flags & 2 != 0 {
        result.names.append(nil)
      } else {
        result.names.append(try string())
      }
      result.hasDefault.append(flags & 4 != 0)
    }
    return result
  }

  mutating func array<Element>(_ element: (inout BinaryReader) throws(ScanCodec.Malformed) -> Element) throws(ScanCodec.Malformed) -> [Element] {
    let count = try count()
    var result: [Element] = []
    result.reserveCapacity(count)
    for _ in 0..<count { result.append(try element(&self)) }
    return result
  }
}
