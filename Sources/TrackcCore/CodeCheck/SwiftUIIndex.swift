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
    if hostedViews.contains(view) || presentedViews.contains(view) { return true }
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
  }

  init(index: CodeIndex) {
    let types = index.registry.types
    var views = Set<Int>()
    var observable: [Int: Observation] = [:]
    for (position, type) in types.enumerated() where type.kind != .external && type.kind != .protocol {
      let inherited = type.inheritance.map { WrittenTypeName($0).qualified }
      if inherited.contains("View") || inherited.contains("SwiftUI.View") { views.insert(position) }
      guard type.kind == .class else { continue }
      if type.attributes?.contains(where: { $0 == "@Observable" || $0 == "@Observation.Observable" }) == true {
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
    for reference in index.registry.viewReferences ?? [] {
      let context = owner(reference)
      switch reference.kind {
      case .hosts:
        if let root = view(among: reference.names, reference, context: context) {
          hosted.insert(root)
          sites[root] = sites[root] ?? reference.location
          screens[root] = screens[root] ?? .hosted
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
      }
    }
    // A class inheriting `UIHostingController<Root>` hosts its root.
    for position in types.indices where types[position].kind == .class {
      guard let written = index.externalBaseWritten(of: position) else { continue }
      let base = WrittenTypeName(written)
      guard FrameworkClasses.hostingControllers.contains(base.base), let argument = base.arguments.first,
        let root = index.resolveWritten(argument, module: types[position].module, context: position), views.contains(root)
      else { continue }
      subclasses[position] = root
      sites[root] = sites[root] ?? types[position].location
      screens[root] = screens[root] ?? .hosted
    }
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

  /// A type written in the code (`SettingsView`, `Feature.SettingsView`, `Outer.Inner<T>`), as seen from
  /// `context` (nested names first) or from `module` at the top level.
  func resolveWritten(_ written: String, module: String?, context: Int?) -> Int? {
    let name = WrittenTypeName(written).qualified
    let components = name.split(separator: ".").map(String.init)
    guard !components.isEmpty else { return nil }
    if let context, case .found(let type) = lookUpType(components, from: context) { return type }
    let candidates = byNameLookup(name)
    if let local = candidates.first(where: { registry.types[$0].module == module }) { return local }
    if candidates.count == 1 { return candidates[0] }
    if components.count >= 2 {
      return byNameLookup(components.dropFirst().joined(separator: ".")).first { registry.types[$0].module == components[0] }
    }
    return nil
  }
}
