#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HandlerRegistry {
  /// Registry files larger than this are not read: `trackc scan` writes about 10 KB per source file, so
  /// this is room for some 6,000 files.
  public static let maxFileBytes = 64 << 20

  /// The registry as `trackc scan` writes it: pretty, key-sorted JSON, the same bytes for the same sources.
  /// Written directly rather than through JSONEncoder, which took a tenth of a second per thousand files.
  public func json() -> String {
    String(decoding: jsonBytes(), as: UTF8.self)
  }

  /// The same, as UTF-8 bytes (for writing to a file without a detour through a String).
  public func jsonBytes() -> [UInt8] {
    var head = JSONTextWriter()
    head.raw("{")
    head.uses(methodUses)
    head.aliases(typeAliases)
    head.raw("\n  \"types\": ")
    guard !types.isEmpty else {
      head.raw("[],\n  \"version\": ")
      head.int(version)
      head.references(viewReferences)
      head.raw("\n}\n")
      return head.text
    }
    head.raw("[")
    // Types are written on all cores, in chunks, then joined in order.
    let chunks = Parallel.ranges(count: types.count, minimumSize: 64)
    let parts = Parallel.map(chunks.count) { chunk in
      var writer = JSONTextWriter()
      for index in chunks[chunk] {
        writer.newline(indent: 2)
        writer.type(types[index], indent: 2)
        if index < types.count - 1 { writer.raw(",") }
      }
      return writer.text
    }
    var text = head.text
    text.reserveCapacity(text.count + parts.reduce(0) { $0 + $1.count } + 32)
    for part in parts { text += part }
    var tail = JSONTextWriter()
    tail.raw("\n  ],\n  \"version\": ")
    tail.int(version)
    tail.references(viewReferences)
    tail.raw("\n}\n")
    return text + tail.text
  }

  /// Reads a registry file. Every problem (JSON syntax, a missing field, a wrong type, another format
  /// version) comes back typed, at its line and column: JSON is YAML, so libyaml locates syntax errors,
  /// and the decoder's coding path is followed through the parsed document to the offending value.
  public static func decode(_ input: InputBytes, fileSize: Int? = nil) -> (registry: HandlerRegistry?, problems: [RegistryProblem]) {
    if let fileSize, fileSize > maxFileBytes { return (nil, [.tooLarge(limit: maxFileBytes)]) }
    guard !input.buffer.isEmpty else { return (nil, [.empty]) }
    do {
      let registry = try JSONDecoder().decode(HandlerRegistry.self, from: Data(input.buffer))
      guard registry.version == formatVersion else {
        let parsed = YAMLParser.parse(input)
        let range = parsed.document.flatMap { locate(["version"], in: $0) } ?? SourceRange(at: .start)
        return (nil, [.unsupportedVersion(registry.version, at: range)])
      }
      return (registry, [])
    } catch let error as DecodingError {
      let parsed = YAMLParser.parse(input)
      if !parsed.problems.isEmpty { return (nil, [.notJSON(parsed.problems)]) }
      let codingPath: [any CodingKey]
      let problem: (SourceRange) -> RegistryProblem
      switch error {
      case .keyNotFound(let key, let context):
        codingPath = context.codingPath
        problem = { .missingField(key.stringValue, at: $0) }
      case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
        codingPath = context.codingPath
        problem = { .invalidValue(context.debugDescription, at: $0) }
      @unknown default:
        return (nil, [.notARegistry("\(error)")])
      }
      let range = parsed.document.flatMap { locate(codingPath.map { $0.intValue.map(Step.index) ?? .key($0.stringValue) }, in: $0) }
      return (nil, [problem(range ?? SourceRange(at: .start))])
    } catch {
      return (nil, [.notARegistry("\(error)")])
    }
  }

  private enum Step {
    case key(String)
    case index(Int)
  }

  private static func locate(_ keys: [String], in document: YAMLDocument) -> SourceRange? {
    locate(keys.map(Step.key), in: document)
  }

  /// The range of the value at a coding path, or of the deepest part of the path that exists.
  private static func locate(_ steps: [Step], in document: YAMLDocument) -> SourceRange? {
    guard var node = document.root else { return nil }
    for step in steps {
      switch step {
      case .key(let key):
        guard let pair = document.pairs(node).first(where: { document.textEquals($0.key, key) }) else { return document.range(node) }
        node = pair.value
      case .index(let index):
        let items = document.items(node)
        guard index < items.count else { return document.range(node) }
        node = items[index]
      }
    }
    return document.range(node)
  }
}

/// Pretty JSON (two-space indent, `"key": value`, `[]` for an empty list) written key by key, in sorted
/// key order, for the registry's types.
private struct JSONTextWriter {
  var text: [UInt8] = []
  private var depth = 0

  mutating func raw(_ string: StaticString) {
    text.append(contentsOf: UnsafeBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount))
  }

  mutating func newline(indent: Int) {
    text.append(0x0A)
    text.append(contentsOf: repeatElement(0x20, count: indent * 2))
  }

  mutating func object(indent: Int, _ members: (inout JSONTextWriter) -> Void) {
    raw("{")
    depth = indent + 1
    members(&self)
    newline(indent: indent)
    raw("}")
  }

  /// One member on its own line; `last` leaves out the comma.
  mutating func member(_ key: StaticString, last: Bool, _ value: (inout JSONTextWriter) -> Void) {
    let indent = depth
    newline(indent: indent)
    raw("\"")
    raw(key)
    raw("\": ")
    value(&self)
    depth = indent
    if !last { raw(",") }
  }

  mutating func array<Element>(_ elements: [Element], indent: Int, _ element: (inout JSONTextWriter, Element) -> Void) {
    guard !elements.isEmpty else { return raw("[]") }
    raw("[")
    for (index, value) in elements.enumerated() {
      newline(indent: indent + 1)
      element(&self, value)
      if index < elements.count - 1 { raw(",") }
    }
    newline(indent: indent)
    raw("]")
  }

  mutating func int(_ value: Int) { text.append(contentsOf: String(value).utf8) }
  mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

  mutating func string(_ value: String) {
    TextEscaping.appendJSONString(value, to: &text)
  }

  mutating func location(_ location: RegistryLocation, indent: Int) {
    object(indent: indent) { writer in
      writer.member("column", last: false) { $0.int(location.column) }
      writer.member("file", last: false) { $0.string(location.file) }
      writer.member("line", last: true) { $0.int(location.line) }
    }
  }

  /// `\n  "typeAliases": [...],` before the types, when the registry has any.
  mutating func aliases(_ aliases: [DeclaredTypeAlias]?) {
    guard let aliases, !aliases.isEmpty else { return }
    raw("\n  \"typeAliases\": ")
    array(aliases, indent: 1) { writer, alias in
      writer.object(indent: 2) { writer in
        writer.member("access", last: false) { $0.string(alias.access.rawValue) }
        writer.member("aliased", last: false) { $0.string(alias.aliased) }
        writer.member("conditional", last: false) { $0.bool(alias.conditional) }
        if let parameters = alias.genericParameters {
          writer.member("genericParameters", last: false) { writer in
            writer.array(parameters, indent: 3) { writer, name in writer.string(name) }
          }
        }
        writer.member("location", last: false) { $0.location(alias.location, indent: 3) }
        if let module = alias.module { writer.member("module", last: false) { $0.string(module) } }
        writer.member("name", last: true) { $0.string(alias.name) }
      }
    }
    raw(",")
  }

  /// `\n  "methodUses": [...],` first (the keys are sorted), when the registry has them.
  mutating func uses(_ uses: [MethodUse]?) {
    guard let uses else { return }
    raw("\n  \"methodUses\": ")
    array(uses, indent: 1) { writer, use in
      writer.object(indent: 2) { writer in
        writer.member("kind", last: false) { $0.string(use.kind.rawValue) }
        writer.member("location", last: false) { $0.location(use.location, indent: 3) }
        writer.member("name", last: use.via == nil) { $0.string(use.name) }
        if let via = use.via { writer.member("via", last: true) { $0.string(via) } }
      }
    }
    raw(",")
  }

  /// `,\n  "viewReferences": [...]` after the version, when the registry has them.
  mutating func references(_ references: [ViewReference]?) {
    guard let references else { return }
    raw(",\n  \"viewReferences\": ")
    array(references, indent: 1) { writer, reference in
      writer.object(indent: 2) { writer in
        writer.member("kind", last: false) { $0.string(reference.kind.rawValue) }
        writer.member("location", last: false) { $0.location(reference.location, indent: 3) }
        if let modifiers = reference.modifiers {
          writer.member("modifiers", last: false) { writer in
            writer.array(modifiers, indent: 3) { writer, name in writer.string(name) }
          }
        }
        if let module = reference.module { writer.member("module", last: false) { $0.string(module) } }
        writer.member("names", last: reference.owner == nil && reference.root == nil) { writer in
          writer.array(reference.names, indent: 3) { writer, name in writer.string(name) }
        }
        if let owner = reference.owner { writer.member("owner", last: reference.root == nil) { $0.string(owner) } }
        if let root = reference.root { writer.member("root", last: true) { $0.string(root) } }
      }
    }
  }

  mutating func type(_ type: DeclaredType, indent: Int) {
    object(indent: indent) { writer in
      writer.member("access", last: false) { $0.string(type.access.rawValue) }
      if let attributes = type.attributes {
        writer.member("attributes", last: false) { writer in
          writer.array(attributes, indent: indent + 1) { writer, attribute in writer.string(attribute) }
        }
      }
      writer.member("conditional", last: false) { $0.bool(type.conditional) }
      writer.member("extensions", last: false) { writer in
        writer.array(type.extensions, indent: indent + 1) { writer, location in writer.location(location, indent: indent + 2) }
      }
      if let parameters = type.genericParameters, !parameters.isEmpty {
        writer.member("genericParameters", last: false) { writer in
          writer.array(parameters, indent: indent + 1) { writer, name in writer.string(name) }
        }
      }
      if let imports = type.imports {
        writer.member("imports", last: false) { writer in
          writer.array(imports, indent: indent + 1) { writer, module in writer.string(module) }
        }
      }
      writer.member("inheritance", last: false) { writer in
        writer.array(type.inheritance, indent: indent + 1) { writer, name in writer.string(name) }
      }
      if let initializers = type.initializers {
        writer.member("initializers", last: false) { writer in
          writer.array(initializers, indent: indent + 1) { writer, initializer in writer.initializer(initializer, indent: indent + 2) }
        }
      }
      writer.member("isGeneric", last: false) { $0.bool(type.isGeneric) }
      writer.member("kind", last: false) { $0.string(type.kind.rawValue) }
      writer.member("location", last: false) { $0.location(type.location, indent: indent + 1) }
      writer.member("methods", last: false) { writer in
        writer.array(type.methods, indent: indent + 1) { writer, method in writer.method(method, indent: indent + 2) }
      }
      if let module = type.module { writer.member("module", last: false) { $0.string(module) } }
      writer.member("name", last: false) { $0.string(type.name) }
      writer.member("objcMembers", last: type.properties == nil && type.subscripts == nil) { $0.bool(type.objcMembers) }
      if let properties = type.properties {
        writer.member("properties", last: type.subscripts == nil) { writer in
          writer.array(properties, indent: indent + 1) { writer, property in writer.property(property, indent: indent + 2) }
        }
      }
      if let subscripts = type.subscripts {
        writer.member("subscripts", last: true) { writer in
          writer.array(subscripts, indent: indent + 1) { writer, member in writer.subscriptMember(member, indent: indent + 2) }
        }
      }
    }
  }

  mutating func property(_ property: DeclaredProperty, indent: Int) {
    object(indent: indent) { writer in
      writer.member("access", last: false) { $0.string(property.access.rawValue) }
      writer.member("attributes", last: false) { writer in
        writer.array(property.attributes, indent: indent + 1) { writer, attribute in writer.string(attribute) }
      }
      writer.member("conditional", last: false) { $0.bool(property.conditional) }
      if property.hasEffectfulGetter { writer.member("hasEffectfulGetter", last: false) { $0.bool(true) } }
      writer.member("isComputed", last: false) { $0.bool(property.isComputed) }
      writer.member("isConstant", last: false) { $0.bool(property.isConstant) }
      writer.member("isStatic", last: false) { $0.bool(property.isStatic) }
      writer.member("location", last: false) { $0.location(property.location, indent: indent + 1) }
      let requirements = property.requirements ?? []
      let afterName = property.objcName != nil || property.type != nil || !requirements.isEmpty
      writer.member("name", last: !afterName) { $0.string(property.name) }
      if let objcName = property.objcName {
        writer.member("objcName", last: property.type == nil && requirements.isEmpty) { $0.string(objcName) }
      }
      if !requirements.isEmpty {
        writer.member("requirements", last: property.type == nil) { writer in
          writer.array(requirements, indent: indent + 1) { writer, requirement in
            writer.object(indent: indent + 2) { writer in
              writer.member("left", last: false) { $0.string(requirement.left) }
              writer.member("right", last: true) { $0.string(requirement.right) }
            }
          }
        }
      }
      if let type = property.type {
        writer.member("type", last: !property.typeIsInferred) { $0.string(type) }
        if property.typeIsInferred { writer.member("typeIsInferred", last: true) { $0.bool(true) } }
      }
    }
  }

  mutating func subscriptMember(_ member: DeclaredSubscript, indent: Int) {
    object(indent: indent) { writer in
      writer.member("access", last: false) { $0.string(member.access.rawValue) }
      writer.member("conditional", last: false) { $0.bool(member.conditional) }
      writer.member("isStatic", last: false) { $0.bool(member.isStatic) }
      writer.member("location", last: false) { $0.location(member.location, indent: indent + 1) }
      writer.member("parameterTypes", last: false) { writer in
        writer.array(member.parameterTypes, indent: indent + 1) { writer, type in writer.string(type) }
      }
      writer.member("resultType", last: true) { $0.string(member.resultType) }
    }
  }

  mutating func initializer(_ initializer: DeclaredInitializer, indent: Int) {
    object(indent: indent) { writer in
      writer.member("access", last: false) { $0.string(initializer.access.rawValue) }
      writer.member("attributes", last: false) { writer in
        writer.array(initializer.attributes, indent: indent + 1) { writer, attribute in writer.string(attribute) }
      }
      writer.member("conditional", last: false) { $0.bool(initializer.conditional) }
      if let documentation = initializer.documentation { writer.member("documentation", last: false) { $0.string(documentation) } }
      if let failability = initializer.failability { writer.member("failability", last: false) { $0.string(failability) } }
      writer.member("inGenericContext", last: false) { $0.bool(initializer.inGenericContext) }
      writer.member("location", last: false) { $0.location(initializer.location, indent: indent + 1) }
      writer.member("name", last: false) { $0.string(initializer.name) }
      writer.member("signature", last: true) { $0.signature(initializer.signature, indent: indent + 1) }
    }
  }

  mutating func method(_ method: DeclaredMethod, indent: Int) {
    object(indent: indent) { writer in
      writer.member("access", last: false) { $0.string(method.access.rawValue) }
      writer.member("attributes", last: false) { writer in
        writer.array(method.attributes, indent: indent + 1) { writer, attribute in writer.string(attribute) }
      }
      writer.member("conditional", last: false) { $0.bool(method.conditional) }
      writer.member("derivedSelector", last: false) { $0.string(method.derivedSelector) }
      if let documentation = method.documentation { writer.member("documentation", last: false) { $0.string(documentation) } }
      writer.member("inGenericContext", last: false) { $0.bool(method.inGenericContext) }
      writer.member("isStatic", last: false) { $0.bool(method.isStatic) }
      writer.member("location", last: false) { $0.location(method.location, indent: indent + 1) }
      writer.member("name", last: method.objcSelector == nil && method.signature == nil) { $0.string(method.name) }
      if let selector = method.objcSelector { writer.member("objcSelector", last: method.signature == nil) { $0.string(selector) } }
      if let signature = method.signature {
        writer.member("signature", last: true) { $0.signature(signature, indent: indent + 1) }
      }
    }
  }

  mutating func signature(_ signature: MethodSignature, indent: Int) {
    object(indent: indent) { writer in
      let last = signature.returnType == nil
      if let effects = signature.effects { writer.member("effects", last: false) { $0.string(effects) } }
      writer.member("parameters", last: last) { writer in
        writer.array(signature.parameters, indent: indent + 1) { writer, parameter in
          writer.object(indent: indent + 2) { writer in
            if parameter.hasDefaultValue { writer.member("hasDefaultValue", last: false) { $0.bool(true) } }
            if let label = parameter.label { writer.member("label", last: false) { $0.string(label) } }
            if let name = parameter.name { writer.member("name", last: false) { $0.string(name) } }
            writer.member("type", last: true) { $0.string(parameter.type) }
          }
        }
      }
      if let returnType = signature.returnType { writer.member("returnType", last: true) { $0.string(returnType) } }
    }
  }
}
