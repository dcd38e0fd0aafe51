/// The plan matched against the code: the third stage of the pipeline. Every screen resolved to a type,
/// every handler to a method, and, under `dynamic-replacement`, the methods to replace, each worked out
/// once for the code rules and the generator alike.
public struct MatchedPlan: Sendable {
  public let plan: ResolvedPlan
  public let index: CodeIndex
  /// Every method some handler resolves to.
  public let mappedMethods: Set<MethodReference>
  /// Every type some screen resolves to.
  public let mappedTypes: Set<Int>
  /// Under `dynamic-replacement`, the methods the generated code replaces, by owner and name; empty
  /// under `objc-runtime`.
  public let replacementTargets: [ReplacementTarget]
  // By screen ID and by event ID; reached only through the lookups below.
  private let screenResolutions: [CodeIndex.ScreenResolution?]
  private let handlerResolutions: [CodeIndex.HandlerResolution?]
  // By binding ID; empty when the plan has no bindings.
  private let bindingResolutions: [BindingResolution]
  /// The type of each property name the config gives none (no `properties` entry, static value or
  /// `type:`), which only the code tells: its first binding that resolves decides, in plan order (an
  /// integer and, later, a double make it a double, as in the plan).
  public let codePropertyTypes: [String: (type: PropertyType, first: ResolvedPlan.BoundProperty.ID)]

  /// A method whose dynamic replacement reports events: a mapped handler where it is declared for its
  /// screen (its own, or a superclass's), or the lifecycle method of a screen with page events.
  public struct ReplacementTarget: Sendable {
    public let method: MethodReference
    /// The control events that map this method (as a handler).
    public fileprivate(set) var handlerEvents: [ResolvedPlan.Event.ID] = []
    /// The page events this method carries (as a lifecycle method), and their phases in first-seen order.
    public fileprivate(set) var pageEvents: [ResolvedPlan.Event.ID] = []
    public fileprivate(set) var phases: [TrackingConfig.PagePhase] = []
  }

  public init(plan: ResolvedPlan, index: CodeIndex) {
    self.plan = plan
    self.index = index
    var mappedMethods = Set<MethodReference>()
    var mappedTypes = Set<Int>()
    let screens = plan.config.screens.map { screen -> CodeIndex.ScreenResolution? in
      guard case .success(let typeName) = screen.typeName else { return nil }
      let resolution = index.resolve(screen: typeName)
      if case .found(let type) = resolution { mappedTypes.insert(type) }
      return resolution
    }
    var handlers = [CodeIndex.HandlerResolution?](repeating: nil, count: plan.events.count)
    for event in plan.events {
      guard let screen = event.screen, case .found(let type)? = screens[Int(screen.rawValue)], let control = plan.control(event),
        case .success(let name) = control.handler
      else { continue }
      let resolved = index.resolve(handler: name, on: type)
      switch resolved {
      case .found(let method): mappedMethods.insert(method)
      case .ambiguous(let methods): mappedMethods.formUnion(methods)
      case .notFound: break
      }
      handlers[Int(event.id.rawValue)] = resolved
    }
    screenResolutions = screens
    handlerResolutions = handlers
    self.mappedMethods = mappedMethods
    self.mappedTypes = mappedTypes
    replacementTargets = plan.interception == .dynamicReplacement ? Self.targets(plan, index, screens, handlers) : []
    let resolutions = plan.bindings.isEmpty ? [] : Self.resolveBindings(plan, index, screens: screens, handlers: handlers)
    bindingResolutions = resolutions
    var codeTypes: [String: (type: PropertyType, first: ResolvedPlan.BoundProperty.ID)] = [:]
    for binding in plan.bindings {
      guard case .resolved(let value) = resolutions[Int(binding.id.rawValue)] else { continue }
      let property = plan.written(binding)
      guard plan.expectedType(of: property) == nil else { continue }
      if let first = codeTypes[property.key.value] {
        if first.type == .int && value.wireType == .double { codeTypes[property.key.value]!.type = .double }
      } else {
        codeTypes[property.key.value] = (value.wireType, binding.id)
      }
    }
    codePropertyTypes = codeTypes
  }

  /// The type a property is expected to have: the plan's (`ResolvedPlan.expectedType(of:)`), else what
  /// the code makes it (`codePropertyTypes`).
  public func expectedType(of property: TrackingConfig.Property) -> PropertyType? {
    plan.expectedType(of: property) ?? codePropertyTypes[property.key.value]?.type
  }

  /// What a bound property reads in the code, and whether it can be a property value.
  public func resolution(of binding: ResolvedPlan.BoundProperty.ID) -> BindingResolution {
    bindingResolutions[Int(binding.rawValue)]
  }

  // MARK: Looking up

  /// How the screen's name resolves; nil when it is not a valid type name (a plan rule reports that).
  public func resolution(of screen: ResolvedPlan.Screen.ID) -> CodeIndex.ScreenResolution? {
    screenResolutions[Int(screen.rawValue)]
  }

  /// The type the screen names, when it names exactly one.
  public func type(of screen: ResolvedPlan.Screen.ID) -> Int? {
    if case .found(let type)? = resolution(of: screen) { return type }
    return nil
  }

  /// How a control event's handler resolves on its screen's type; nil for page events and when the
  /// screen or the handler name does not resolve.
  public func handler(of event: ResolvedPlan.Event.ID) -> CodeIndex.HandlerResolution? {
    handlerResolutions[Int(event.rawValue)]
  }

  /// The method a control event's handler is, when it resolves to exactly one.
  public func method(of event: ResolvedPlan.Event.ID) -> MethodReference? {
    if case .found(let method)? = handler(of: event) { return method }
    return nil
  }

  /// The lifecycle method a screen's type has for a page phase (`conventions.lifecycle`): its own, or the
  /// nearest superclass's in the code.
  public func lifecycleMethod(for phase: TrackingConfig.PagePhase, of type: Int) -> MethodReference? {
    Self.lifecycleMethod(for: phase, of: type, plan: plan, index: index)
  }

  /// The first of the phase's lifecycle methods the type answers to that a replacement can reach
  /// (`screen-lifecycle` says why one it has cannot be).
  static func lifecycleMethod(for phase: TrackingConfig.PagePhase, of type: Int, plan: ResolvedPlan, index: CodeIndex) -> MethodReference? {
    plan.config.conventions.lifecycle.methods(for: phase).lazy.compactMap { index.instanceMethod(named: $0, on: type) }
      .first { index[$0].isReplaceable || index[$0].signature == nil }
  }

  // MARK: Replacement targets

  private static func targets(
    _ plan: ResolvedPlan, _ index: CodeIndex, _ screens: [CodeIndex.ScreenResolution?], _ handlers: [CodeIndex.HandlerResolution?]
  ) -> [ReplacementTarget] {
    var byMethod: [MethodReference: ReplacementTarget] = [:]
    var order: [MethodReference] = []
    func target(_ method: MethodReference, _ update: (inout ReplacementTarget) -> Void) {
      if byMethod[method] == nil {
        byMethod[method] = ReplacementTarget(method: method)
        order.append(method)
      }
      update(&byMethod[method]!)
    }
    for event in plan.events {
      guard let screen = event.screen, case .found(let type)? = screens[Int(screen.rawValue)] else { continue }
      switch event.trigger {
      case .entryPoint, .application:
        continue
      case .control:
        guard case .found(let method)? = handlers[Int(event.id.rawValue)] else { continue }
        target(method) { $0.handlerEvents.append(event.id) }
      case .page(let phase):
        guard let method = lifecycleMethod(for: phase, of: type, plan: plan, index: index) else { continue }
        target(method) { target in
          target.pageEvents.append(event.id)
          if !target.phases.contains(phase) { target.phases.append(phase) }
        }
      }
    }
    return order.map { byMethod[$0]! }
  }
}
