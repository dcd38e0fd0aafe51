/// What the generated code says, worked out from a clean config and the code it was checked against:
/// numbered screens and handlers, one rule per mapping with its routing resolved, and the methods to
/// replace. Everything is sorted, so the same inputs give the same output.
struct GenerationModel {
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
    var identifier: String
  }

  struct Rule {
    var identifier: String
    var eventID: String
    /// nil: unrestricted (the config declares no destinations).
    var destinations: [String]?
    var properties: [(key: String, value: PropertyValue)]
  }

  /// A method to replace and what its replacement reports.
  struct Replacement {
    var method: DeclaredMethod
    var owner: DeclaredType
    /// How the generated extension names the owner: module-qualified when another module declares a
    /// type of that name too.
    var ownerReference: String
    /// The handler's ID constant, when a screen maps the method as a handler.
    var handlerIdentifier: String?
    /// The page phase, when the method is a lifecycle method of a screen with that page event.
    var phases: [TrackingConfig.PagePhase]
  }

  var screens: [Screen] = []
  var handlers: [Handler] = []
  var rules: [Rule] = []
  /// Distinct event IDs and their constant names, sorted by ID.
  var eventIDs: [(id: String, identifier: String)] = []
  /// For `rule(eventID:)`: the first mapping of each ID in config order.
  var firstRule: [(id: String, rule: Int)] = []
  /// By module (nil when unknown), under `dynamic-replacement`.
  var replacements: [(module: String?, items: [Replacement])] = []

  init(config: TrackingConfig, code: CodeMatch?) {
    let byName = config.screens.indices.sorted { UTF8Order.less(config.screens[$0].name.value, config.screens[$1].name.value) }

    // Handlers: one ID per Swift name, whichever screen maps it.
    var handlerNames: [String: [String]] = [:]
    var handlerOf: [Int: [Int: String]] = [:]  // screen index -> control index -> handler name
    for (screenIndex, screen) in config.screens.enumerated() {
      for (controlIndex, control) in screen.controlEvents.enumerated() {
        guard case .success(let written) = control.handler else { continue }
        var name = written.canonical
        var lookup = [written.canonical]
        if let code, case .found(let reference)? = code.screens[screenIndex].handlers[controlIndex] {
          let method = code.index[reference]
          name = method.name
          lookup = [method.name, method.objcSelector ?? method.derivedSelector]
        }
        handlerNames[name, default: []] += lookup.filter { !(handlerNames[name] ?? []).contains($0) }
        handlerOf[screenIndex, default: [:]][controlIndex] = name
      }
    }
    let sortedHandlers = handlerNames.keys.sorted(by: UTF8Order.less)
    var handlerIndex: [String: Int] = [:]
    var handlerIdentifiers = Self.uniqueIdentifiers()
    var usedLookupNames = Set<String>()
    for (index, name) in sortedHandlers.enumerated() {
      handlerIndex[name] = index
      let lookup = handlerNames[name]!.filter { usedLookupNames.insert($0).inserted }
      handlers.append(Handler(name: name, lookupNames: lookup, identifier: handlerIdentifiers.claim(SwiftSource.identifier(fromSwiftName: name))))
    }

    // Routing, as the config resolves it.
    let declared = config.destinations?.map(\.id.value)
    let defaults = config.defaults.destinations.map { $0.map(\.value) } ?? declared ?? []
    func destinations(of event: TrackingConfig.EventRule) -> [String]? {
      guard declared != nil else { return nil }
      var result: [String]
      if let only = event.only {
        result = only.entries.map(\.value)
      } else if let exclude = event.exclude {
        let excluded = Set(exclude.entries.map(\.value))
        result = defaults.filter { !excluded.contains($0) }
      } else {
        result = defaults
      }
      return Array(Set(result)).sorted(by: UTF8Order.less)
    }

    // Rules, screen by screen in name order; page events, then handlers by name.
    var ruleIdentifiers = Self.uniqueIdentifiers()
    var usedRuntimeNames = Set<String>()
    var firstByID: [String: (order: (Int, Int), rule: Int)] = [:]
    for screenIndex in byName {
      let screen = config.screens[screenIndex]
      let stem = Self.screenStem(screen.name.value)
      var model = Screen(name: screen.name.value, runtimeNames: Self.runtimeNames(screenIndex, config: config, code: code), pageRules: [], controlRules: [])
      func addRule(_ event: TrackingConfig.EventRule, suffix: String, order: Int) -> Int {
        let properties = event.properties.compactMap { property in property.value.map { (key: property.key.value, value: $0) } }
          .sorted { UTF8Order.less($0.key, $1.key) }
        rules.append(
          Rule(
            identifier: ruleIdentifiers.claim(SwiftSource.identifier(fromSwiftName: stem + "_" + suffix)),
            eventID: event.id.value, destinations: destinations(of: event), properties: properties))
        let rule = rules.count - 1
        let position = (screenIndex, order)
        if firstByID[event.id.value].map({ $0.order < position }) != true {
          firstByID[event.id.value] = (position, rule)
        }
        return rule
      }
      for phase in TrackingConfig.PagePhase.allCases {
        guard let page = screen.pageEvents.first(where: { $0.phase.value == phase }) else { continue }
        let order = screen.pageEvents.firstIndex { $0.phase.value == phase }!
        model.pageRules.append((phase, addRule(page.event, suffix: phase.rawValue, order: order)))
      }
      let controls = screen.controlEvents.indices.compactMap { index in handlerOf[screenIndex]?[index].map { (index, $0) } }
        .sorted { UTF8Order.less($0.1, $1.1) }
      for (controlIndex, name) in controls where !model.controlRules.contains(where: { $0.handler == handlerIndex[name]! }) {
        let rule = addRule(screen.controlEvents[controlIndex].event, suffix: name, order: screen.pageEvents.count + controlIndex)
        model.controlRules.append((handlerIndex[name]!, rule))
      }
      model.runtimeNames = model.runtimeNames.filter { usedRuntimeNames.insert($0).inserted }
      screens.append(model)
    }
    firstRule = firstByID.map { (id: $0.key, rule: $0.value.rule) }.sorted { UTF8Order.less($0.id, $1.id) }
    eventIDs = Set(rules.map(\.eventID)).sorted(by: UTF8Order.less).map { (id: $0, identifier: SwiftSource.identifier(fromEventID: $0)) }

    if config.interception?.value == .dynamicReplacement, let code {
      replacements = Self.replacements(config: config, code: code) { handlerIndex[$0].map { handlers[$0].identifier } }
    }
  }

  /// `Home.HomeViewController` -> `homeViewController`: the start of rule constant names.
  static func screenStem(_ name: String) -> String {
    let last = (name.split(separator: ".").last.map(String.init) ?? name).filter { $0 != "`" }
    return last.prefix(1).lowercased() + last.dropFirst()
  }

  /// Identifiers, each given once; a second `default_` becomes `default__2` (backticks kept only where needed).
  static func uniqueIdentifiers() -> UniqueNames {
    UniqueNames { identifier, number in
      let base = identifier.hasPrefix("`") ? String(identifier.dropFirst().dropLast()) : identifier
      return SwiftSource.escapedIdentifier("\(base)_\(number)")
    }
  }

  /// The names the runtime can see for a screen: its type's, and those of subclasses in the code whose
  /// nearest listed ancestor it is.
  static func runtimeNames(_ screenIndex: Int, config: TrackingConfig, code: CodeMatch?) -> [String] {
    guard let code, let type = code.screens[screenIndex].type else {
      if case .success(let typeName) = config.screens[screenIndex].typeName { return [typeName.components.joined(separator: ".")] }
      return [config.screens[screenIndex].name.value]
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

  /// The methods to replace: every handler the screens map (where it is declared for that screen: its own
  /// override, or a superclass's method) and the lifecycle method each screen with page events has, each
  /// once. An override that calls `super` runs two replacements; the runtime reports the inner one only
  /// when it is for another object or event, so each call is reported once.
  /// - Parameter handlerIdentifier: the ID constant of a handler, by its Swift name.
  static func replacements(
    config: TrackingConfig, code: CodeMatch, handlerIdentifier: (String) -> String?
  ) -> [(module: String?, items: [Replacement])] {
    var byMethod: [MethodReference: Replacement] = [:]
    for (screen, match) in zip(config.screens, code.screens) {
      guard let type = match.type else { continue }
      for resolution in match.handlers {
        guard case .found(let reference)? = resolution else { continue }
        let method = code.index[reference]
        byMethod[reference, default: Self.replacement(of: reference, in: code.index)].handlerIdentifier = handlerIdentifier(method.name)
      }
      for page in screen.pageEvents {
        let lifecycle = config.conventions.lifecycle.method(for: page.phase.value)
        guard let reference = Self.declaration(of: lifecycle, on: type, in: code.index) else { continue }
        var replacement = byMethod[reference] ?? Self.replacement(of: reference, in: code.index)
        if !replacement.phases.contains(page.phase.value) { replacement.phases.append(page.phase.value) }
        byMethod[reference] = replacement
      }
    }
    let grouped = Dictionary(grouping: byMethod.values) { $0.owner.module }
    return grouped.keys.sorted { UTF8Order.less($0 ?? "", $1 ?? "") }.map { module in
      let items = grouped[module]!.sorted {
        if let byType = UTF8Order.compare($0.owner.name, $1.owner.name) { return byType }
        return UTF8Order.less($0.method.name, $1.method.name)
      }
      return (module, items)
    }
  }

  static func replacement(of reference: MethodReference, in index: CodeIndex) -> Replacement {
    let owner = index[reference.type]
    let qualified = index.isDeclaredInSeveralModules(owner.name) && owner.module != nil
    return Replacement(
      method: index[reference], owner: owner, ownerReference: qualified ? owner.qualifiedName : owner.name, handlerIdentifier: nil,
      phases: [])
  }

  /// The lifecycle method a screen has: its own, or the nearest superclass's in the code.
  static func declaration(of name: String, on type: Int, in index: CodeIndex) -> MethodReference? {
    for owner in index.lineage(of: type) {
      if let method = index[owner].methods.firstIndex(where: { !$0.isStatic && $0.name == name }) {
        return MethodReference(type: owner, method: method)
      }
    }
    return nil
  }
}
