/// Links the scans of single files into one registry: types merged by module and name, extensions
/// attached to the types they extend (in any file), access and Objective-C exposure worked out as Swift
/// would.
enum RegistryLinker {
  struct File {
    var path: String
    var module: String?
    var scan: FileScan
  }

  /// - Parameter members: link each type's properties, initializers and subscripts; else only those of
  ///   the types methods' signatures name through an associated type (`typesNamedThroughAssociatedTypes`),
  ///   and the others' are nil.
  static func link(_ files: [File], members recordsMembers: Bool = true) -> (registry: HandlerRegistry, problems: [SourceProblem]) {
    let membersNeeded = recordsMembers ? nil : typesNamedThroughAssociatedTypes(files)
    func linksMembers(_ name: String) -> Bool {
      guard let membersNeeded else { return true }
      return !membersNeeded.isEmpty && membersNeeded.contains(WrittenTypeName(name).base)
    }
    var problems: [SourceProblem] = []
    var types: [TypeKey: DeclaredType] = [:]
    var byName: [String: [TypeKey]] = [:]

    // Declarations first, so that extensions anywhere can find them.
    for file in files {
      for problem in file.scan.problems {
        problems.append(SourceProblem(problem.message, at: SourceLocation(file: file.path, line: problem.line, column: problem.column)))
      }
      for scanned in file.scan.types {
        guard let kind = scanned.typeKind else { continue }
        let key = TypeKey(module: file.module, name: scanned.name)
        let location = RegistryLocation(file: file.path, line: scanned.position.line, column: scanned.position.column)
        let typeAccess = scanned.access ?? .internal
        let exposed = scanned.exposesMembersToObjC
        let methods = scanned.methods.map {
          declaredMethod(
            $0, in: file.path, typeAccess: typeAccess, extensionAccess: nil, exposedByContainer: exposed, kind: kind,
            genericContext: scanned.isGeneric)
        }
        let members =
          linksMembers(scanned.name)
          ? Members(
            scanned, in: file.path, typeAccess: typeAccess, extensionAccess: nil, exposedByContainer: exposed, kind: kind,
            genericContext: scanned.isGeneric)
          : nil
        if types[key] != nil {
          // The same type declared twice (in #if branches, say): one type with both sets of members.
          types[key]!.methods += methods
          if let members, types[key]!.properties != nil {
            types[key]!.properties! += members.properties
            types[key]!.initializers! += members.initializers
            if !members.subscripts.isEmpty { types[key]!.subscripts = (types[key]!.subscripts ?? []) + members.subscripts }
          }
          types[key]!.conditional = types[key]!.conditional && scanned.conditional
          types[key]!.addImports(file.scan.imports)
          continue
        }
        types[key] = DeclaredType(
          name: scanned.name, module: file.module, kind: kind, inheritance: scanned.inheritance, attributes: scanned.attributes,
          isGeneric: scanned.isGeneric, genericParameters: scanned.genericParameters.isEmpty ? nil : scanned.genericParameters, objcMembers: exposed,
          conditional: scanned.conditional, access: typeAccess, location: location, extensions: [], methods: methods,
          properties: members?.properties, initializers: members?.initializers,
          subscripts: members?.subscripts.isEmpty == false ? members?.subscripts : nil,
          imports: file.scan.imports)
        byName[scanned.name, default: []].append(key)
      }
    }

    var references: [ViewReference] = []
    var uses: [MethodUse] = []
    var aliases: [DeclaredTypeAlias] = []
    for file in files {
      for use in file.scan.uses {
        uses.append(
          MethodUse(
            kind: MethodUse.Kind(use.kind), name: use.name, via: use.via,
            location: RegistryLocation(file: file.path, line: use.position.line, column: use.position.column)))
      }
      for reference in file.scan.references {
        var owner: TypeKey?
        if let index = reference.owner, index < file.scan.declarations.count {
          let declaration = file.scan.declarations[index]
          owner =
            declaration.kind == .extension
            ? resolve(declaration.name, from: file.module, byName: byName) ?? TypeKey(module: nil, name: declaration.name)
            : TypeKey(module: file.module, name: declaration.name)
        }
        references.append(
          ViewReference(
            kind: ViewReference.Kind(reference.kind), names: reference.names, owner: owner?.name, module: owner?.module ?? file.module,
            location: RegistryLocation(file: file.path, line: reference.position.line, column: reference.position.column),
            root: reference.root, modifiers: reference.modifiers.isEmpty ? nil : reference.modifiers))
      }
      for alias in file.scan.typeAliases {
        aliases.append(
          DeclaredTypeAlias(
            name: alias.name, module: file.module, genericParameters: alias.genericParameters.isEmpty ? nil : alias.genericParameters,
            aliased: alias.aliased, access: alias.access ?? .internal, conditional: alias.conditional,
            location: RegistryLocation(file: file.path, line: alias.position.line, column: alias.position.column)))
      }
      for scanned in file.scan.extensions {
        let location = RegistryLocation(file: file.path, line: scanned.position.line, column: scanned.position.column)
        let key = resolve(scanned.name, from: file.module, byName: byName) ?? TypeKey(module: nil, name: scanned.name)
        if types[key] == nil {
          types[key] = DeclaredType(
            name: scanned.name, module: nil, kind: .external, inheritance: [], isGeneric: false, objcMembers: false,
            conditional: scanned.conditional, access: .public, location: location, extensions: [], methods: [],
            properties: linksMembers(scanned.name) ? [] : nil, initializers: linksMembers(scanned.name) ? [] : nil, imports: [])
        }
        // Mutated in place: a copy taken out and put back would copy its method list each time.
        let (access, exposed, kind, generic) = (
          types[key]!.access, types[key]!.objcMembers || scanned.exposesMembersToObjC, types[key]!.kind, types[key]!.isGeneric || scanned.isGeneric
        )
        types[key]!.extensions.append(location)
        types[key]!.addImports(file.scan.imports)
        for name in scanned.inheritance where !types[key]!.inheritance.contains(name) { types[key]!.inheritance.append(name) }
        types[key]!.methods += scanned.methods.map {
          declaredMethod(
            $0, in: file.path, typeAccess: access, extensionAccess: scanned.access,
            exposedByContainer: exposed, kind: kind, genericContext: generic)
        }
        if types[key]!.properties != nil, !scanned.properties.isEmpty || !scanned.initializers.isEmpty || !scanned.subscripts.isEmpty {
          var members = Members(
            scanned, in: file.path, typeAccess: access, extensionAccess: scanned.access, exposedByContainer: exposed, kind: kind,
            genericContext: generic)
          if !scanned.requirements.isEmpty {
            for index in members.properties.indices { members.properties[index].requirements = scanned.requirements }
          }
          types[key]!.properties! += members.properties
          types[key]!.initializers! += members.initializers
          if !members.subscripts.isEmpty { types[key]!.subscripts = (types[key]!.subscripts ?? []) + members.subscripts }
        }
      }
    }

    var linked = Array(types.values)
    types = [:]
    for index in linked.indices {
      linked[index].methods.sortByOrder()
      linked[index].properties?.sortByOrder()
      linked[index].initializers?.sortByOrder()
      linked[index].subscripts?.sortByOrder()
      linked[index].extensions.sort()
      linked[index].imports?.sort(by: UTF8Order.less)
    }
    linked.sortByOrder()
    references.sort { $0.location < $1.location }
    uses.sort { $0.location < $1.location }
    aliases.sort(by: DeclaredTypeAlias.order)
    return (
      inheritingObjCExposure(
        HandlerRegistry(
          sortedTypes: consume linked, viewReferences: references, methodUses: uses, typeAliases: aliases.isEmpty ? nil : aliases)),
      problems
    )
  }

  /// An `override` is exposed to Objective-C, under the same selector, when the method it overrides is:
  /// the one in a superclass in the sources, or, when none there declares it, the framework class the
  /// chain ends in (`viewDidAppear(_:)` of a `UIViewController` subclass), which target-action screens
  /// always are.
  static func inheritingObjCExposure(_ registry: consuming HandlerRegistry) -> HandlerRegistry {
    // Worked out on an index first, then applied to the registry alone: mutating the registry while the
    // index still shared its storage copied every type.
    let selectors = inheritedSelectors(in: CodeIndex(copy registry, readsSwiftUI: false))
    for (reference, selector) in selectors {
      registry.types[reference.type].methods[reference.method].objcSelector = selector
    }
    return registry
  }

  /// The selector each `override` inherits, by method.
  private static func inheritedSelectors(in index: CodeIndex) -> [MethodReference: String?] {
    var selectors: [MethodReference: String?] = [:]
    let types = index.registry.types
    func selector(_ reference: MethodReference) -> String? {
      selectors[reference] ?? types[reference.type].methods[reference.method].objcSelector
    }
    // Superclasses first, so that an override of an override sees its parent's final exposure.
    let depth = types.indices.map { index.lineage(of: $0).count }
    for type in types.indices.filter({ types[$0].kind == .class }).sorted(by: { depth[$0] < depth[$1] }) {
      let ancestors = index.lineage(of: type).dropFirst()
      // A method that satisfies a requirement of a UIKit delegate or data-source protocol the class
      // adopts (itself, in a superclass, or through a framework class) has the requirement's selector.
      let conformances = index.lineage(of: type).flatMap { types[$0].inheritance }
      let frameworkAncestry = index.ancestry(of: type)
      for (position, method) in types[type].methods.enumerated()
      where !method.isStatic && !method.attributes.contains("@nonobjc") && !method.attributes.contains(where: { $0.hasPrefix("@objc(") }) {
        if let selector = ObjCProtocols.selector(of: method.name, conformingTo: conformances, frameworkAncestry: frameworkAncestry) {
          selectors[MethodReference(type: type, method: position)] = selector
        }
      }
      for (position, method) in types[type].methods.enumerated()
      where method.objcSelector == nil && !method.isStatic && method.attributes.contains("override") && !method.attributes.contains("@nonobjc")
        && selectors[MethodReference(type: type, method: position)] == nil
      {
        let overridden = ancestors.lazy.compactMap { ancestor in
          types[ancestor].methods.firstIndex { !$0.isStatic && $0.name == method.name }.map { MethodReference(type: ancestor, method: $0) }
        }.first
        if let overridden {
          selectors[MethodReference(type: type, method: position)] = selector(overridden)
        } else if index.externalBase(of: type) != nil {
          selectors[MethodReference(type: type, method: position)] = method.derivedSelector
        }
      }
    }
    return selectors
  }

  struct TypeKey: Hashable {
    var module: String?
    var name: String
  }

  /// The type an extension extends: in the extension's own module first, then by a module-qualified
  /// name (`Shop.HomeViewController`), then anywhere if only one module declares it.
  private static func resolve(_ name: String, from module: String?, byName: [String: [TypeKey]]) -> TypeKey? {
    if let keys = byName[name] {
      if let local = keys.first(where: { $0.module == module }) { return local }
      if keys.count == 1 { return keys[0] }
    }
    if let dot = name.firstIndex(of: ".") {
      let moduleName = String(name[..<dot])
      let rest = String(name[name.index(after: dot)...])
      if let key = byName[rest]?.first(where: { $0.module == moduleName }) { return key }
    }
    return nil
  }

  /// A member's effective access: `private extension` makes its members fileprivate; a member is never
  /// more visible than its type.
  private static func effectiveAccess(_ own: AccessLevel?, typeAccess: AccessLevel, extensionAccess: AccessLevel?) -> AccessLevel {
    var access: AccessLevel
    if let own {
      access = own
    } else if let extensionAccess {
      access = extensionAccess == .private ? .fileprivate : extensionAccess
    } else {
      access = .internal
    }
    return min(access, typeAccess == .private ? .fileprivate : typeAccess)
  }

  /// The properties, initializers and subscripts of one declaration or extension, linked as its methods are.
  private struct Members {
    var properties: [DeclaredProperty] = []
    var initializers: [DeclaredInitializer] = []
    var subscripts: [DeclaredSubscript] = []

    init(
      _ scanned: ScannedDeclaration, in file: String, typeAccess: AccessLevel, extensionAccess: AccessLevel?, exposedByContainer: Bool,
      kind: DeclaredType.Kind, genericContext: Bool
    ) {
      let canBeObjC = kind == .class || kind == .external || kind == .protocol
      self.properties = scanned.properties.map { property in
        let exposed = canBeObjC && !property.isNonObjC && (property.hasObjCAttribute || exposedByContainer)
        return DeclaredProperty(
          name: property.name, type: property.type, typeIsInferred: property.typeIsInferred, isStatic: property.isStatic,
          isComputed: property.isComputed, isConstant: property.isConstant,
          access: RegistryLinker.effectiveAccess(property.access, typeAccess: typeAccess, extensionAccess: extensionAccess),
          attributes: property.attributes, objcName: exposed ? (property.explicitObjCName ?? property.name) : nil,
          hasEffectfulGetter: property.hasEffectfulGetter, conditional: property.conditional,
          location: RegistryLocation(file: file, line: property.position.line, column: property.position.column))
      }
      self.initializers = scanned.initializers.map { initializer in
        DeclaredInitializer(
          name: initializer.fullName, failability: initializer.failability,
          access: RegistryLinker.effectiveAccess(initializer.access, typeAccess: typeAccess, extensionAccess: extensionAccess),
          attributes: initializer.attributes, inGenericContext: genericContext || initializer.isGeneric, conditional: initializer.conditional,
          documentation: initializer.documentation,
          location: RegistryLocation(file: file, line: initializer.position.line, column: initializer.position.column),
          signature: MethodSignature(
            parameters: RegistryLinker.parameters(initializer.labels, initializer.parameterTypes, initializer.parameters), returnType: nil,
            effects: initializer.effects))
      }
      self.subscripts = scanned.subscripts.map { member in
        DeclaredSubscript(
          parameterTypes: member.parameterTypes, resultType: member.resultType, isStatic: member.isStatic,
          access: RegistryLinker.effectiveAccess(member.access, typeAccess: typeAccess, extensionAccess: extensionAccess),
          conditional: member.conditional, location: RegistryLocation(file: file, line: member.position.line, column: member.position.column))
      }
    }
  }

  /// The base names of the types whose members a link without members still needs: those that methods'
  /// parameter and result types name through an associated type the type resolver reads from members
  /// (`Seat.ID` is the type of `Seat`'s `id`; a bare `ID` or `Self.ID` names the method's own type and
  /// those around it), with what those types lean on in turn: the types they inherit from (an `id`
  /// declared by a superclass or required by a protocol), the aliases their names stand for, and their
  /// iterators (`makeIterator()`'s result, whose `next()` gives a sequence's `Element`). Empty for most
  /// code, where no signature names an associated type, so it costs a scan of the signatures' text.
  static func typesNamedThroughAssociatedTypes(_ files: [File]) -> Set<String> {
    var names = Set<String>()
    for file in files {
      for declaration in file.scan.declarations {
        for method in declaration.methods {
          for text in method.parameterTypes { associatedTypeOwners(text, in: declaration.name, into: &names) }
          if let text = method.returnType { associatedTypeOwners(text, in: declaration.name, into: &names) }
        }
      }
    }
    guard !names.isEmpty else { return names }
    var added = true
    // Each round adds a name or ends; the names are the sources' own, so this ends.
    while added {
      added = false
      for file in files {
        for alias in file.scan.typeAliases where names.contains(WrittenTypeName(alias.name).base) {
          added = names.insert(WrittenTypeName(alias.aliased).base).inserted || added
        }
        for declaration in file.scan.declarations where names.contains(WrittenTypeName(declaration.name).base) {
          for inherited in declaration.inheritance { added = names.insert(WrittenTypeName(inherited).base).inserted || added }
          for method in declaration.methods where method.baseName == "makeIterator" {
            if let result = method.returnType { added = names.insert(WrittenTypeName(result).base).inserted || added }
          }
        }
      }
    }
    return names
  }

  /// Adds the owners of the associated types a written type names (`Seat` of `[Seat.ID]`; `context`'s
  /// components for a bare `ID` or `Self.ID`).
  private static func associatedTypeOwners(_ text: String, in context: String, into names: inout Set<String>) {
    var components: [Substring] = []
    var start: String.Index?
    func endName(at end: String.Index) {
      guard let begin = start else { return }
      components.append(text[begin..<end])
      start = nil
    }
    func endRun() {
      defer { components.removeAll(keepingCapacity: true) }
      guard let last = components.last, TypeResolver.associatedTypeNames.contains(String(last)) else { return }
      if components.count >= 2, components[components.count - 2] != "Self" {
        names.insert(String(components[components.count - 2]))
      } else {
        for name in context.split(separator: ".") { names.insert(String(name)) }
      }
    }
    for (position, byte) in zip(text.utf8.indices, text.utf8) {
      let isNameByte =
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte >= 0x80
      if isNameByte {
        if start == nil { start = position }
      } else if byte == UInt8(ascii: ".") {
        endName(at: position)
      } else if byte != UInt8(ascii: "`") {
        endName(at: position)
        endRun()
      }
    }
    endName(at: text.endIndex)
    endRun()
  }

  /// Labels, types, names and defaults, zipped.
  private static func parameters(_ labels: [String?], _ types: [String], _ details: ScannedParameters) -> [MethodSignature.Parameter] {
    zip(labels, types).enumerated().map { index, pair in
      MethodSignature.Parameter(
        label: pair.0, name: index < details.names.count ? details.names[index] : nil, type: pair.1,
        hasDefaultValue: index < details.hasDefault.count && details.hasDefault[index])
    }
  }

  private static func declaredMethod(
    _ method: ScannedMethod, in file: String, typeAccess: AccessLevel, extensionAccess: AccessLevel?,
    exposedByContainer: Bool, kind: DeclaredType.Kind, genericContext: Bool
  ) -> DeclaredMethod {
    let access = effectiveAccess(method.access, typeAccess: typeAccess, extensionAccess: extensionAccess)
    let canBeObjC = kind == .class || kind == .external || kind == .protocol
    let exposed = canBeObjC && !method.isNonObjC && (method.hasObjCAttribute || exposedByContainer)
    return DeclaredMethod(
      name: method.fullName, isStatic: method.isStatic, access: access, attributes: method.attributes,
      objcSelector: exposed ? method.derivedSelector : nil, derivedSelector: method.derivedSelector,
      inGenericContext: genericContext || method.isGeneric, conditional: method.conditional,
      documentation: method.documentation,
      location: RegistryLocation(file: file, line: method.position.line, column: method.position.column),
      signature: MethodSignature(
        parameters: parameters(method.labels, method.parameterTypes, method.parameters),
        returnType: method.returnType, effects: method.effects))
  }
}

extension MethodUse.Kind {
  init(_ kind: ScannedUse.Kind) {
    switch kind {
    case .selector: self = .selector
    case .call: self = .call
    case .actionClosureCall: self = .actionClosureCall
    }
  }
}

extension ViewReference.Kind {
  init(_ kind: ScannedReference.Kind) {
    switch kind {
    case .hosts: self = .hosts
    case .presents: self = .presents
    case .navigates: self = .navigates
    case .tracked: self = .tracked
    case .holds: self = .holds
    case .calls: self = .calls
    case .returns: self = .returns
    }
  }
}

extension DeclaredType {
  mutating func addImports(_ modules: [String]) {
    for module in modules where !(imports ?? []).contains(module) { imports = (imports ?? []) + [module] }
  }
}

/// The registry's order: types by name, module, then location; methods by name, instance before static,
/// then location; names by UTF-8 bytes (deterministic, and faster than String's Unicode-aware `<`).
/// Keys are sorted rather than the structs: comparing the structs made the optimiser copy them
/// (retaining every field) for each comparison, a quarter of a warm run.
///
/// Methods, properties, initializers (never static) and subscripts share the members' order.
protocol RegistryOrderedMember {
  var name: String { get }
  var isStatic: Bool { get }
  var location: RegistryLocation { get }
}

extension DeclaredMethod: RegistryOrderedMember {}
extension DeclaredProperty: RegistryOrderedMember {}
extension DeclaredInitializer: RegistryOrderedMember {
  var isStatic: Bool { false }
}
extension DeclaredSubscript: RegistryOrderedMember {
  var name: String { "subscript" }
}

extension Array where Element: RegistryOrderedMember {
  mutating func sortByOrder() {
    guard count > 1 else { return }
    let keys = map { (name: $0.name, isStatic: $0.isStatic, location: $0.location) }
    let order = keys.indices.sorted { i, j in
      if let byName = UTF8Order.compare(keys[i].name, keys[j].name) { return byName }
      if keys[i].isStatic != keys[j].isStatic { return !keys[i].isStatic }
      return keys[i].location < keys[j].location
    }
    self = order.map { self[$0] }
  }
}

extension Array where Element == DeclaredType {
  mutating func sortByOrder() {
    guard count > 1 else { return }
    let keys = map { (name: $0.name, module: $0.module ?? "", location: $0.location) }
    let order = keys.indices.sorted { i, j in
      if let byName = UTF8Order.compare(keys[i].name, keys[j].name) { return byName }
      if let byModule = UTF8Order.compare(keys[i].module, keys[j].module) { return byModule }
      return keys[i].location < keys[j].location
    }
    self = order.map { self[$0] }
  }
}
