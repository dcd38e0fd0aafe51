/// A compact binary form of a linked registry, for the link cache (`LinkCache`): a warm run over an
/// unchanged tree reads the registry back instead of linking every file's scan again.
///
/// Each file's path is written once, in a table at the front, and every location refers to it by its
/// index: reading the registry back makes one `String` per file and shares it among the file's
/// declarations. Other strings are written where they are (most are short enough for Swift to keep
/// without an allocation; a table of every string cost more to write, on each run that links, than it
/// saved in reading). Damaged bytes give an error (`ScanCodec`'s reader checks every length and index),
/// never a crash or a huge allocation.
enum RegistryCodec {
  static func encode(_ registry: HandlerRegistry, into output: inout BinaryWriter) {
    var strings = StringTable()
    var body = BinaryWriter()
    body.array(registry.types) { writer, type in
      writer.string(type.name)
      writer.optionalString(type.module)
      writer.byte(typeKindCodes[type.kind]!)
      writer.array(type.inheritance) { $0.string($1) }
      writer.optionalStrings(type.attributes)
      writer.bool(type.isGeneric)
      writer.optionalStrings(type.genericParameters)
      writer.bool(type.objcMembers)
      writer.bool(type.conditional)
      writer.access(type.access)
      writer.location(type.location, &strings)
      writer.array(type.extensions) { $0.location($1, &strings) }
      writer.array(type.methods) { writer, method in
        writer.string(method.name)
        writer.bool(method.isStatic)
        writer.access(method.access)
        writer.array(method.attributes) { $0.string($1) }
        writer.optionalString(method.objcSelector)
        writer.string(method.derivedSelector)
        writer.bool(method.inGenericContext)
        writer.bool(method.conditional)
        writer.optionalString(method.documentation)
        writer.location(method.location, &strings)
        writer.bool(method.signature != nil)
        if let signature = method.signature { writer.signature(signature) }
      }
      writer.bool(type.properties != nil)
      writer.array(type.properties ?? []) { writer, property in
        writer.string(property.name)
        writer.optionalString(property.type)
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
        writer.optionalString(property.objcName)
        writer.location(property.location, &strings)
        writer.array(property.requirements ?? []) { writer, requirement in
          writer.string(requirement.left)
          writer.string(requirement.right)
        }
      }
      writer.bool(type.initializers != nil)
      writer.array(type.initializers ?? []) { writer, initializer in
        writer.string(initializer.name)
        writer.optionalString(initializer.failability)
        writer.access(initializer.access)
        writer.array(initializer.attributes) { $0.string($1) }
        writer.bool(initializer.inGenericContext)
        writer.bool(initializer.conditional)
        writer.optionalString(initializer.documentation)
        writer.location(initializer.location, &strings)
        writer.signature(initializer.signature)
      }
      writer.bool(type.subscripts != nil)
      writer.array(type.subscripts ?? []) { writer, member in
        writer.array(member.parameterTypes) { $0.string($1) }
        writer.string(member.resultType)
        writer.bool(member.isStatic)
        writer.access(member.access)
        writer.bool(member.conditional)
        writer.location(member.location, &strings)
      }
      writer.optionalStrings(type.imports)
    }
    body.bool(registry.viewReferences != nil)
    body.array(registry.viewReferences ?? []) { writer, reference in
      writer.byte(referenceKindCodes[reference.kind]!)
      writer.array(reference.names) { $0.string($1) }
      writer.optionalString(reference.owner)
      writer.optionalString(reference.module)
      writer.location(reference.location, &strings)
      writer.optionalString(reference.root)
      writer.optionalStrings(reference.modifiers)
    }
    body.bool(registry.typeAliases != nil)
    body.array(registry.typeAliases ?? []) { writer, alias in
      writer.string(alias.name)
      writer.optionalString(alias.module)
      writer.optionalStrings(alias.genericParameters)
      writer.string(alias.aliased)
      writer.access(alias.access)
      writer.bool(alias.conditional)
      writer.location(alias.location, &strings)
    }
    body.bool(registry.methodUses != nil)
    body.array(registry.methodUses ?? []) { writer, use in
      writer.byte(useKindCodes[use.kind]!)
      writer.string(use.name)
      writer.optionalString(use.via)
      writer.location(use.location, &strings)
    }
    output.array(strings.strings) { $0.string($1) }
    output.bytes += body.bytes
  }

  static func decode(from input: inout BinaryReader) throws(ScanCodec.Malformed) -> HandlerRegistry {
    let strings = try input.strings()
    var reader = IndexedReader(reader: input, table: strings)
    defer { input = reader.reader }
    let types = try reader.array { (s: inout IndexedReader) throws(ScanCodec.Malformed) -> DeclaredType in
      let name = try s.string()
      let module = try s.optionalString()
      let kindCode = try s.reader.byte()
      guard Int(kindCode) < typeKinds.count else { throw ScanCodec.Malformed() }
      let inheritance = try s.strings()
      let attributes = try s.optionalStrings()
      let isGeneric = try s.reader.bool()
      let genericParameters = try s.optionalStrings()
      let objcMembers = try s.reader.bool()
      let conditional = try s.reader.bool()
      guard let access = try s.reader.access() else { throw ScanCodec.Malformed() }
      let location = try s.location()
      let extensions = try s.array { (s: inout IndexedReader) throws(ScanCodec.Malformed) in try s.location() }
      let methods = try s.array { (s: inout IndexedReader) throws(ScanCodec.Malformed) -> DeclaredMethod in
        let name = try s.string()
        let isStatic = try s.reader.bool()
        guard let access = try s.reader.access() else { throw ScanCodec.Malformed() }
        return DeclaredMethod(
          name: name, isStatic: isStatic, access: access, attributes: try s.strings(), objcSelector: try s.optionalString(),
          derivedSelector: try s.string(), inGenericContext: try s.reader.bool(), conditional: try s.reader.bool(),
          documentation: try s.optionalString(), location: try s.location(), signature: try s.reader.bool() ? try s.signature() : nil)
      }
      let hasProperties = try s.reader.bool()
      let properties = try s.array { (s: inout IndexedReader) throws(ScanCodec.Malformed) -> DeclaredProperty in
        let name = try s.string()
        let type = try s.optionalString()
        let flags = try s.reader.byte()
        guard flags < 64, let access = try s.reader.access() else { throw ScanCodec.Malformed() }
        var property = DeclaredProperty(
          name: name, type: type, typeIsInferred: flags & 1 != 0, isStatic: flags & 2 != 0, isComputed: flags & 4 != 0,
          isConstant: flags & 8 != 0, access: access, attributes: try s.strings(), objcName: try s.optionalString(),
          hasEffectfulGetter: flags & 16 != 0, conditional: flags & 32 != 0, location: try s.location())
        let requirements = try s.array { (s: inout IndexedReader) throws(ScanCodec.Malformed) in
          SameTypeRequirement(left: try s.string(), right: try s.string())
        }
        property.requirements = requirements.isEmpty ? nil : requirements
        return property
      }
      let hasInitializers = try s.reader.bool()
      let initializers = try s.array { (s: inout IndexedReader) throws(ScanCodec.Malformed) -> DeclaredInitializer in
        let name = try s.string()
        let failability = try s.optionalString()
        guard let access = try s.reader.access() else { throw ScanCodec.Malformed() }
        return DeclaredInitializer(
          name: name, failability: failability, access: access, attributes: try s.strings(), inGenericContext: try s.reader.bool(),
          conditional: try s.reader.bool(), documentation: try s.optionalString(), location: try s.location(), signature: try s.signature())
      }
      let hasSubscripts = try s.reader.bool()
      let subscripts = try s.array { (s: inout IndexedReader) throws(ScanCodec.Malformed) -> DeclaredSubscript in
        let parameterTypes = try s.strings()
        let resultType = try s.string()
        let isStatic = try s.reader.bool()
        guard let access = try s.reader.access() else { throw ScanCodec.Malformed() }
        return DeclaredSubscript(
          parameterTypes: parameterTypes, resultType: resultType, isStatic: isStatic, access: access, conditional: try s.reader.bool(),
          location: try s.location())
      }
      let imports = try s.optionalStrings()
      return DeclaredType(
        name: name, module: module, kind: typeKinds[Int(kindCode)], inheritance: inheritance, attributes: attributes, isGeneric: isGeneric,
        genericParameters: genericParameters, objcMembers: objcMembers, conditional: conditional, access: access, location: location,
        extensions: extensions, methods: methods, properties: hasProperties ? properties : nil,
        initializers: hasInitializers ? initializers : nil, subscripts: hasSubscripts ? subscripts : nil, imports: imports)
    }
    let hasReferences = try reader.reader.bool()
    let references = try reader.array { (s: inout IndexedReader) throws(ScanCodec.Malformed) -> ViewReference in
      let code = try s.reader.byte()
      guard Int(code) < referenceKinds.count else { throw ScanCodec.Malformed() }
      return ViewReference(
        kind: referenceKinds[Int(code)], names: try s.strings(), owner: try s.optionalString(), module: try s.optionalString(),
        location: try s.location(), root: try s.optionalString(), modifiers: try s.optionalStrings())
    }
    let hasAliases = try reader.reader.bool()
    let aliases = try reader.array { (s: inout IndexedReader) throws(ScanCodec.Malformed) -> DeclaredTypeAlias in
      let name = try s.string()
      let module = try s.optionalString()
      let parameters = try s.optionalStrings()
      let aliased = try s.string()
      guard let access = try s.reader.access() else { throw ScanCodec.Malformed() }
      return DeclaredTypeAlias(
        name: name, module: module, genericParameters: parameters, aliased: aliased, access: access, conditional: try s.reader.bool(),
        location: try s.location())
    }
    let hasUses = try reader.reader.bool()
    let uses = try reader.array { (s: inout IndexedReader) throws(ScanCodec.Malformed) -> MethodUse in
      let code = try s.reader.byte()
      guard Int(code) < useKinds.count else { throw ScanCodec.Malformed() }
      return MethodUse(kind: useKinds[Int(code)], name: try s.string(), via: try s.optionalString(), location: try s.location())
    }
    return HandlerRegistry(
      sortedTypes: types, viewReferences: hasReferences ? references : nil, methodUses: hasUses ? uses : nil,
      typeAliases: hasAliases ? aliases : nil)
  }

  private static let typeKinds: [DeclaredType.Kind] = [.class, .struct, .enum, .actor, .protocol, .external]
  private static let typeKindCodes: [DeclaredType.Kind: UInt8] = Dictionary(
    uniqueKeysWithValues: typeKinds.enumerated().map { ($0.element, UInt8($0.offset)) })
  private static let referenceKinds = ViewReference.Kind.allCases
  private static let useKinds = MethodUse.Kind.allCases
  private static let useKindCodes: [MethodUse.Kind: UInt8] = Dictionary(
    uniqueKeysWithValues: useKinds.enumerated().map { ($0.element, UInt8($0.offset)) })
  private static let referenceKindCodes: [ViewReference.Kind: UInt8] = Dictionary(
    uniqueKeysWithValues: referenceKinds.enumerated().map { ($0.element, UInt8($0.offset)) })
}

/// Distinct file paths in first-seen order, by index.
private struct StringTable {
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

extension BinaryWriter {
  fileprivate mutating func optionalStrings(_ values: [String]?) {
    bool(values != nil)
    array(values ?? []) { $0.string($1) }
  }

  fileprivate mutating func location(_ location: RegistryLocation, _ strings: inout StringTable) {
    int(strings[location.file])
    int(location.line)
    int(location.column)
  }

  fileprivate mutating func signature(_ signature: MethodSignature) {
    array(signature.parameters) { writer, parameter in
      writer.optionalString(parameter.label)
      writer.optionalString(parameter.name)
      writer.string(parameter.type)
      writer.bool(parameter.hasDefaultValue)
    }
    optionalString(signature.returnType)
    optionalString(signature.effects)
  }
}

/// A `BinaryReader` whose locations' files are indices into a table.
private struct IndexedReader {
  var reader: BinaryReader
  let table: [String]

  mutating func string() throws(ScanCodec.Malformed) -> String {
    try reader.string()
  }

  mutating func optionalString() throws(ScanCodec.Malformed) -> String? {
    try reader.optionalString()
  }

  /// A file's path, by its index in the table.
  mutating func file() throws(ScanCodec.Malformed) -> String {
    let index = try reader.int()
    guard index >= 0, index < table.count else { throw ScanCodec.Malformed() }
    return table[index]
  }

  mutating func strings() throws(ScanCodec.Malformed) -> [String] {
    try array { (s: inout IndexedReader) throws(ScanCodec.Malformed) in try s.string() }
  }

  mutating func optionalStrings() throws(ScanCodec.Malformed) -> [String]? {
    let present = try reader.bool()
    let values = try strings()
    return present ? values : nil
  }

  mutating func location() throws(ScanCodec.Malformed) -> RegistryLocation {
    RegistryLocation(file: try file(), line: try reader.int(), column: try reader.int())
  }

  mutating func signature() throws(ScanCodec.Malformed) -> MethodSignature {
    let parameters = try array { (s: inout IndexedReader) throws(ScanCodec.Malformed) -> MethodSignature.Parameter in
      MethodSignature.Parameter(
        label: try s.optionalString(), name: try s.optionalString(), type: try s.string(), hasDefaultValue: try s.reader.bool())
    }
    return MethodSignature(parameters: parameters, returnType: try optionalString(), effects: try optionalString())
  }

  mutating func array<Element>(_ element: (inout IndexedReader) throws(ScanCodec.Malformed) -> Element) throws(ScanCodec.Malformed) -> [Element] {
    let count = try reader.count()
    var result: [Element] = []
    result.reserveCapacity(count)
    for _ in 0..<count { result.append(try element(&self)) }
    return result
  }
}
