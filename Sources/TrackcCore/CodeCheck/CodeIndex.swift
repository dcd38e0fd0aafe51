/// The declared handlers, indexed for resolving screen and handler names from a config.
public struct CodeIndex: Sendable {
  public let registry: HandlerRegistry
  /// The framework classes the sources inherit from, Apple's and the config's.
  public let frameworkClasses: FrameworkClasses
  /// Declared (not merely extended) types by name (`Outer.Inner`).
  private let byName: [String: [Int]]
  private let superclasses: [Int?]
  /// Each class's superclass's generic arguments as written (`Product` of `ListViewController<Product>`),
  /// read in the class's scope (they may name its own parameters).
  private let superclassArguments: [[ResolvedType]]
  /// The one place types named in the code are resolved (aliases, generic arguments).
  public let types: TypeResolver
  /// The SwiftUI side of the sources: views, screens, view models, `.tracked(_:)` uses.
  public private(set) var swiftUI = SwiftUIIndex.empty

  public init(_ registry: HandlerRegistry, frameworkClasses: FrameworkClasses = .apple) {
    self.init(registry, frameworkClasses: frameworkClasses, readsSwiftUI: true)
  }

  /// - Parameter readsSwiftUI: work out `swiftUI` (the linker, which asks only about classes, does not).
  init(_ registry: HandlerRegistry, frameworkClasses: FrameworkClasses = .apple, readsSwiftUI: Bool) {
    self.registry = registry
    self.frameworkClasses = frameworkClasses
    var byName: [String: [Int]] = [:]
    for (index, type) in registry.types.enumerated() where type.kind != .external {
      byName[type.name, default: []].append(index)
    }
    self.byName = byName
    let resolver = TypeResolver(registry: registry, typesByName: byName)
    types = resolver
    // A class's superclass, when the first type it inherits from resolves to a class in the sources:
    // written plainly, with generic arguments (`ListViewController<Product>`), with its module
    // (`Core.BaseViewController`) or through an alias; nested names and the class's own module first.
    var arguments: [[ResolvedType]] = []
    arguments.reserveCapacity(registry.types.count)
    superclasses = registry.types.indices.map { index in
      let type = registry.types[index]
      guard type.kind == .class, let first = type.inheritance.first else {
        arguments.append([])
        return nil
      }
      if let plain = byName[first], !resolver.mayBeAlias(first) {
        // The common case, a plain name: no resolving needed.
        let candidates = plain.filter { registry.types[$0].kind == .class }
        if !candidates.isEmpty {
          arguments.append([])
          return candidates.first { registry.types[$0].module == type.module } ?? candidates.first
        }
      }
      guard case .declared(let superclass, let written) = resolver.type(first, in: resolver.inheritanceScope(of: index)),
        registry.types[superclass].kind == .class, superclass != index
      else {
        arguments.append([])
        return nil
      }
      arguments.append(written)
      return superclass
    }
    superclassArguments = arguments
    if readsSwiftUI { swiftUI = SwiftUIIndex(index: self) }
  }

  public subscript(type: Int) -> DeclaredType { registry.types[type] }

  /// The declared (not merely extended) types of this name (`Outer.Inner`).
  func byNameLookup(_ name: String) -> [Int] { byName[name] ?? [] }

  public subscript(method: MethodReference) -> DeclaredMethod { registry.types[method.type].methods[method.method] }

  /// The type and its superclasses in the sources, nearest first.
  public func lineage(of type: Int) -> [Int] {
    superclassChain(from: type) { superclasses[$0] }
  }

  /// The nearest superclass outside the sources (`UIViewController`, `UIHostingController`), without
  /// module or generic arguments, if the chain ends in one: the first type the last class of the chain
  /// inherits from (aliases followed), unless that is a protocol (of the sources, or a common one such as
  /// `ObservableObject`).
  public func externalBase(of type: Int) -> String? {
    externalSuperclass(of: type)?.name
  }

  /// The same, with its generic arguments (`SettingsView` of `UIHostingController<SettingsView>`).
  func externalSuperclass(of type: Int) -> (name: String, arguments: [ResolvedType])? {
    guard let last = lineage(of: type).last, registry.types[last].kind == .class, let first = registry.types[last].inheritance.first
    else { return nil }
    var written = WrittenTypeName(first)
    var arguments: [ResolvedType]?
    if types.mayBeAlias(first) {
      switch types.type(first, in: types.inheritanceScope(of: last)) {
      case .external(let name, let resolved):
        written = WrittenTypeName(name)
        arguments = resolved
      case .declared(let declared, _) where registry.types[declared].kind == .protocol:
        return nil
      default:
        break
      }
    }
    if FrameworkClasses.commonProtocols.contains(written.base) && !frameworkClasses.contains(written.base) { return nil }
    if let declared = byName[written.qualified] ?? byName[written.base], declared.contains(where: { registry.types[$0].kind == .protocol }) {
      return nil
    }
    let resolvedArguments =
      arguments ?? written.arguments.map { types.type($0, in: types.inheritanceScope(of: last)) }
    return (written.base, resolvedArguments)
  }

  /// The type and its superclasses in the sources, nearest first, each with its generic parameters bound
  /// to what is known: `arguments` for the type itself, the arguments its subclass gives for each
  /// superclass (`class ProductList: ListViewController<Product>` binds `Item` of `ListViewController<Item>`).
  public func lineage(of type: Int, arguments: [ResolvedType]) -> [(type: Int, arguments: [String: ResolvedType])] {
    var result: [(type: Int, arguments: [String: ResolvedType])] = []
    var bound = types.bindings(of: type, to: arguments)
    for (position, owner) in lineage(of: type).enumerated() {
      if position > 0 {
        let previous = result[position - 1]
        let given = superclassArguments[previous.type].map { types.substitute($0, previous.arguments) }
        bound = types.bindings(of: owner, to: given)
      }
      result.append((owner, bound))
    }
    return result
  }

  /// Every class name the type inherits from, nearest first, itself included: its superclasses in the
  /// sources, then the framework class the chain ends in and that class's own superclasses as far as
  /// `frameworkClasses` knows them.
  public func ancestry(of type: Int) -> [String] {
    let inSources = lineage(of: type).map { registry.types[$0].name }
    guard let base = externalBase(of: type) else { return inSources }
    return inSources + frameworkClasses.ancestry(of: base)
  }

  /// Whether the type is a view controller: a class that reaches `UIViewController` or
  /// `NSViewController` through the sources and the framework classes.
  public func isViewController(_ type: Int) -> Bool {
    registry.types[type].kind == .class && ancestry(of: type).contains(where: FrameworkClasses.viewControllerRoots.contains)
  }

  /// Whether the class's superclass chain ends in a class of the sources that inherits no class at all
  /// (nothing, or protocols only): a Swift root class, which no framework class's method reaches.
  public func isRootClass(_ type: Int) -> Bool {
    guard registry.types[type].kind == .class, let last = lineage(of: type).last, registry.types[last].kind == .class else { return false }
    return registry.types[last].inheritance.isEmpty || externalSuperclass(of: type) == nil
  }

  /// Whether the class derives from `NSObject` as far as the sources and the framework classes tell (so
  /// that its methods can be exposed to Objective-C); false also when the chain ends in an unknown class.
  public func isKnownObjCClass(_ type: Int) -> Bool {
    registry.types[type].kind == .class && ancestry(of: type).contains("NSObject")
  }

  /// A screen of a kind `conventions.require_screens` names, and how to say what it is.
  public struct RequiredScreen: Sendable {
    public var type: Int
    /// The entry of `require_screens` it answers to.
    public var requirement: String
    /// "a UIViewController", "a SwiftUI screen (presented or navigated to)", "a view model (an ObservableObject a view holds)".
    public var description: String
  }

  /// The screens `require_screens` asks for: the classes deriving from its base classes (`screenClasses`),
  /// the SwiftUI views that are screens for `View`, the view models of each kind for `ObservableObject`
  /// and `Observable`. A view shown only by hosting controller subclasses that are listed (`listed`) is
  /// theirs, not a screen of its own.
  public func requiredScreens(_ requirements: Set<String>, listed: Set<Int>) -> [RequiredScreen] {
    var result = screenClasses(derivingFrom: requirements).map { screen in
      // Through a framework class of its own (`UITableViewController`), said so.
      let through = externalBase(of: screen.type).flatMap { $0 != screen.base && frameworkClasses.contains($0) ? $0 : nil }
      return RequiredScreen(
        type: screen.type, requirement: screen.base, description: "a \(screen.base)" + (through.map { " (a \($0))" } ?? ""))
    }
    if requirements.contains("View") {
      for (type, evidence) in swiftUI.screens.sorted(by: { $0.key < $1.key }) where swiftUI.isScreenOfItsOwn(type, listed: listed) {
        result.append(RequiredScreen(type: type, requirement: "View", description: "a SwiftUI screen (\(evidence.words))"))
      }
    }
    for (requirement, observation) in [("ObservableObject", SwiftUIIndex.Observation.observableObject), ("Observable", .observable)]
    where requirements.contains(requirement) {
      for type in swiftUI.viewModels.sorted() where swiftUI.observableClasses[type] == observation {
        let what = observation == .observable ? "an @Observable class" : "an ObservableObject"
        result.append(RequiredScreen(type: type, requirement: requirement, description: "a view model (\(what) a view holds)"))
      }
    }
    return result
  }

  /// The classes that are screens by their base: those whose ancestry (`ancestry(of:)`) reaches one of
  /// `bases`, with the base it reaches. Classes that other classes in the sources inherit from are base
  /// classes themselves, not screens.
  public func screenClasses(derivingFrom bases: Set<String>) -> [(type: Int, base: String)] {
    var inherited = Set<Int>()
    for type in registry.types.indices { inherited.formUnion(lineage(of: type).dropFirst()) }
    return registry.types.indices.compactMap { type in
      let declared = registry.types[type]
      guard declared.kind == .class, !inherited.contains(type), !bases.contains(declared.name) else { return nil }
      return ancestry(of: type).dropFirst().first(where: bases.contains).map { (type, $0) }
    }
  }

  /// Whether more than one module declares a type of this name (so that it must be written qualified).
  public func isDeclaredInSeveralModules(_ name: String) -> Bool {
    (byName[name]?.count ?? 0) > 1
  }

  // MARK: Screens

  public enum ScreenResolution: Sendable {
    case found(Int)
    /// Declared in several modules; the config should qualify it.
    case ambiguous([Int])
    /// Not declared. `elsewhere` holds types of the same name in other modules than the one written.
    case notFound(suggestion: String?, elsewhere: [Int])
  }

  public func resolve(screen name: SwiftTypeName) -> ScreenResolution {
    let full = name.components.joined(separator: ".")
    if let exact = byName[full] {
      return exact.count == 1 ? .found(exact[0]) : .ambiguous(exact)
    }
    if name.components.count >= 2 {
      let module = name.components[0]
      let rest = name.components.dropFirst().joined(separator: ".")
      let sameName = byName[rest] ?? []
      if let match = sameName.first(where: { registry.types[$0].module == module }) { return .found(match) }
      if !sameName.isEmpty { return .notFound(suggestion: nil, elsewhere: sameName) }
    }
    // An alias of a type of the sources (`typealias Checkout = CheckoutViewController`) names it, as in code.
    if types.mayBeAlias(full), case .declared(let aliased, _) = types.type(full, in: TypeScope()).unwrapped { return .found(aliased) }
    let candidates = byName.keys.sorted()
    return .notFound(suggestion: Suggestions.closest(to: full, in: candidates), elsewhere: [])
  }

  // MARK: Handlers

  public enum HandlerResolution: Sendable {
    case found(MethodReference)
    /// A bare base name that names several methods.
    case ambiguous([MethodReference])
    case notFound(suggestion: String?)
  }

  /// Resolves a handler on a type and its superclasses (as `respondsToSelector:` would), nearest first.
  /// Static methods are never handlers.
  public func resolve(handler name: HandlerName, on type: Int) -> HandlerResolution {
    var matches: [MethodReference] = []
    var seenNames = Set<String>()
    for owner in lineage(of: type) {
      for (index, method) in registry.types[owner].methods.enumerated() where !method.isStatic {
        let isMatch: Bool
        switch name.form {
        case .swiftName: isMatch = method.name == name.canonical
        case .baseName: isMatch = method.baseName == name.canonical
        case .selector: isMatch = (method.objcSelector ?? method.derivedSelector) == name.canonical
        }
        // An override in a subclass hides the method it overrides.
        if isMatch, seenNames.insert(method.name).inserted { matches.append(MethodReference(type: owner, method: index)) }
      }
    }
    if matches.count == 1 { return .found(matches[0]) }
    if matches.count > 1 { return .ambiguous(matches) }
    let candidates = handlerCandidates(of: type).map {
      name.form == .selector ? ($0.objcSelector ?? $0.derivedSelector) : (name.form == .baseName ? $0.baseName : $0.name)
    }
    let sorted = Set(candidates).sorted()
    return .notFound(suggestion: Suggestions.closest(to: name.canonical, in: sorted) ?? Self.relabelled(name, among: sorted))
  }

  /// The method a handler name names with its labels renamed (`openProduct(identifier:position:)` for
  /// `openProduct(id:position:)`, `openProductWithIdentifier:position:` for `openProductWithId:position:`),
  /// which an edit distance misses when a label is long: the candidate with the same base name and as
  /// many arguments (for a selector, the same number of pieces and at least one piece the same) whose
  /// labels agree most; nil when none, or when two agree as much.
  static func relabelled(_ name: HandlerName, among candidates: [String]) -> String? {
    func parts(_ text: String) -> [String]? {
      switch name.form {
      case .swiftName:
        guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return nil }
        let labels = text[text.index(after: open)..<text.index(before: text.endIndex)].split(separator: ":", omittingEmptySubsequences: false)
        return [String(text[..<open])] + labels.dropLast().map(String.init)
      case .selector:
        guard text.contains(":") else { return nil }
        return text.split(separator: ":", omittingEmptySubsequences: false).dropLast().map(String.init)
      case .baseName:
        return nil
      }
    }
    guard let written = parts(name.canonical), written.count >= 2 else { return nil }
    var best: (candidate: String, agreeing: Int)?
    var tied = false
    for candidate in candidates {
      guard let other = parts(candidate), other.count == written.count, other != written else { continue }
      let agreeing = zip(written, other).filter { $0 == $1 }.count
      switch name.form {
      case .swiftName: guard other[0] == written[0] else { continue }
      default: guard agreeing >= 1 else { continue }
      }
      if best == nil || agreeing > best!.agreeing {
        best = (candidate, agreeing)
        tied = false
      } else if agreeing == best!.agreeing {
        tied = true
      }
    }
    return tied ? nil : best?.candidate
  }

  /// The instance method of this Swift name a type answers to: its own, or the nearest superclass's.
  public func instanceMethod(named name: String, on type: Int) -> MethodReference? {
    for owner in lineage(of: type) {
      if let method = registry.types[owner].methods.firstIndex(where: { !$0.isStatic && $0.name == name }) {
        return MethodReference(type: owner, method: method)
      }
    }
    return nil
  }

  /// The instance methods a type answers to, its superclasses' included, each name once.
  public func handlerCandidates(of type: Int) -> [DeclaredMethod] {
    var seen = Set<String>()
    var result: [DeclaredMethod] = []
    for owner in lineage(of: type) {
      for method in registry.types[owner].methods where !method.isStatic && seen.insert(method.name).inserted {
        result.append(method)
      }
    }
    return result
  }
}

// MARK: Properties and types named in the code

extension CodeIndex {
  /// The instance property of this name a type has: its own (with its extensions'), or the nearest
  /// superclass's in the sources. Nil also when the registry does not list the type's properties.
  public func instanceProperty(named name: String, on type: Int) -> PropertyReference? {
    for owner in lineage(of: type) {
      if let index = registry.types[owner].properties?.firstIndex(where: { !$0.isStatic && $0.name == name }) {
        return PropertyReference(type: owner, property: index)
      }
    }
    return nil
  }

  /// The instance property of this name a value of `type` with generic `arguments` has, with the
  /// generic parameters bound where it is declared (a superclass's from its subclass's arguments; a
  /// constrained extension's from its requirements). A property of a constrained extension whose
  /// requirements the known arguments contradict (`where Value == Int` on a `Box<String>`) is not there.
  public func instanceProperty(
    named name: String, on type: Int, arguments: [ResolvedType]
  ) -> (reference: PropertyReference, arguments: [String: ResolvedType])? {
    for (owner, bound) in lineage(of: type, arguments: arguments) {
      guard let properties = registry.types[owner].properties else { continue }
      for (index, property) in properties.enumerated() where !property.isStatic && property.name == name {
        var arguments = bound
        var satisfied = true
        for requirement in property.requirements ?? [] {
          let scope = types.scope(of: owner, arguments: bound)
          let left = types.type(requirement.left, in: scope)
          let right = types.type(requirement.right, in: scope)
          if case .parameter(let parameter) = left {
            arguments[parameter] = right
          } else if !types.hasUnknownParameter(left) && !types.hasUnknownParameter(right) && left != right {
            satisfied = false
          }
        }
        if satisfied { return (PropertyReference(type: owner, property: index), arguments) }
      }
    }
    return nil
  }

  /// The names of the instance properties a type has, its superclasses' included (for did-you-mean).
  public func instancePropertyNames(of type: Int) -> [String] {
    var seen = Set<String>()
    var result: [String] = []
    for owner in lineage(of: type) {
      for property in registry.types[owner].properties ?? [] where !property.isStatic && seen.insert(property.name).inserted {
        result.append(property.name)
      }
    }
    return result
  }

  public subscript(property: PropertyReference) -> DeclaredProperty { registry.types[property.type].properties![property.property] }
}

/// A property of a type in the registry, by position.
public struct PropertyReference: Hashable, Sendable {
  public var type: Int
  public var property: Int
}

public struct MethodReference: Hashable, Sendable {
  public var type: Int
  public var method: Int
}

/// A class and its superclasses by `superclass`, nearest first, stopping before a class already seen (a
/// cycle in sources that do not compile).
func superclassChain<Class: Equatable>(from start: Class, _ superclass: (Class) -> Class?) -> [Class] {
  var result = [start]
  var current = start
  while let next = superclass(current), !result.contains(next) {
    result.append(next)
    current = next
  }
  return result
}
