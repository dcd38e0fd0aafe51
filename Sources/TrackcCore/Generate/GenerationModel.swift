/// What the generated code says: the last stage of the pipeline, worked out from the plan and the code
/// it was matched against: numbered screens and handlers, one rule per mapping with the plan's routing,
/// and the methods to replace, each with its signature read and checked (or the reason it cannot be).
/// The generation rules check this value, and the emitters write only what it holds, so every name in
/// it is already an identifier and every signature already checked. Everything is sorted, so the same
/// inputs give the same output.
public struct GenerationModel {
  struct Screen {
    /// As the config writes it; what events carry.
    var name: String
    /// What `String(reflecting:)` gives at run time for the type and for its subclasses that the config
    /// does not list (`Home.HomeViewController`); without code, the config's name.
    var runtimeNames: [String]
    var pageRules: [(phase: TrackingConfig.PagePhase, rule: Int)]
    var controlRules: [(handler: Int, rule: Int)]
  }

  struct Handler {
    /// The Swift full name (from the code), else the key as the config canonically writes it.
    var name: String
    /// Every name the runtime may ask with: the Swift name and the Objective-C selector.
    var lookupNames: [String]
    var identifier: ValidIdentifier
  }

  struct Rule {
    /// The plan event this rule is generated from.
    var event: ResolvedPlan.Event.ID
    var identifier: ValidIdentifier
    var eventID: String
    /// The plan's `wire_name`; nil for the ID.
    var wireName: String? = nil
    /// A page's enter event that goes as a track call (`call: track`).
    var sendsEnterAsTrack = false
    /// As the plan resolves it (the rules check the same).
    var routing: ResolvedPlan.Routing
    var properties: [(key: String, value: PropertyValue)]
    /// Under `interception: objc-runtime`, the bindings the adapter reads by key path, sorted by key.
    var keyPathBindings: [KeyPathCapture] = []
  }

  /// A binding read by key path through the Objective-C runtime: from one of the handler's arguments or
  /// the screen, through the `@objc` names of the properties on the way.
  struct KeyPathCapture {
    var key: String
    /// The argument's position; nil for the screen.
    var argument: Int?
    var steps: [String]
    var wireType: PropertyType
    var isRequired: Bool

    /// The event's resolved bindings that the adapter can reach (`binding-not-interceptable` reports
    /// the others, and they are left out); one per key, the first in plan order.
    static func of(_ event: ResolvedPlan.Event.ID, in code: MatchedPlan) -> [KeyPathCapture] {
      var captures: [KeyPathCapture] = []
      for binding in code.plan.bindings(of: event) {
        let property = code.plan.written(binding)
        guard !captures.contains(where: { $0.key == property.key.value }) else { continue }
        let resolution = code.resolution(of: binding.id)
        guard let (root, checked, unchecked, _) = resolution.reading else { continue }
        // Past the sources, the names as written (UIKit's Objective-C names are its Swift names) and the
        // declared type, which the rule requires.
        var resolvedType: PropertyType?
        if case .resolved(let value) = resolution { resolvedType = value.wireType }
        guard let wireType = code.expectedType(of: property) ?? resolvedType else { continue }
        var argument: Int?
        if case .parameter(let index) = root { argument = index }
        let names = checked.compactMap { code.index[$0.property].objcName }
        guard names.count == checked.count else { continue }
        captures.append(
          KeyPathCapture(
            key: property.key.value, argument: argument, steps: names + unchecked, wireType: wireType,
            isRequired: property.binding?.isOptional != true))
      }
      return captures.sorted { UTF8Order.less($0.key, $1.key) }
    }
  }

  /// A method to replace and what its replacement reports; made only from a checked signature and names
  /// that are identifiers (`replacement(of:in:)`).
  struct Replacement {
    /// How the generated extension names the owner: module-qualified when another module declares a
    /// type of that name too.
    var owner: [ValidIdentifier]
    var signature: ReplacementSignature
    /// The owner's availability (its `@available` attributes and its enclosing types'), which the
    /// extension repeats, and the method's beyond it (its own, its extension's), which the replacement
    /// repeats: code naming a type or method newer than the app's deployment target must say so too.
    var ownerAvailability: [Availability] = []
    var availability: [Availability] = []
    /// The method is `@MainActor`, `nonisolated`, `mutating`: its replacement is too.
    var isMainActor: Bool
    var isNonisolated: Bool
    var isMutating: Bool
    /// The method or its type is not public, so the feature module is imported `@testable`.
    var needsTestableImport: Bool
    /// The modules the owner's files import, which the signature's types may come from.
    var imports: [[ValidIdentifier]]
    /// The modules the captures reach into (the screen cast to, the types whose properties they read),
    /// `@testable` where what they read there is not public.
    var captureImports: [ModuleImport] = []
    /// The handler's ID constant, when a screen maps the method as a handler.
    var handlerIdentifier: ValidIdentifier?
    /// The page phase, when the method is a lifecycle method of a screen with that page event.
    var phases: [TrackingConfig.PagePhase]
    /// The properties the handler's events bind, read when the call is reported.
    var handlerCaptures: [Capture] = []
    /// The properties each phase's page events bind (the screen's state).
    var pageCaptures: [TrackingConfig.PagePhase: [Capture]] = [:]
    /// For sorting: the owner's and the method's names as the registry writes them.
    var ownerName: String
    var methodName: String

    /// Why a replacement cannot be written; `handler-signature` reports it.
    enum Problem: Error, Equatable {
      case typeName(String)
      case moduleName(String)
      case noSignature(method: String)
      case signature(method: String, ReplacementSignature.Problem)
    }
  }

  /// A module a generated file imports for what its code names there.
  struct ModuleImport: Hashable {
    var path: [ValidIdentifier]
    /// Something it reads there is not public.
    var testable: Bool
  }

  /// A bound property the generated code reads, from the binding's resolution.
  struct Capture {
    var key: String
    var value: BoundValue
    /// The wire type the plan expects (`type:` or `properties`), else the value's own.
    var wireType: PropertyType
    /// Not `optional: true`: a nil is counted.
    var isRequired: Bool
    /// When the screen's state is read in a method its superclass declares (an inherited lifecycle
    /// method or handler), `self` is cast to the screen's type first: `(self as? CatalogScreen)?.tab`.
    var screenCast: [ValidIdentifier]?

    /// The modules the capture names or reads in: the screen's, when it casts to it, and each step's
    /// owner's, `@testable` when the type or property it reads there is not public.
    var imports: [ModuleImport] = []
    /// The versions what it names needs (the screen it casts to, the properties it reads and their
    /// types): read inside `if #available(...)` where the replacement is available earlier.
    var availability: [Availability.PlatformVersion] = []

    /// The resolved bindings of `events`, one per property name and screen (the first in plan order),
    /// sorted by name. `owner` is the type whose method is replaced.
    static func of(_ events: [ResolvedPlan.Event.ID], owner: Int, in code: MatchedPlan) -> [Capture] {
      var captures: [Capture] = []
      for event in events {
        let screen = code.plan[event].screen.flatMap(code.type(of:))
        for binding in code.plan.bindings(of: event) {
          let property = code.plan.written(binding)
          guard case .resolved(let value) = code.resolution(of: binding.id) else { continue }
          var cast: [ValidIdentifier]?
          var imports: [ModuleImport] = []
          var availability: [Availability] = []
          func use(_ type: Int, readsNonPublic: Bool) {
            guard let module = code.index[type].module, let path = ValidIdentifier.path(module) else { return }
            imports.append(ModuleImport(path: path, testable: readsNonPublic || code.index[type].access < .public))
          }
          if value.root == .screen, let screen, screen != owner {
            // A name that is not a path cannot be cast to: the value is not captured. Qualified by its
            // module when another module declares a type of that name too.
            let declared = code.index[screen]
            guard let path = ValidIdentifier.path(declared.name) else { continue }
            if code.index.isDeclaredInSeveralModules(declared.name), let module = declared.module.flatMap(ValidIdentifier.path) {
              cast = module + path
            } else {
              cast = path
            }
            use(screen, readsNonPublic: false)
            availability += Availability.of(declared.attributes ?? [])
          }
          for step in value.steps {
            use(step.property.type, readsNonPublic: code.index[step.property].access < .public)
            availability += Availability.of(code.index[step.property].attributes) + Availability.of(code.index[step.property.type].attributes ?? [])
          }
          guard !captures.contains(where: { $0.key == property.key.value && $0.screenCast?.map(\.text) == cast?.map(\.text) }) else { continue }
          captures.append(
            Capture(
              key: property.key.value, value: value, wireType: code.expectedType(of: property) ?? value.wireType,
              // Through a cast, another screen's call leaves the value out without anything missing.
              isRequired: property.binding?.isOptional != true && cast == nil, screenCast: cast, imports: imports,
              availability: Availability.introduced(availability)))
        }
      }
      return captures.sorted { UTF8Order.less($0.key, $1.key) }
    }
  }

  /// A function for tracking an event by hand with its bound properties as typed parameters
  /// (`Track.ctrlCatalogAdd(productId:quantity:)`), so that the compiler catches a missing one.
  struct ManualEvent {
    var eventID: String
    var identifier: ValidIdentifier
    var parameters: [ManualParameter]
  }

  struct ManualParameter {
    var key: String
    var label: ArgumentLabel
    var type: PropertyType
    /// `optional: true`: the parameter is an optional, and nil leaves the property out.
    var isOptional: Bool
  }

  /// One per event ID with bindings whose types the config or the code tells, sorted by ID; a property
  /// bound in several mappings of the ID takes its first.
  static func manualEvents(_ plan: ResolvedPlan, code: MatchedPlan?, identifiers: [String: ValidIdentifier]) -> [ManualEvent] {
    guard !plan.bindings.isEmpty else { return [] }
    var byID: [String: [(key: String, type: PropertyType, isOptional: Bool)]] = [:]
    for binding in plan.bindings {
      let property = plan.written(binding)
      let id = plan.written(plan[binding.event]).id.value
      var type = code?.expectedType(of: property) ?? plan.expectedType(of: property)
      if type == nil, let code, case .resolved(let value) = code.resolution(of: binding.id) { type = value.wireType }
      guard let type, byID[id]?.contains(where: { $0.key == property.key.value }) != true else { continue }
      byID[id, default: []].append((property.key.value, type, property.binding?.isOptional == true))
    }
    return byID.keys.sorted(by: UTF8Order.less).map { id in
      var labels = UniqueIdentifiers()
      let parameters = byID[id]!.sorted { UTF8Order.less($0.key, $1.key) }.map { property in
        let identifier = labels.claim(SwiftSource.identifier(fromEventID: property.key))
        return ManualParameter(
          key: property.key, label: ArgumentLabel(identifier.bare) ?? ArgumentLabel(fixed: "value"), type: property.type,
          isOptional: property.isOptional)
      }
      return ManualEvent(eventID: id, identifier: identifiers[id] ?? SwiftSource.identifier(fromEventID: id), parameters: parameters)
    }
  }

  /// The replacements of one feature module.
  struct Module {
    /// nil when the code does not say.
    var name: [ValidIdentifier]?
    var replacements: [Replacement]
  }

  /// The plan and the code it was matched against, for the generation rules.
  let plan: ResolvedPlan
  let code: MatchedPlan?
  var screens: [Screen] = []
  var handlers: [Handler] = []
  var rules: [Rule] = []
  /// Distinct event IDs and their constant names, sorted by ID.
  var eventIDs: [(id: String, identifier: ValidIdentifier)] = []
  /// The constant name of every event ID of the plan (`event-identifier-collision` checks them).
  var eventIdentifiers: [String: ValidIdentifier] = [:]
  /// For `rule(eventID:)`: the first mapping of each ID in config order.
  var firstRule: [(id: String, rule: Int)] = []
  /// Typed functions for tracking by hand, for the events with bindings.
  var manualEvents: [ManualEvent] = []
  /// The rule of each entry point's open event, by the entry point's index in the config.
  var entryPointRules: [Int: Int] = [:]
  /// The rule of each application event the plan maps, in the runtime's order of the events.
  var applicationRules: [(event: TrackingConfig.ApplicationEvent, rule: Int)] = []
  /// By module, sorted, under `dynamic-replacement`.
  var modules: [Module] = []
  /// The plan's SwiftUI screens, for `TrackingScreen` and `.tracked(_:)`: each screen's case and the name
  /// the registry knows it by, in the order of the screens' keys.
  var swiftUIScreens: [(caseName: ValidIdentifier, runtimeName: String)] = []
  /// The registry names of the SwiftUI screens that carry `.tracked(_:)` in their own body, whose
  /// appearance a hosting controller therefore does not report (`hostedScreen(named:)`).
  var selfReportingScreenNames: [String] = []
  /// The replacement targets whose replacement cannot be written, and why, in target order.
  var unwritable: [(target: MatchedPlan.ReplacementTarget, problem: Replacement.Problem)] = []
  /// Under `objc-runtime`, the handlers whose implementation the runtime replaces, sorted by class and
  /// selector, and the shapes of Objective-C signature their replacements take (`objcShapes[hook.shape]`).
  var objcHooks: [ObjCHook] = []
  var objcShapes: [ObjCSignature] = []

  /// A mapped handler's class and selector, under `objc-runtime` (`ObjCHandlerHook` at run time): the
  /// screen's class, and each subclass in the sources that overrides the handler.
  struct ObjCHook {
    var className: ObjCClassName
    var selector: String
    /// The handler's ID constant.
    var handler: ValidIdentifier
    var shape: Int
    /// The method's Swift name, for the replacement's comment.
    var methodName: String
    /// The plan's line that maps the handler, for what the runtime says when the hook cannot be installed.
    var planLine: Int
  }

  init(plan: ResolvedPlan, code: MatchedPlan?) {
    self.plan = plan
    self.code = code
    let byName = plan.screens.map(\.id).sorted { UTF8Order.less(plan.written($0).name.value, plan.written($1).name.value) }

    // Handlers: one ID per Swift name, whichever screen maps it.
    var handlerNames: [String: [String]] = [:]
    var handlerOf: [ResolvedPlan.Event.ID: String] = [:]
    for event in plan.events {
      guard let control = plan.control(event), case .success(let written) = control.handler else { continue }
      var name = written.canonical
      var lookup = [written.canonical]
      if let code, let reference = code.method(of: event.id) {
        let method = code.index[reference]
        name = method.name
        lookup = [method.name, method.objcSelector ?? method.derivedSelector]
      }
      handlerNames[name, default: []] += lookup.filter { !(handlerNames[name] ?? []).contains($0) }
      handlerOf[event.id] = name
    }
    let sortedHandlers = handlerNames.keys.sorted(by: UTF8Order.less)
    var handlerIndex: [String: Int] = [:]
    var handlerIdentifiers = UniqueIdentifiers()
    var usedLookupNames = Set<String>()
    for (index, name) in sortedHandlers.enumerated() {
      handlerIndex[name] = index
      let lookup = handlerNames[name]!.filter { usedLookupNames.insert($0).inserted }
      handlers.append(Handler(name: name, lookupNames: lookup, identifier: handlerIdentifiers.claim(SwiftSource.identifier(fromSwiftName: name))))
    }

    // Rules, screen by screen in name order; page events, then handlers by name.
    var ruleIdentifiers = UniqueIdentifiers()
    var usedRuntimeNames = Set<String>()
    var firstByID: [String: (event: ResolvedPlan.Event.ID, rule: Int)] = [:]
    func addRule(_ event: ResolvedPlan.Event, stem: String, suffix: String) -> Int {
      let written = plan.written(event)
      let properties = written.properties.compactMap { property in property.value.map { (key: property.key.value, value: $0) } }
        .sorted { UTF8Order.less($0.key, $1.key) }
      rules.append(
        Rule(
          event: event.id, identifier: ruleIdentifiers.claim(SwiftSource.identifier(fromSwiftName: stem + "_" + suffix)),
          eventID: written.id.value, wireName: written.wireName?.value,
          sendsEnterAsTrack: event.trigger == .page(.enter) && TrackingConfig.Call.of(written, isEnter: true) == .track, routing: event.routing,
          properties: properties))
      let rule = rules.count - 1
      if plan.interception == .objcRuntime, let code, !plan.bindings.isEmpty {
        rules[rule].keyPathBindings = KeyPathCapture.of(event.id, in: code)
      }
      // For `rule(eventID:)`: the first mapping in config order.
      if firstByID[written.id.value].map({ $0.event < event.id }) != true {
        firstByID[written.id.value] = (event.id, rule)
      }
      return rule
    }
    for screenID in byName {
      let screen = plan.written(screenID)
      let stem = Self.screenStem(screen.name.value)
      var model = Screen(name: screen.name.value, runtimeNames: Self.runtimeNames(screenID, plan: plan, code: code), pageRules: [], controlRules: [])
      let events = plan.events(of: screenID)
      for phase in TrackingConfig.PagePhase.allCases {
        guard let page = events.first(where: { $0.trigger == .page(phase) }) else { continue }
        model.pageRules.append((phase, addRule(page, stem: stem, suffix: phase.rawValue)))
      }
      let controls = events.compactMap { event in handlerOf[event.id].map { (event, $0) } }.sorted { UTF8Order.less($0.1, $1.1) }
      for (event, name) in controls where !model.controlRules.contains(where: { $0.handler == handlerIndex[name]! }) {
        model.controlRules.append((handlerIndex[name]!, addRule(event, stem: stem, suffix: name)))
      }
      model.runtimeNames = model.runtimeNames.filter { usedRuntimeNames.insert($0).inserted }
      screens.append(model)
    }
    // The open events of entry points, in file order: the generated `Route.openEvent` tracks by these.
    for event in plan.events {
      guard case .entryPoint(let entry) = event.trigger else { continue }
      entryPointRules[entry] = addRule(event, stem: "open", suffix: plan.config.entryPoints[entry].name.value)
    }
    // The application events, which the runtime asks for by `applicationRule(_:)`.
    for kind in TrackingConfig.ApplicationEvent.allCases {
      guard let event = plan.event(ofApplication: kind) else { continue }
      applicationRules.append((kind, addRule(event, stem: "application", suffix: kind.rawValue)))
    }
    firstRule = firstByID.map { (id: $0.key, rule: $0.value.rule) }.sorted { UTF8Order.less($0.id, $1.id) }
    for event in plan.events {
      let id = plan.written(event).id.value
      if eventIdentifiers[id] == nil { eventIdentifiers[id] = SwiftSource.identifier(fromEventID: id) }
    }
    eventIDs = Set(rules.map(\.eventID)).sorted(by: UTF8Order.less).map {
      (id: $0, identifier: eventIdentifiers[$0] ?? SwiftSource.identifier(fromEventID: $0))
    }

    manualEvents = Self.manualEvents(plan, code: code, identifiers: eventIdentifiers)
    if let code {
      let cases = SwiftUIScreenCases(code)
      let owners = Set(code.index.swiftUI.trackedUses.compactMap { use in use.owner.map { "\($0) \(use.caseName)" } })
      for entry in cases.entries {
        let runtimeName = code.index[entry.type].qualifiedName
        swiftUIScreens.append((ValidIdentifier(escaping: entry.caseName) ?? ValidIdentifier(derived: entry.caseName), runtimeName))
        if owners.contains("\(entry.type) \(entry.caseName)") {
          selfReportingScreenNames += Self.runtimeNames(entry.screen, plan: plan, code: code)
        }
      }
      (modules, unwritable) = Self.replacements(code) { handlerIndex[$0].map { handlers[$0].identifier } }
      if plan.interception == .objcRuntime {
        (objcHooks, objcShapes) = Self.objcHooks(code) { event in handlerOf[event].flatMap { handlerIndex[$0] }.map { handlers[$0].identifier } }
      }
    }
  }

  /// The hooks of every control event whose handler resolves to a method that Objective-C can call with a
  /// signature of a known form (`handler-not-interceptable` reports the others): on the screen's class
  /// (the runtime finds the class that declares the method, a superclass's included) and on each subclass
  /// in the sources that overrides it; and their shapes, sorted.
  static func objcHooks(
    _ code: MatchedPlan, handler: (ResolvedPlan.Event.ID) -> ValidIdentifier?
  ) -> (hooks: [ObjCHook], shapes: [ObjCSignature]) {
    let index = code.index
    var subclasses: [Int: [Int]] = [:]
    var hooks: [(hook: ObjCHook, signature: ObjCSignature)] = []
    var seen = Set<String>()
    for event in code.plan.events {
      guard let control = code.plan.control(event), let reference = code.method(of: event.id), let screen = event.screen.flatMap(code.type(of:)),
        let identifier = handler(event.id)
      else { continue }
      let method = index[reference]
      guard let selector = method.objcSelector, case .success(let signature) = ObjCSignature.of(method, in: index, owner: reference.type) else {
        continue
      }
      if subclasses.isEmpty {
        for type in index.registry.types.indices where index[type].kind == .class {
          if let superclass = index.lineage(of: type).dropFirst().first { subclasses[superclass, default: []].append(type) }
        }
      }
      guard case .success(var classes) = ObjCClassName.hookedClasses(for: screen, in: index) else { continue }
      var pending = subclasses[screen] ?? []
      while let type = pending.popLast() {
        if index[type].methods.contains(where: { !$0.isStatic && $0.name == method.name }) { classes.append(type) }
        pending += subclasses[type] ?? []
      }
      for type in classes {
        guard case .success(let className) = ObjCClassName.of(type, in: index) else { continue }
        guard seen.insert("\(className) \(selector)").inserted else { continue }
        hooks.append(
          (
            ObjCHook(
              className: className, selector: selector, handler: identifier, shape: 0, methodName: method.name,
              planLine: control.key.range.start.line), signature
          ))
      }
    }
    let shapes = Set(hooks.map(\.signature)).sorted { UTF8Order.less($0.description, $1.description) }
    let sorted = hooks.map { entry in
      var hook = entry.hook
      hook.shape = shapes.firstIndex(of: entry.signature)!
      return hook
    }.sorted {
      if let byClass = UTF8Order.compare($0.className.text, $1.className.text) { return byClass }
      return UTF8Order.less($0.selector, $1.selector)
    }
    return (sorted, shapes)
  }

  /// `Home.HomeViewController` -> `homeViewController`: the start of rule constant names.
  static func screenStem(_ name: String) -> String {
    let last = (name.split(separator: ".").last.map(String.init) ?? name).filter { $0 != "`" }
    return last.prefix(1).lowercased() + last.dropFirst()
  }

  /// Identifiers, each given once; a second `default_` becomes `default__2`.
  struct UniqueIdentifiers {
    private var used = Set<String>()

    mutating func claim(_ identifier: ValidIdentifier) -> ValidIdentifier {
      var candidate = identifier
      var number = 2
      while !used.insert(candidate.text).inserted {
        candidate = ValidIdentifier(derived: "\(identifier.bare)_\(number)")
        number += 1
      }
      return candidate
    }
  }

  /// The names the runtime can see for a screen: its type's, and those of subclasses in the code whose
  /// nearest listed ancestor it is.
  static func runtimeNames(_ screen: ResolvedPlan.Screen.ID, plan: ResolvedPlan, code: MatchedPlan?) -> [String] {
    guard let code, let type = code.type(of: screen) else {
      let written = plan.written(screen)
      if case .success(let typeName) = written.typeName { return [typeName.components.joined(separator: ".")] }
      return [written.name.value]
    }
    func runtimeName(_ index: Int) -> String { code.index[index].qualifiedName }
    var names = [runtimeName(type)]
    for candidate in code.index.registry.types.indices where candidate != type && !code.mappedTypes.contains(candidate) {
      // The nearest listed type up the chain must be this screen's.
      let nearest = code.index.lineage(of: candidate).dropFirst().first { code.mappedTypes.contains($0) }
      if nearest == type { names.append(runtimeName(candidate)) }
    }
    return names.sorted(by: UTF8Order.less)
  }

  /// The methods to replace (`MatchedPlan.replacementTargets`), grouped by module and sorted, and the
  /// targets whose replacement cannot be written. An override that calls `super` runs two replacements;
  /// the runtime reports the inner one only when it is for another object or event, so each call is
  /// reported once.
  /// - Parameter handlerIdentifier: the ID constant of a handler, by its Swift name.
  static func replacements(
    _ code: MatchedPlan, handlerIdentifier: (String) -> ValidIdentifier?
  ) -> (modules: [Module], unwritable: [(target: MatchedPlan.ReplacementTarget, problem: Replacement.Problem)]) {
    var byModule: [String?: (name: [ValidIdentifier]?, items: [Replacement])] = [:]
    var unwritable: [(target: MatchedPlan.ReplacementTarget, problem: Replacement.Problem)] = []
    for target in code.replacementTargets {
      switch replacement(of: target.method, in: code.index) {
      case .failure(let problem):
        unwritable.append((target, problem))
      case .success(var replacement):
        if !target.handlerEvents.isEmpty { replacement.handlerIdentifier = handlerIdentifier(replacement.methodName) }
        replacement.phases = target.phases
        if !code.plan.bindings.isEmpty {
          replacement.handlerCaptures = Capture.of(target.handlerEvents, owner: target.method.type, in: code)
          for phase in target.phases {
            let events = target.pageEvents.filter { code.plan[$0].trigger == .page(phase) }
            replacement.pageCaptures[phase] = Capture.of(events, owner: target.method.type, in: code)
          }
          let captures = replacement.handlerCaptures + replacement.pageCaptures.values.flatMap { $0 }
          replacement.captureImports = Array(Set(captures.flatMap(\.imports)))
        }
        let module = code.index[target.method.type].module
        byModule[module, default: (module.flatMap(ValidIdentifier.path), [])].items.append(replacement)
      }
    }
    let modules = byModule.keys.sorted { UTF8Order.less($0 ?? "", $1 ?? "") }.map { key in
      let group = byModule[key]!
      let items = group.items.sorted {
        if let byType = UTF8Order.compare($0.ownerName, $1.ownerName) { return byType }
        return UTF8Order.less($0.methodName, $1.methodName)
      }
      return Module(name: group.name, replacements: items)
    }
    return (modules, unwritable)
  }

  /// The replacement of a method, when its names and signature from the registry can be written.
  static func replacement(of reference: MethodReference, in index: CodeIndex) -> Result<Replacement, Replacement.Problem> {
    let owner = index[reference.type]
    let method = index[reference]
    guard let ownerPath = ValidIdentifier.path(owner.name) else { return .failure(.typeName(owner.name)) }
    var modulePath: [ValidIdentifier]?
    if let module = owner.module {
      guard let path = ValidIdentifier.path(module) else { return .failure(.moduleName(module)) }
      modulePath = path
    }
    guard let written = method.signature else { return .failure(.noSignature(method: method.name)) }
    let signature: ReplacementSignature
    switch ReplacementSignature.read(name: method.name, signature: written) {
    case .success(let read): signature = read
    case .failure(let problem): return .failure(.signature(method: method.name, problem))
    }
    let qualified = index.isDeclaredInSeveralModules(owner.name) && modulePath != nil
    let ownerAvailability = Availability.of(owner.attributes ?? [])
    return .success(
      Replacement(
        owner: (qualified ? modulePath! : []) + ownerPath, signature: signature, ownerAvailability: ownerAvailability,
        availability: Availability.of(method.attributes).filter { !ownerAvailability.contains($0) },
        isMainActor: method.attributes.contains("@MainActor"), isNonisolated: method.attributes.contains("nonisolated"),
        isMutating: method.attributes.contains("mutating"), needsTestableImport: method.access < .public || owner.access < .public,
        imports: (owner.imports ?? []).compactMap(ValidIdentifier.path), handlerIdentifier: nil, phases: [], ownerName: owner.name,
        methodName: method.name))
  }
}
