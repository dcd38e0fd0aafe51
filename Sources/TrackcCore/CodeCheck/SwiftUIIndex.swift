/// The SwiftUI side of the sources: the views, the screens among them, the hosting controllers' roots,
/// the view models, and the uses of the generated `.tracked(_:)` modifier, worked out once from the
/// types and what their bodies say (`ViewReference`).
///
/// A view is a screen when the code treats it as one: the root of a hosting controller, the content of
/// a sheet, cover, popover, navigation link or destination, window or tab, or a view that sets up
/// navigation (a navigation stack or title). Other views are components (rows, buttons), not screens.
/// A view model is an observable class (`@Observable`, or an `ObservableObject`) that a view holds
/// (`@StateObject`, `@ObservedObject`, `@State`, `@Bindable`, `@EnvironmentObject`, `@Environment`).
public struct SwiftUIIndex: Sendable {
  /// Every type that conforms to `View`.
  public let views: Set<Int>
  /// The views that are screens, with the first reason found (for `trackc init`'s comments).
  public let screens: [Int: Evidence]
  /// The views that are the root of a hosting controller: made with `UIHostingController(rootView:)`,
  /// or a `UIHostingController<Root>` declared anywhere (`hostedViews`), or by a class inheriting
  /// `UIHostingController<Root>` (`hostingSubclasses`, by class).
  public let hostedViews: Set<Int>
  public let hostingSubclasses: [Int: Int]
  /// The views presented, navigated to, or shown as a window or a tab.
  public let presentedViews: Set<Int>
  /// Where each hosted view is first made a hosting controller's root (a call, or a subclass).
  public let hostingSites: [Int: RegistryLocation]
  /// Observable classes, and how they are observable.
  public let observableClasses: [Int: Observation]
  /// The observable classes a view holds.
  public let viewModels: Set<Int>
  /// Every `.tracked(_:)` use: the screen's case as written, where, and the type it is written in.
  public let trackedUses: [TrackedUse]
  /// The views shown as a hosting controller's root only through a value that erases their type
  /// (`AnyView(ReceiptView())`, a generic wrapper view `Card(content: ReceiptView())`, a method of the
  /// sources that returns `AnyView`): the hosting controller reports no screen for them.
  public let erasedRoots: [Int: ErasedRoot]
  /// The base names of the methods (and the properties) each type's `body` reaches: those it calls, reads
  /// or hands over (`onAppear()`, `.onAppear(perform: onAppear)`, `content`), and, through them, those
  /// they do, in the files the scanner reads bodies of. A method that only an uncalled `start()` calls is
  /// not reached. (A registry that does not say which member calls what counts every call of the type.)
  public let calledMethods: [Int: Set<String>]

  /// Where a view is made a hosting controller's root through a type-erasing value, and that value's type.
  public struct ErasedRoot: Sendable {
    public var location: RegistryLocation
    /// `AnyView`, `Card<ReceiptView>`.
    public var wrapper: String
  }

  public enum Evidence: Sendable, Equatable {
    case hosted
    case presented
    case navigation

    var words: String {
      switch self {
      case .hosted: return "the root of a hosting controller"
      case .presented: return "presented or navigated to"
      case .navigation: return "sets up navigation"
      }
    }
  }

  public enum Observation: String, Sendable {
    /// The `@Observable` macro (the Observation framework).
    case observable = "@Observable"
    /// Combine's `ObservableObject`.
    case observableObject = "ObservableObject"
  }

  /// Whether a hosting controller reports the view's appearance as its root's (under `objc-runtime`):
  /// one made with the view as its root, or a subclass for the view that is not a screen of its own
  /// (the controller's own screen wins).
  public func isReportedByHostingController(_ view: Int, screens listed: Set<Int>) -> Bool {
    hostedViews.contains(view) || hostingSubclasses.contains { $0.value == view && !listed.contains($0.key) }
  }

  /// Whether a view that is a screen is one of its own rather than the screen of a hosting controller
  /// subclass that `listed` holds (which shows it as its root): it is also hosted by a call, presented,
  /// or hosted by a subclass not listed.
  public func isScreenOfItsOwn(_ view: Int, listed: Set<Int>) -> Bool {
    guard screens[view] != nil else { return false }
    if hostedViews.contains(view) || presentedViews.contains(view) || erasedRoots[view] != nil { return true }
    return !hostingSubclasses.contains { $0.value == view && listed.contains($0.key) }
  }

  public struct TrackedUse: Sendable {
    public var caseName: String
    public var location: RegistryLocation
    /// The type the modifier is written in, when it is in one.
    public var owner: Int?
  }

  /// Before the index is complete (`CodeIndex.init` works it out last).
  static let empty = SwiftUIIndex()

  private init() {
    views = []
    screens = [:]
    hostedViews = []
    hostingSubclasses = [:]
    presentedViews = []
    hostingSites = [:]
    observableClasses = [:]
    viewModels = []
    trackedUses = []
    erasedRoots = [:]
    calledMethods = [:]
  }

  init(index: CodeIndex) {
    let types = index.registry.types
    var views = Set<Int>()
    var observable: [Int: Observation] = [:]
    // By index: iterating the types themselves copied each (retaining every field).
    for position in types.indices where types[position].kind != .external && types[position].kind != .protocol {
      let inherited = index.types.inheritedNames(of: position)
      if inherited.contains("View") || inherited.contains("SwiftUI.View") { views.insert(position) }
      guard types[position].kind == .class else { continue }
      if types[position].attributes?.contains(where: { $0 == "@Observable" || $0 == "@Observation.Observable" }) == true {
        observable[position] = .observable
      } else if inherited.contains("ObservableObject") || inherited.contains("Combine.ObservableObject") || inherited.contains("Observable") {
        observable[position] = .observableObject
      }
    }
    // A subclass of an observable class is observable.
    for position in types.indices where types[position].kind == .class && observable[position] == nil {
      if let ancestor = index.lineage(of: position).dropFirst().first(where: { observable[$0] != nil }) {
        observable[position] = observable[ancestor]
      }
    }

    var screens: [Int: Evidence] = [:]
    var hosted = Set<Int>()
    var subclasses: [Int: Int] = [:]
    var presented = Set<Int>()
    var sites: [Int: RegistryLocation] = [:]
    var viewModels = Set<Int>()
    var tracked: [TrackedUse] = []
    func owner(_ reference: ViewReference) -> Int? {
      guard let name = reference.owner else { return nil }
      let candidates = index.byNameLookup(name)
      return candidates.first { types[$0].module == reference.module } ?? candidates.first
    }
    func view(among names: [String], _ reference: ViewReference, context: Int?) -> Int? {
      names.lazy.compactMap { index.resolveWritten($0, module: reference.module, context: context) }.first(where: views.contains)
    }
    var erased: [Int: ErasedRoot] = [:]
    var called: [Int: Set<String>] = [:]
    // What each member of a type calls: by the member's name (nil where the registry does not say).
    var calls: [Int: [String?: Set<String>]] = [:]
    let roots = HostedRoots(index: index, views: views)
    for reference in index.registry.viewReferences ?? [] {
      let context = owner(reference)
      switch reference.kind {
      case .hosts:
        let scope = TypeScope(context: context, module: reference.module)
        switch roots.root(reference, scope: scope) {
        case .view(let root):
          hosted.insert(root)
          sites[root] = sites[root] ?? reference.location
          screens[root] = screens[root] ?? .hosted
        case .erased(let wrapper, let wrapped):
          // The view inside: the first the expression constructs that is not itself a generic wrapper.
          let wrapped =
            wrapped
            ?? reference.names.lazy.compactMap { index.resolveWritten($0, module: reference.module, context: context) }
            .first { views.contains($0) && (index[$0].genericParameters ?? []).isEmpty && !index[$0].isGeneric }
          guard let wrapped else { continue }
          if erased[wrapped] == nil { erased[wrapped] = ErasedRoot(location: reference.location, wrapper: wrapper) }
          screens[wrapped] = screens[wrapped] ?? .hosted
        case .unknown:
          // The expression does not tell the root's type plainly: the first view it constructs.
          if let root = view(among: reference.names, reference, context: context) {
            hosted.insert(root)
            sites[root] = sites[root] ?? reference.location
            screens[root] = screens[root] ?? .hosted
          }
        }
      case .presents:
        if let view = view(among: reference.names, reference, context: context) {
          presented.insert(view)
          screens[view] = screens[view] ?? .presented
        }
      case .navigates:
        if let context, views.contains(context) { screens[context] = screens[context] ?? .navigation }
      case .tracked:
        if let name = reference.names.first { tracked.append(TrackedUse(caseName: name, location: reference.location, owner: context)) }
      case .holds:
        guard let context, views.contains(context), let name = reference.names.first,
          let model = index.resolveWritten(name, module: reference.module, context: context), observable[model] != nil
        else { continue }
        viewModels.insert(model)
      case .returns:
        continue
      case .calls:
        if let context { calls[context, default: [:]][reference.root, default: []].formUnion(reference.names) }
      }
    }
    // A class inheriting `UIHostingController<Root>` hosts its root.
    for position in types.indices where types[position].kind == .class {
      guard let base = index.externalSuperclass(of: position), FrameworkClasses.hostingControllers.contains(base.name),
        let argument = base.arguments.first
      else { continue }
      switch roots.classify(argument) {
      case .view(let root):
        subclasses[position] = root
        sites[root] = sites[root] ?? types[position].location
        screens[root] = screens[root] ?? .hosted
      case .erased(let wrapper, let wrapped?):
        if erased[wrapped] == nil { erased[wrapped] = ErasedRoot(location: types[position].location, wrapper: wrapper) }
        screens[wrapped] = screens[wrapped] ?? .hosted
      case .erased, .unknown:
        continue
      }
    }
    for (type, members) in calls {
      guard members.keys.contains(where: { $0 != nil }) else {
        called[type] = members.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        continue
      }
      // What `body` reaches, through the members it calls or reads.
      var reached = Set<String>()
      var pending = ["body"]
      while let next = pending.popLast() {
        for name in members[next] ?? [] where reached.insert(name).inserted { pending.append(name) }
      }
      called[type] = reached
    }
    // A view hosted plainly somewhere is reported there, whatever else erases it.
    for view in hosted { erased[view] = nil }
    for view in subclasses.values { erased[view] = nil }
    erasedRoots = erased
    calledMethods = called
    self.views = views
    self.screens = screens
    hostedViews = hosted
    hostingSubclasses = subclasses
    presentedViews = presented
    hostingSites = sites
    observableClasses = observable
    self.viewModels = viewModels
    trackedUses = tracked
  }
}

/// What kind of screen a type is, as an iOS engineer would say it.
public enum ScreenKind: String, Sendable, CaseIterable {
  case viewController = "view controller"
  case hostingController = "hosting controller"
  case swiftUIView = "SwiftUI view"
  case viewModel = "view model"
}

extension CodeIndex {
  /// What kind of screen the type is: a view controller (a hosting controller when it reaches
  /// `UIHostingController`), a SwiftUI view, an observable class; nil for anything else.
  public func screenKind(of type: Int) -> ScreenKind? {
    if isViewController(type) {
      return ancestry(of: type).contains(where: FrameworkClasses.hostingControllers.contains) ? .hostingController : .viewController
    }
    if swiftUI.views.contains(type) { return .swiftUIView }
    if swiftUI.observableClasses[type] != nil { return .viewModel }
    return nil
  }

  /// A type written in the code (`SettingsView`, `Feature.SettingsView`, `Outer.Inner<T>`, an alias of
  /// one), as seen from `context` (nested names first) or from `module` at the top level: the type it
  /// resolves to, without its generic arguments.
  func resolveWritten(_ written: String, module: String?, context: Int?) -> Int? {
    let scope = TypeScope(context: context, module: context.map { registry.types[$0].module } ?? module)
    switch types.type(written, in: scope).unwrapped {
    case .declared(let type, _): return type
    default: return nil
    }
  }
}

/// What a hosting controller's root is, as the runtime names it: the view, when the root's type is a view
/// of the sources (modifiers seen through, as `HostedRootView` reads `ModifiedContent`); nothing it can
/// report when the root's type erases the view's (`AnyView`, a generic wrapper view, whose name carries
/// its arguments); unknown when the code does not say the root's type plainly.
struct HostedRoots {
  /// SwiftUI's views that hold other views and carry them in their generic arguments: a hosting
  /// controller's root of one of these is that container at run time, not the view inside.
  static let containers: Set<String> = [
    "NavigationStack", "NavigationView", "NavigationSplitView", "TabView", "Group", "VStack", "HStack", "ZStack", "LazyVStack",
    "LazyHStack", "ScrollView", "List", "Form", "Section",
  ]

  enum Root {
    case view(Int)
    /// `wrapper` as written for messages; `wrapped` the view inside when the type says it.
    case erased(wrapper: String, wrapped: Int?)
    case unknown
  }

  let index: CodeIndex
  let views: Set<Int>
  /// Methods of the sources by base name with the type they return, for modifiers applied to a root.
  private let returnTypes: [String: [(owner: Int, returnType: String)]]
  /// Free functions, and functions and computed properties with opaque results, by base name.
  private let results: [String: [ViewReference]]

  init(index: CodeIndex, views: Set<Int>) {
    self.index = index
    self.views = views
    var results: [String: [ViewReference]] = [:]
    for reference in index.registry.viewReferences ?? [] where reference.kind == .returns {
      if let name = reference.names.first { results[name, default: []].append(reference) }
    }
    self.results = results
    var wanted = Set<String>()
    for reference in index.registry.viewReferences ?? [] where reference.kind == .hosts {
      // A root made by a type's function (`Factory.erase`) looks it up by its base name.
      wanted.formUnion((reference.modifiers ?? []).map { String($0.split(separator: ".").last ?? Substring($0)) })
    }
    var returnTypes: [String: [(owner: Int, returnType: String)]] = [:]
    if !wanted.isEmpty {
      for owner in index.registry.types.indices {
        for method in index.registry.types[owner].methods where wanted.contains(method.baseName) {
          if let returnType = method.signature?.returnType { returnTypes[method.baseName, default: []].append((owner, returnType)) }
        }
      }
    }
    self.returnTypes = returnTypes
  }

  func root(_ reference: ViewReference, scope: TypeScope) -> Root {
    var modifiers = reference.modifiers ?? []
    var root: Root
    if let written = reference.root {
      root = classify(index.types.type(written, in: scope))
    } else if !modifiers.isEmpty {
      // A function's result or a property's value: what its declaration says, wherever it is declared.
      root = result(of: modifiers.removeFirst(), from: reference, scope: scope, depth: 0)
    } else {
      return .unknown
    }
    return applying(modifiers, to: root)
  }

  /// What the runtime sees of a value that `modifiers` (methods) are applied to in turn.
  private func applying(_ modifiers: [String], to start: Root) -> Root {
    var root = start
    for modifier in modifiers {
      // A method of the sources that returns `AnyView` or a generic view erases what it is applied to; a
      // modifier of SwiftUI's (`padding`, `environmentObject`) makes `ModifiedContent`, seen through.
      guard let declared = returnTypes[modifier]?.first else { continue }
      let returned = classify(index.types.type(declared.returnType, in: index.types.scope(of: declared.owner)))
      switch (returned, root) {
      case (.erased(let wrapper, _), .view(let view)): root = .erased(wrapper: wrapper, wrapped: view)
      case (.erased(let wrapper, _), _): root = .erased(wrapper: wrapper, wrapped: nil)
      default: continue
      }
    }
    return root
  }

  /// The root a function's result or a property's value is: an opaque result (`some View`) is the type
  /// its body returns (the caller cannot name it, the runtime can), any other the declared type; unknown
  /// when no declaration of the sources says.
  private func result(of function: String, from reference: ViewReference, scope: TypeScope, depth: Int) -> Root {
    guard depth < 8 else { return .unknown }
    let parts = function.split(separator: ".").map(String.init)
    let name = parts.last ?? function
    // `Factory.erase`: that type's; else the owner's (and the types around it), else a free function.
    var owners: [Int?] = []
    if parts.count > 1 {
      guard let type = index.resolveWritten(parts.dropLast().joined(separator: "."), module: scope.module, context: scope.context) else {
        return .unknown
      }
      owners = [type]
    } else {
      if let context = scope.context { owners = index.lineage(of: context) }
      owners.append(nil)
    }
    let declared = results[name] ?? []
    for owner in owners {
      let ownerName = owner.map { index[$0].name }
      // A free function of the code's own module first.
      let candidates = declared.filter { $0.owner == ownerName }
      if let found = candidates.first(where: { $0.module == scope.module }) ?? candidates.first {
        let declaredScope = TypeScope(context: owner, module: owner.map { index[$0].module } ?? found.module)
        guard let result = found.root else { return .unknown }
        if result.hasPrefix("some ") || result.hasPrefix("any ") {
          guard found.names.count > 1 else { return .unknown }
          let body = found.names[1]
          return applying(found.modifiers ?? [], to: classify(index.types.type(body, in: declaredScope)))
        }
        return classify(index.types.type(result, in: declaredScope))
      }
      guard let owner else { continue }
      if let returned = returnTypes[name]?.first(where: { $0.owner == owner }) {
        guard !returned.returnType.hasPrefix("some ") else { return .unknown }
        return classify(index.types.type(returned.returnType, in: index.types.scope(of: owner)))
      }
      if let property = (index[owner].properties ?? []).first(where: { $0.name == name }), let type = property.type,
        !type.hasPrefix("some ")
      {
        return classify(index.types.type(type, in: index.types.scope(of: owner)))
      }
    }
    return .unknown
  }

  func classify(_ type: ResolvedType) -> Root {
    switch type.unwrapped {
    case .external(let name, let arguments):
      let base = name.split(separator: ".").last.map(String.init) ?? name
      if base == "AnyView" { return .erased(wrapper: "AnyView", wrapped: nil) }
      if base == "ModifiedContent", let first = arguments.first { return classify(first) }
      // A container of SwiftUI's (`NavigationStack { ReceiptView() }`): the runtime sees the container,
      // whose type carries the view as an argument, as with a generic wrapper view of the sources.
      if Self.containers.contains(base) { return .erased(wrapper: base, wrapped: nil) }
      return .unknown
    case .declared(let type, let arguments):
      guard views.contains(type) else { return .unknown }
      guard !(index[type].genericParameters ?? []).isEmpty || index[type].isGeneric else { return .view(type) }
      // A generic wrapper view: the runtime sees `Card<ReceiptView>`, which names no screen.
      let wrapped = arguments.lazy.compactMap { argument -> Int? in
        if case .declared(let inner, _) = argument.unwrapped, views.contains(inner) { return inner }
        return nil
      }.first
      return .erased(wrapper: index.types.describe(.declared(type, arguments: arguments)), wrapped: wrapped)
    default:
      return .unknown
    }
  }
}
