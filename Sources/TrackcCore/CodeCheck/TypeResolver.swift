import SwiftParser
import SwiftSyntax

/// A type as the Swift compiler reads it, as far as the sources tell: aliases followed (the app's own,
/// generic ones, aliases of aliases, and the SDK's in `SDKTypeAliases`), generic parameters replaced by
/// the arguments known where the type is used, optionals and collections kept apart.
public indirect enum ResolvedType: Sendable, Hashable {
  /// A type the sources declare (by registry index), with its generic arguments (none when it has no
  /// parameters, or they are not written).
  case declared(Int, arguments: [ResolvedType])
  /// A type outside the sources, by name: without its module for the standard library's and the SDK's
  /// (`Int`, `UIButton`), as written otherwise; `Array` and `Dictionary` for `[T]` and `[K: V]`.
  case external(String, arguments: [ResolvedType])
  /// `T?`, `T!`, `Optional<T>`.
  case optional(ResolvedType)
  /// A generic parameter whose argument is not known where the type is read (`Value` inside `Box<Value>`
  /// with no `Box<String>` along the way).
  case parameter(String)
  /// Not a named type: a tuple, a closure, `some P`, `any P`, `P & Q`; or text that is not a type.
  case unnamed(SwiftValueType.Unreadable)

  /// The type without its optional.
  public var unwrapped: ResolvedType {
    if case .optional(let wrapped) = self { return wrapped }
    return self
  }
}

/// Where a written type is read: inside a type (nested names first, its generic parameters), in a
/// module, with the generic arguments known there.
public struct TypeScope: Sendable {
  /// The type (by registry index) the text is written in; nil at the top level.
  public var context: Int?
  public var module: String?
  /// Generic parameters bound to arguments (`Value` to `String` along `self.box` of a `Box<String>`).
  public var arguments: [String: ResolvedType]
  /// The aliases each bound argument was written through (`EmailAddress` for the `T` of a
  /// `Holder<EmailAddress>`), which a value of that parameter's type carries.
  public var argumentAliases: [String: [String]] = [:]
  /// The text is the context's inheritance clause: names nested in the context itself are not visible
  /// there (its generic parameters are), only those of the types around it.
  public var isInheritanceClause = false

  public init(context: Int? = nil, module: String? = nil, arguments: [String: ResolvedType] = [:]) {
    self.context = context
    self.module = module
    self.arguments = arguments
  }
}

/// The one place where trackc resolves a type named in the code: bindings, property types, personal-data
/// types, screen kinds (superclasses, `View` conformances, hosting controllers' roots) and entry-point
/// parameters all read types through it, so aliases, generic arguments and type erasure are handled the
/// same way everywhere.
///
/// Names are looked up as Swift does: nested in the context and its enclosing types first, then at the
/// top level of the context's module, then in the one other module that declares the name, then
/// module-qualified (`Core.ProductID`). What cannot be known without the compiler stays unknown and is
/// said so: a generic parameter whose argument is not written along the way (`.parameter`), a type
/// outside the sources (`.external`), a type-erased value.
public struct TypeResolver: Sendable {
  private let registry: HandlerRegistry
  /// Declared (not merely extended) types by name.
  private let typesByName: [String: [Int]]
  private let aliases: [DeclaredTypeAlias]
  private let aliasesByName: [String: [Int]]
  /// The last component of every alias's name: a written name whose last component is not here (and
  /// not in `SDKTypeAliases`) is no alias, whatever its qualification.
  private let aliasBaseNames: Set<String>
  /// The last component of every nested type's or alias's name (`Tab` of `Home.Tab`): a name not here
  /// is never found nested, so its lookup skips the enclosing types.
  private let nestedBaseNames: Set<String>
  /// Every generic parameter name of the sources: a name not here is no generic parameter.
  private let genericParameterNames: Set<String>

  init(registry: HandlerRegistry, typesByName: [String: [Int]]) {
    self.registry = registry
    self.typesByName = typesByName
    let aliases = registry.typeAliases ?? []
    self.aliases = aliases
    var byName: [String: [Int]] = [:]
    var bases = Set<String>()
    for (index, alias) in aliases.enumerated() {
      byName[alias.name, default: []].append(index)
      bases.insert(String(alias.name.split(separator: ".").last ?? Substring(alias.name)))
    }
    aliasesByName = byName
    aliasBaseNames = bases
    var nested = Set<String>()
    var parameters = Set<String>()
    for name in typesByName.keys where name.utf8.contains(UInt8(ascii: ".")) {
      nested.insert(String(name.split(separator: ".").last ?? Substring(name)))
    }
    for alias in aliases where alias.name.utf8.contains(UInt8(ascii: ".")) {
      nested.insert(String(alias.name.split(separator: ".").last ?? Substring(alias.name)))
    }
    for type in registry.types { parameters.formUnion(type.genericParameters ?? []) }
    nestedBaseNames = nested
    genericParameterNames = parameters
  }

  /// The scope of a type's own declarations: nested names, its module, no arguments known.
  public func scope(of type: Int, arguments: [String: ResolvedType] = [:]) -> TypeScope {
    TypeScope(context: type, module: registry.types[type].module, arguments: arguments)
  }

  /// The scope of a type's inheritance clause (its superclass and conformances).
  public func inheritanceScope(of type: Int) -> TypeScope {
    var scope = scope(of: type)
    scope.isInheritanceClause = true
    return scope
  }

  /// The generic parameters of a type bound to arguments, in order (missing arguments stay unknown).
  public func bindings(of type: Int, to arguments: [ResolvedType]) -> [String: ResolvedType] {
    var result: [String: ResolvedType] = [:]
    for (parameter, argument) in zip(registry.types[type].genericParameters ?? [], arguments) { result[parameter] = argument }
    return result
  }

  // MARK: Resolving

  /// What `text` names, read in `scope`, and the aliases followed on the way (outermost first: `ProductID`
  /// for a `ProductID` that stands for `String`), for messages and personal-data guesses.
  public func resolve(_ text: String, in scope: TypeScope) -> (type: ResolvedType, aliases: [String]) {
    let resolved = resolveWithArguments(text, in: scope)
    return (resolved.type, resolved.aliases)
  }

  /// The same, with the aliases followed for each generic argument of the type it resolves to
  /// (`EmailAddress` for the `T` of a `Holder<EmailAddress>`): what a path read on through that type
  /// carries to a value of type `T`, so that what the argument means for privacy is not lost.
  public func resolveWithArguments(_ text: String, in scope: TypeScope) -> (
    type: ResolvedType, aliases: [String], argumentAliases: [[String]]
  ) {
    var trail = Trail()
    let type = resolveText(text, in: scope, depth: 0, trail: &trail)
    return (type, trail.aliases, trail.lastArgumentAliases)
  }

  /// What one resolution followed: the aliases (outermost first), the aliases being expanded (to tell a
  /// cycle), and the aliases each generic argument of the last named type resolved went through.
  private struct Trail {
    var aliases: [String] = []
    var expanding: [Int] = []
    var lastArgumentAliases: [[String]] = []
    /// The associated types being inferred (`owner:name`), to tell an inference that needs itself.
    var inferring: Set<String> = []
    /// Those of them that were needed while being inferred.
    var selfInferred: Set<String> = []
  }

  /// The same, without the aliases.
  public func type(_ text: String, in scope: TypeScope) -> ResolvedType {
    resolve(text, in: scope).type
  }

  /// Types in real code are short; a registry could hold anything, and nothing longer is read as a type.
  static let maxTextBytes = 1_000
  /// Aliases of aliases are followed this deep (a cycle, which does not compile, stops here too).
  static let maxDepth = 32
  /// At most this many aliases are followed for one type: aliases whose arguments repeat one another
  /// (`typealias A2 = Pair<A1, A1>`, `typealias A3 = Pair<A2, A2>`, ...) would otherwise take time
  /// exponential in their number.
  static let maxAliasesFollowed = 256

  private func resolveText(_ text: String, in scope: TypeScope, depth: Int, trail: inout Trail) -> ResolvedType {
    guard depth < Self.maxDepth else { return .unnamed(.tooDeep) }
    guard !text.isEmpty, text.utf8.count <= Self.maxTextBytes else { return .unnamed(.notAType) }
    // Most names are plain (`String`, `Core.ProductID`): no parse needed.
    if text.utf8.allSatisfy({ Self.isPlainNameByte($0) }), let first = text.utf8.first, first != UInt8(ascii: ".") {
      let components = text.split(separator: ".", omittingEmptySubsequences: false).map { SwiftIdentifier.unescaped(String($0)) }
      guard !components.contains(where: \.isEmpty) else { return .unnamed(.notAType) }
      return resolveNamed(components.map { ($0, []) }, in: scope, depth: depth, trail: &trail)
    }
    var parser = Parser(text)
    let syntax = TypeSyntax.parse(from: &parser)
    guard !syntax.hasError, syntax.trimmedDescription == text.trimmingCharacters(in: " \n\t") else { return .unnamed(.notAType) }
    return resolveSyntax(syntax, in: scope, depth: depth, trail: &trail)
  }

  private static func isPlainNameByte(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
      || byte >= 0x80
  }

  private func resolveSyntax(_ syntax: TypeSyntax, in scope: TypeScope, depth: Int, trail: inout Trail) -> ResolvedType {
    guard depth < Self.maxDepth else { return .unnamed(.tooDeep) }
    if let existential = syntax.as(SomeOrAnyTypeSyntax.self) {
      // `any Labeled`, `some Labeled`: a value whose type the compiler hides, read through the
      // requirements of a protocol the sources declare; anything else cannot be told.
      let constraint = resolveSyntax(existential.constraint, in: scope, depth: depth + 1, trail: &trail)
      if case .declared(let type, _) = constraint, registry.types[type].kind == .protocol { return .declared(type, arguments: []) }
      return .unnamed(.existential(existential.trimmedDescription))
    }
    if syntax.is(CompositionTypeSyntax.self) { return .unnamed(.existential(syntax.trimmedDescription)) }
    if let attributed = syntax.as(AttributedTypeSyntax.self) {
      // `inout`, `@escaping`, `borrowing`: the value's type is the base.
      return resolveSyntax(attributed.baseType, in: scope, depth: depth + 1, trail: &trail)
    }
    if let wrapped = syntax.as(OptionalTypeSyntax.self) {
      return .optional(resolveSyntax(wrapped.wrappedType, in: scope, depth: depth + 1, trail: &trail))
    }
    if let wrapped = syntax.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return .optional(resolveSyntax(wrapped.wrappedType, in: scope, depth: depth + 1, trail: &trail))
    }
    if let tuple = syntax.as(TupleTypeSyntax.self) {
      guard tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil else { return .unnamed(.other) }
      return resolveSyntax(only.type, in: scope, depth: depth + 1, trail: &trail)
    }
    if let array = syntax.as(ArrayTypeSyntax.self) {
      return .external("Array", arguments: [resolveSyntax(array.element, in: scope, depth: depth + 1, trail: &trail)])
    }
    if let dictionary = syntax.as(DictionaryTypeSyntax.self) {
      return .external(
        "Dictionary",
        arguments: [
          resolveSyntax(dictionary.key, in: scope, depth: depth + 1, trail: &trail),
          resolveSyntax(dictionary.value, in: scope, depth: depth + 1, trail: &trail),
        ])
    }
    guard let components = Self.components(syntax) else { return .unnamed(.other) }
    return resolveNamed(components, in: scope, depth: depth, trail: &trail)
  }

  /// `A.B<C>` as its components, each with its generic arguments; nil for anything else.
  private static func components(_ syntax: TypeSyntax) -> [(String, [TypeSyntax])]? {
    func arguments(_ clause: GenericArgumentClauseSyntax?) -> [TypeSyntax]? {
      guard let clause else { return [] }
      var types: [TypeSyntax] = []
      for argument in clause.arguments {
        guard let type = argument.argument.as(TypeSyntax.self) else { return nil }
        types.append(type)
      }
      return types
    }
    if let identifier = syntax.as(IdentifierTypeSyntax.self), let arguments = arguments(identifier.genericArgumentClause) {
      return [(SwiftIdentifier.unescaped(identifier.name.text), arguments)]
    }
    if let member = syntax.as(MemberTypeSyntax.self), let base = components(member.baseType),
      let arguments = arguments(member.genericArgumentClause)
    {
      return base + [(SwiftIdentifier.unescaped(member.name.text), arguments)]
    }
    return nil
  }

  private func resolveNamed(_ written: [(String, [TypeSyntax])], in scope: TypeScope, depth: Int, trail: inout Trail) -> ResolvedType {
    let names = written.map(\.0)
    var arguments: [ResolvedType] = []
    var argumentAliases: [[String]] = []
    for argument in written.last!.1 {
      let before = trail.aliases.count
      arguments.append(resolveSyntax(argument, in: scope, depth: depth + 1, trail: &trail))
      argumentAliases.append(Array(trail.aliases[min(before, trail.aliases.count)...]))
    }
    // `Stack<Book>.Element`: the owner's arguments, for an associated type that is its generic parameter
    // (read apart: what they are written as is not what the whole name is).
    var ownerArguments: [ResolvedType] = []
    if written.count >= 2, !written[written.count - 2].1.isEmpty {
      var inner = Trail()
      inner.expanding = trail.expanding
      inner.inferring = trail.inferring
      for argument in written[written.count - 2].1 { ownerArguments.append(resolveSyntax(argument, in: scope, depth: depth + 1, trail: &inner)) }
    }
    return resolveName(
      names, arguments: arguments, argumentAliases: argumentAliases, ownerArguments: ownerArguments, in: scope, depth: depth, trail: &trail)
  }

  private func resolveName(
    _ names: [String], arguments: [ResolvedType], argumentAliases: [[String]] = [], ownerArguments: [ResolvedType] = [], in scope: TypeScope,
    depth: Int, trail: inout Trail
  ) -> ResolvedType {
    // A generic parameter in scope, with the aliases its argument went through.
    if names.count == 1, arguments.isEmpty, let parameter = genericParameter(names[0], in: scope) {
      trail.aliases += scope.argumentAliases[names[0]] ?? []
      return parameter
    }
    let name = names.joined(separator: ".")
    switch lookUp(names, in: scope) {
    case .type(let type)?:
      trail.lastArgumentAliases = argumentAliases
      return .declared(type, arguments: arguments)
    case .alias(let index)?:
      guard trail.aliases.count < Self.maxAliasesFollowed else { return .unnamed(.tooDeep) }
      let alias = self.aliases[index]
      // An alias that stands, through others, for itself: the compiler refuses the cycle; say it is one.
      if let start = trail.expanding.firstIndex(of: index) {
        return .unnamed(.aliasCycle(trail.expanding[start...].map { self.aliases[$0].name } + [alias.name]))
      }
      trail.aliases.append(name)
      trail.expanding.append(index)
      defer { trail.expanding.removeLast() }
      var aliasScope = TypeScope(context: nil, module: alias.module, arguments: [:])
      if let dot = alias.name.lastIndex(of: ".") {
        let enclosing = String(alias.name[..<dot])
        aliasScope.context = typesByName[enclosing].flatMap { candidates in
          candidates.first { registry.types[$0].module == alias.module } ?? candidates.first
        }
        // An alias nested in the type the text is read in sees that type's arguments.
        if let context = scope.context, aliasScope.context == context || registry.types[context].name.hasPrefix(enclosing + ".") {
          aliasScope.arguments = scope.arguments
        }
      }
      for (position, (parameter, argument)) in zip(alias.genericParameters ?? [], arguments).enumerated() {
        aliasScope.arguments[parameter] = argument
        if position < argumentAliases.count { aliasScope.argumentAliases[parameter] = argumentAliases[position] }
      }
      return resolveText(alias.aliased, in: aliasScope, depth: depth + 1, trail: &trail)
    case nil:
      break
    }
    if let associated = associatedType(names, arguments: arguments, ownerArguments: ownerArguments, in: scope, depth: depth, trail: &trail) {
      return associated
    }
    // A name two other modules declare (and the code does not qualify): which one is meant cannot be told.
    if let modules = ambiguity(names, in: scope) { return .unnamed(.ambiguous(name: name, modules: modules)) }
    // Outside the sources: the SDK's aliases, then the name itself.
    var plain = names
    if plain.count == 2, SDKTypeAliases.modules.contains(plain[0]) { plain.removeFirst() }
    if plain.count == 1, arguments.isEmpty, let target = SDKTypeAliases.table[plain[0]] {
      trail.aliases.append(name)
      return .external(target, arguments: [])
    }
    if plain.count == 1 {
      switch (plain[0], arguments.count) {
      case ("Optional", 1): return .optional(arguments[0])
      default: return .external(plain[0], arguments: arguments)
      }
    }
    return .external(name, arguments: arguments)
  }

  /// The associated types of the standard library's common protocols that trackc reads from a conforming
  /// type's own declarations, as the compiler infers them (an alias or a nested type of that name, found
  /// first, wins; so does a generic parameter of the type, `Stack<Book>.Element`):
  /// - `Identifiable.ID`: the type of its `id` (`ObjectIdentifier` for a class that declares none);
  /// - `RawRepresentable.RawValue`: an enum's raw type, or the type of its `rawValue`;
  /// - `Collection.Element`: the result of its subscript by position (`subscript(position: Int) -> Book`);
  ///   `Sequence.Element`: the element of what `makeIterator()` returns, an iterator's the result of its
  ///   `next()`; an `OptionSet`'s, itself; a `SetAlgebra`'s, what `contains(_:)` takes;
  /// - `Collection.Index`: the type of its `startIndex` (or `endIndex`, or its subscript's parameter);
  /// - `Sequence.Iterator`: what `makeIterator()` returns (a collection's default: `IndexingIterator<Self>`);
  /// - `CaseIterable.AllCases`: the type of its static `allCases` (by default `[Self]`).
  ///
  /// The members are the type's own, its extensions', and those of the classes and protocols of the
  /// sources it inherits from (an `id` a protocol requires or its extension declares).
  static let associatedTypeNames: Set<String> = ["ID", "RawValue", "Element", "Index", "Iterator", "AllCases"]

  static let collectionProtocols: Set<String> = [
    "Collection", "BidirectionalCollection", "RandomAccessCollection", "MutableCollection", "RangeReplaceableCollection",
  ]

  /// Standard library sequences and iterators whose `Element` their generic signature fixes: their first
  /// argument (`AnyIterator<Book>`), or the element of the collection their first argument is
  /// (`IndexingIterator<[Book]>`).
  static let elementIsFirstArgument: Set<String> = [
    "Array", "ArraySlice", "ContiguousArray", "Set", "AnyIterator", "AnySequence", "AnyCollection", "AnyBidirectionalCollection",
    "AnyRandomAccessCollection", "CollectionOfOne", "Range", "ClosedRange",
  ]
  static let elementOfFirstArgument: Set<String> = ["IndexingIterator", "ReversedCollection", "Slice", "LazySequence", "LazyCollection"]

  /// Parameter types of a collection's subscripts that give slices, not elements.
  private static let sliceParameters: Set<String> = [
    "Range", "ClosedRange", "PartialRangeFrom", "PartialRangeThrough", "PartialRangeUpTo", "UnboundedRange",
  ]

  private func associatedType(
    _ names: [String], arguments: [ResolvedType], ownerArguments written: [ResolvedType], in scope: TypeScope, depth: Int, trail: inout Trail
  ) -> ResolvedType? {
    guard let last = names.last, Self.associatedTypeNames.contains(last), arguments.isEmpty else { return nil }
    // The conforming type and the arguments it is known with.
    var owners: [(type: Int, arguments: [String: ResolvedType])] = []
    if names.count == 1 || (names.count == 2 && names[0] == "Self") {
      // Written inside the type (or one nested in it): the context and the types around it.
      guard let context = scope.context else { return nil }
      var enclosing = registry.types[context].name.split(separator: ".").map(String.init)
      owners.append((context, scope.arguments))
      while enclosing.count > 1 {
        enclosing.removeLast()
        if let outer = typesByName[enclosing.joined(separator: ".")]?.first(where: { registry.types[$0].module == registry.types[context].module }) {
          owners.append((outer, [:]))
        }
      }
      if names.count == 2 { owners = Array(owners.prefix(1)) }
    } else {
      var inner = Trail()
      inner.expanding = trail.expanding
      inner.inferring = trail.inferring
      guard
        case .declared(let owner, let ownerArguments) = resolveName(
          Array(names.dropLast()), arguments: written, in: scope, depth: depth + 1, trail: &inner)
      else { return nil }
      owners.append((owner, bindings(of: owner, to: ownerArguments)))
    }
    let name = names.joined(separator: ".")
    for (owner, ownerArguments) in owners {
      let mark = trail.aliases.count
      trail.aliases.append(name)
      if let inferred = infer(last, of: owner, arguments: ownerArguments, depth: depth + 1, trail: &trail) { return inferred }
      trail.aliases.removeSubrange(mark...)
    }
    return nil
  }

  /// The associated type `name` of `owner` (see `associatedTypeNames`), nil when its declarations do not
  /// give it. An inference that needs itself (`func next() -> Element?` with no `Element` declared) gives
  /// nil, as the compiler gives an error.
  private func infer(_ name: String, of owner: Int, arguments: [String: ResolvedType], depth: Int, trail: inout Trail) -> ResolvedType? {
    guard depth < Self.maxDepth else { return nil }
    if let parameters = registry.types[owner].genericParameters, parameters.contains(name) { return arguments[name] ?? .parameter(name) }
    let key = "\(owner):\(name)"
    guard trail.inferring.insert(key).inserted else {
      trail.selfInferred.insert(key)
      return nil
    }
    let inferred = inferFromMembers(name, of: owner, arguments: arguments, depth: depth, trail: &trail)
    trail.inferring.remove(key)
    // Whatever was read while the type was needed to read it is no answer.
    return trail.selfInferred.remove(key) == nil ? inferred : nil
  }

  private func inferFromMembers(_ name: String, of owner: Int, arguments: [String: ResolvedType], depth: Int, trail: inout Trail)
    -> ResolvedType?
  {
    let type = registry.types[owner]
    let (supertypes, conformances) = self.supertypes(of: owner)
    let members = [owner] + supertypes
    // `text` as written in `declarer`: read there, with the owner's arguments when it is the owner.
    func read(_ found: (text: String, declarer: Int)) -> ResolvedType {
      resolveText(found.text, in: scope(of: found.declarer, arguments: found.declarer == owner ? arguments : [:]), depth: depth + 1, trail: &trail)
    }
    func conforms(_ protocols: Set<String>) -> Bool { !conformances.isDisjoint(with: protocols) }
    let isCollection = conforms(Self.collectionProtocols)
    switch name {
    case "ID":
      guard conforms(["Identifiable"]) else { return nil }
      if let id = property("id", in: members) { return read(id) }
      if type.kind == .class { return .external("ObjectIdentifier", arguments: []) }
    case "RawValue":
      if type.kind == .enum, let raw = type.inheritance.first {
        // An enum's raw type is the first of its inheritance clause, when it is a type and no protocol.
        var inner = Trail()
        let rawType = resolveText(raw, in: inheritanceScope(of: owner), depth: depth + 1, trail: &inner)
        if case .external(let rawName, []) = rawType, CaptureConversion.standard(rawName) != nil {
          trail.aliases += inner.aliases
          return rawType
        }
      }
      guard conforms(["RawRepresentable", "OptionSet"]), let raw = property("rawValue", in: members) else { return nil }
      return read(raw)
    case "Index":
      guard isCollection else { return nil }
      if let index = property("startIndex", in: members) ?? property("endIndex", in: members) { return read(index) }
      if let element = elementSubscript(in: members, index: nil) { return read((element.parameterType, element.declarer)) }
    case "Element":
      if isCollection, let element = elementSubscript(in: members, index: indexType(of: owner, arguments: arguments, depth: depth, trail: trail)) {
        return read((element.resultType, element.declarer))
      }
      if conforms(["OptionSet"]) { return selfType(owner, arguments) }
      if conforms(["IteratorProtocol"]), let next = methodResult("next()", in: members) {
        return read(next).unwrapped
      }
      if conforms(Self.collectionProtocols.union(["Sequence"])), let iterator = methodResult("makeIterator()", in: members) {
        return element(of: read(iterator), depth: depth, trail: &trail)
      }
      if conforms(["SetAlgebra"]), let member = methodParameter("contains(_:)", in: members) { return read(member) }
    case "Iterator":
      guard conforms(Self.collectionProtocols.union(["Sequence"])) else { return nil }
      if let iterator = methodResult("makeIterator()", in: members) { return read(iterator) }
      if isCollection { return .external("IndexingIterator", arguments: [selfType(owner, arguments)]) }
    case "AllCases":
      guard conforms(["CaseIterable"]) else { return nil }
      if let all = property("allCases", isStatic: true, in: members) { return read(all) }
      return .external("Array", arguments: [selfType(owner, arguments)])
    default:
      break
    }
    return nil
  }

  /// The classes and protocols of the sources a type inherits from, nearest first, and the names of all
  /// it conforms to or inherits from, in the sources or outside them (`Identifiable`, `Collection`).
  private func supertypes(of type: Int) -> (declared: [Int], names: Set<String>) {
    var declared: [Int] = []
    var names = Set<String>()
    var queue = [type]
    var next = 0
    // Inheritance is acyclic in code that compiles; a registry could say anything, so each type once.
    while next < queue.count, queue.count <= 64 {
      let current = queue[next]
      next += 1
      for written in inheritedNames(of: current) {
        let components = written.split(separator: ".").map(String.init)
        guard let base = components.last else { continue }
        names.insert(base)
        if case .type(let found)? = lookUp(components, in: inheritanceScope(of: current)), !queue.contains(found) {
          queue.append(found)
          declared.append(found)
        }
      }
    }
    return (declared, names)
  }

  /// The type of an instance (or static) property of the first of `types` that declares it, and which.
  private func property(_ name: String, isStatic: Bool = false, in types: [Int]) -> (text: String, declarer: Int)? {
    for type in types {
      if let found = (registry.types[type].properties ?? []).first(where: { $0.name == name && $0.isStatic == isStatic }), let text = found.type {
        return (text, type)
      }
    }
    return nil
  }

  /// The declared result type of an instance method (by full name) of the first of `types` that declares it.
  private func methodResult(_ name: String, in types: [Int]) -> (text: String, declarer: Int)? {
    for type in types {
      if let found = registry.types[type].methods.first(where: { $0.name == name && !$0.isStatic }), let text = found.signature?.returnType {
        return (text, type)
      }
    }
    return nil
  }

  /// The type of the only parameter of an instance method (by full name) of the first of `types` that declares it.
  private func methodParameter(_ name: String, in types: [Int]) -> (text: String, declarer: Int)? {
    for type in types {
      if let found = registry.types[type].methods.first(where: { $0.name == name && !$0.isStatic }),
        let parameters = found.signature?.parameters, parameters.count == 1
      {
        return (parameters[0].type, type)
      }
    }
    return nil
  }

  /// The subscript a collection's `Element` is inferred from: an instance subscript of one parameter that
  /// is no range (those give slices); where several results remain, the one whose parameter is `index`;
  /// nil when that does not tell one.
  private func elementSubscript(in types: [Int], index: ResolvedType?) -> (parameterType: String, resultType: String, declarer: Int)? {
    for type in types {
      let candidates = (registry.types[type].subscripts ?? []).filter { member in
        member.parameterTypes.count == 1 && !member.isStatic && !Self.sliceParameters.contains(WrittenTypeName(member.parameterTypes[0]).base)
          && !member.parameterTypes[0].contains("->")
      }
      guard let first = candidates.first else { continue }
      if candidates.allSatisfy({ $0.resultType == first.resultType }) { return (first.parameterTypes[0], first.resultType, type) }
      guard let index else { return nil }
      let matching = candidates.filter { self.type($0.parameterTypes[0], in: scope(of: type)) == index }
      guard let only = matching.first, matching.allSatisfy({ $0.resultType == only.resultType }) else { return nil }
      return (only.parameterTypes[0], only.resultType, type)
    }
    return nil
  }

  /// A collection's `Index`, read without the aliases it goes through (only to choose a subscript).
  private func indexType(of owner: Int, arguments: [String: ResolvedType], depth: Int, trail: Trail) -> ResolvedType? {
    var inner = Trail()
    inner.inferring = trail.inferring
    return infer("Index", of: owner, arguments: arguments, depth: depth + 1, trail: &inner)
  }

  /// The type itself, with its arguments as known (`Self`).
  private func selfType(_ owner: Int, _ arguments: [String: ResolvedType]) -> ResolvedType {
    .declared(owner, arguments: (registry.types[owner].genericParameters ?? []).map { arguments[$0] ?? .parameter($0) })
  }

  /// The `Element` of a sequence or iterator: inferred for a type of the sources, read from the generic
  /// signature of the standard library's (`elementIsFirstArgument`, `elementOfFirstArgument`).
  private func element(of sequence: ResolvedType, depth: Int, trail: inout Trail) -> ResolvedType? {
    guard depth < Self.maxDepth else { return nil }
    switch sequence {
    case .declared(let type, let arguments):
      return infer("Element", of: type, arguments: bindings(of: type, to: arguments), depth: depth + 1, trail: &trail)
    case .external(let name, let arguments):
      guard let first = arguments.first else { return nil }
      let base = String(name.split(separator: ".").last ?? Substring(name))
      if Self.elementIsFirstArgument.contains(base) { return first }
      if Self.elementOfFirstArgument.contains(base) { return element(of: first, depth: depth + 1, trail: &trail) }
      return nil
    default:
      return nil
    }
  }

  /// The modules that declare a name that is not found from `scope` because several of them do (none
  /// of them the scope's own): nil for a name declared once or nowhere.
  private func ambiguity(_ names: [String], in scope: TypeScope) -> [String]? {
    let name = names.joined(separator: ".")
    var modules = Set<String>()
    for type in typesByName[name] ?? [] { modules.insert(registry.types[type].module ?? "?") }
    for alias in aliasesByName[name] ?? [] { modules.insert(aliases[alias].module ?? "?") }
    return modules.count > 1 ? modules.sorted() : nil
  }

  /// A generic parameter of the context or an enclosing type, bound or not.
  private func genericParameter(_ name: String, in scope: TypeScope) -> ResolvedType? {
    if let bound = scope.arguments[name] { return bound }
    guard let context = scope.context, genericParameterNames.contains(name) else { return nil }
    // The context and the types it is nested in.
    var enclosing = registry.types[context].name.split(separator: ".").map(String.init)
    var candidates: [Int] = [context]
    while enclosing.count > 1 {
      enclosing.removeLast()
      if let outer = typesByName[enclosing.joined(separator: ".")]?.first(where: { registry.types[$0].module == scope.module }) {
        candidates.append(outer)
      }
    }
    for type in candidates where registry.types[type].genericParameters?.contains(name) == true {
      return .parameter(name)
    }
    return nil
  }

  private enum Found {
    case type(Int)
    case alias(Int)
  }

  /// A declared type or an alias of this (dotted) name, looked up as Swift does from `scope`.
  private func lookUp(_ names: [String], in scope: TypeScope) -> Found? {
    let name = names.joined(separator: ".")
    let hasTypes = typesByName[name] != nil
    let lastIsAlias = aliasBaseNames.contains(names.last!)
    // Nested in the context or an enclosing type first (only names some nested declaration has).
    if let context = scope.context, nestedBaseNames.contains(names.first!) {
      var enclosing = registry.types[context].name.split(separator: ".").map(String.init)
      if scope.isInheritanceClause { enclosing.removeLast() }
      while !enclosing.isEmpty {
        let qualified = (enclosing + [name]).joined(separator: ".")
        if let found = declared(qualified, preferring: scope.module, aliasesToo: lastIsAlias) { return found }
        enclosing.removeLast()
      }
    }
    if hasTypes || lastIsAlias, let found = declared(name, preferring: scope.module, aliasesToo: lastIsAlias) {
      return found
    }
    if names.count >= 2 {
      // `Core.ProductID`: module-qualified.
      let rest = names.dropFirst().joined(separator: ".")
      if let type = typesByName[rest]?.first(where: { registry.types[$0].module == names[0] }) { return .type(type) }
      if lastIsAlias, let alias = aliasesByName[rest]?.first(where: { aliases[$0].module == names[0] }) { return .alias(alias) }
    }
    return nil
  }

  /// A type or alias of exactly this name: the one in `module`, else the only one; nil when several
  /// other modules declare it (the code must qualify it).
  private func declared(_ name: String, preferring module: String?, aliasesToo: Bool) -> Found? {
    let types = typesByName[name] ?? []
    if let local = types.first(where: { registry.types[$0].module == module }) { return .type(local) }
    // An alias declared differently in `#if` branches resolves to the first branch.
    let aliasIndices = aliasesToo ? (aliasesByName[name] ?? []) : []
    if let local = aliasIndices.first(where: { aliases[$0].module == module }) { return .alias(local) }
    if types.count == 1 { return .type(types[0]) }
    if types.isEmpty, let first = aliasIndices.first, aliasIndices.allSatisfy({ aliases[$0].module == aliases[first].module }) {
      return .alias(first)
    }
    return nil
  }

  // MARK: What callers ask

  /// `type` with the generic parameters `arguments` binds replaced by their arguments.
  public func substitute(_ type: ResolvedType, _ arguments: [String: ResolvedType]) -> ResolvedType {
    guard !arguments.isEmpty else { return type }
    switch type {
    case .parameter(let name): return arguments[name] ?? type
    case .declared(let index, let inner): return .declared(index, arguments: inner.map { substitute($0, arguments) })
    case .external(let name, let inner): return .external(name, arguments: inner.map { substitute($0, arguments) })
    case .optional(let wrapped): return .optional(substitute(wrapped, arguments))
    case .unnamed: return type
    }
  }

  /// Whether the type holds a generic parameter whose argument is not known.
  public func hasUnknownParameter(_ type: ResolvedType) -> Bool {
    switch type {
    case .parameter: return true
    case .declared(_, let inner), .external(_, let inner): return inner.contains(where: hasUnknownParameter)
    case .optional(let wrapped): return hasUnknownParameter(wrapped)
    case .unnamed: return false
    }
  }

  /// The name a resolved type is known by in messages: `String`, `Box<String>`, `[Int]`, `Int?`.
  public func describe(_ type: ResolvedType) -> String {
    switch type {
    case .declared(let index, let arguments):
      return registry.types[index].name + (arguments.isEmpty ? "" : "<" + arguments.map(describe).joined(separator: ", ") + ">")
    case .external("Array", let arguments) where arguments.count == 1:
      return "[" + describe(arguments[0]) + "]"
    case .external("Dictionary", let arguments) where arguments.count == 2:
      return "[" + describe(arguments[0]) + ": " + describe(arguments[1]) + "]"
    case .external(let name, let arguments):
      return name + (arguments.isEmpty ? "" : "<" + arguments.map(describe).joined(separator: ", ") + ">")
    case .optional(let wrapped):
      return describe(wrapped) + "?"
    case .parameter(let name):
      return name
    case .unnamed:
      return "?"
    }
  }

  /// The name of a type outside the sources or declared in them, without arguments or module (`View`,
  /// `UIViewController`): what conformance and framework-class checks compare; nil for anything else.
  public func baseName(_ type: ResolvedType) -> String? {
    switch type {
    case .declared(let index, _): return registry.types[index].name
    case .external(let name, _): return String(name.split(separator: ".").last ?? Substring(name))
    default: return nil
    }
  }

  /// A written type with the aliases on its way replaced by what they stand for (`Ticket.ID` as `String`,
  /// `[Count]` as `[Int]`), for what reads a type's form from its text (`ObjCSignature`); the text itself
  /// when no alias is followed, when it is written with a modifier (`inout`, an attribute, a variadic
  /// `...`), or when what it stands for has no name to write.
  public func withoutAliases(_ written: String, in scope: TypeScope) -> String {
    guard !written.contains("@"), !written.contains("..."), !written.contains("inout "), !written.contains("->") else { return written }
    let (type, aliases) = resolve(written, in: scope)
    guard !aliases.isEmpty, isNameable(type) else { return written }
    return describe(type)
  }

  private func isNameable(_ type: ResolvedType) -> Bool {
    switch type {
    case .declared(_, let arguments), .external(_, let arguments): return arguments.allSatisfy(isNameable)
    case .optional(let wrapped): return isNameable(wrapped)
    case .parameter, .unnamed: return false
    }
  }

  /// Whether a written name may be an alias at all (its last component is an alias's, or the SDK's):
  /// the quick test that lets callers skip resolving the common plain names.
  public func mayBeAlias(_ written: String) -> Bool {
    let base = WrittenTypeName(written).base
    return aliasBaseNames.contains(base) || SDKTypeAliases.table[base] != nil
  }

  /// The names a type's inheritance clause stands for, aliases followed (a composition alias,
  /// `typealias Screen = View & Identifiable`, gives each of its members): each as `WrittenTypeName`'s
  /// `qualified` gives it (`View`, `SwiftUI.View`, `UIHostingController`).
  public func inheritedNames(of type: Int) -> [String] {
    let inheritance = registry.types[type].inheritance
    guard inheritance.contains(where: mayBeAlias) else { return inheritance.map { WrittenTypeName($0).qualified } }
    var result: [String] = []
    for written in inheritance {
      guard mayBeAlias(written) else {
        result.append(WrittenTypeName(written).qualified)
        continue
      }
      result += expandedConformances(written, in: inheritanceScope(of: type), depth: 0)
    }
    return result
  }

  private func expandedConformances(_ written: String, in scope: TypeScope, depth: Int) -> [String] {
    guard depth < Self.maxDepth else { return [] }
    let names = WrittenTypeName(written).qualified.split(separator: ".").map(String.init)
    guard !names.isEmpty, case .alias(let index)? = lookUp(names, in: scope) else {
      if let target = SDKTypeAliases.table[WrittenTypeName(written).base] { return [target] }
      return [WrittenTypeName(written).qualified]
    }
    let alias = aliases[index]
    let aliasScope = TypeScope(context: nil, module: alias.module)
    return alias.aliased.split(separator: "&").flatMap { part in
      expandedConformances(String(part).trimmingCharacters(in: " \n\t"), in: aliasScope, depth: depth + 1)
    }
  }
}

extension String {
  /// Without leading and trailing characters of `set`.
  fileprivate func trimmingCharacters(in set: String) -> String {
    let scalars = unicodeScalars
    guard let start = scalars.firstIndex(where: { !set.unicodeScalars.contains($0) }) else { return "" }
    let end = scalars.lastIndex(where: { !set.unicodeScalars.contains($0) })!
    return String(scalars[start...end])
  }
}
