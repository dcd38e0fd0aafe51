/// What a config means, worked out once from what it says: the second stage of the pipeline
/// (config → resolved plan → plan matched against the code → generation model).
///
/// The config (`TrackingConfig`) keeps what was written and where; the plan resolves it: the interception
/// in force, the compiled event ID pattern, the declared and default destinations, and every event with
/// its routing. The plan rules, the code match, the generator and the collector all read this one value,
/// so that no two of them can work the meaning out differently.
///
/// Screens and events are named by typed IDs (`Screen.ID`, `Event.ID`), never by a position in a
/// parallel array: everything computed about an event later is looked up by its ID.
public struct ResolvedPlan: Sendable {
  /// The config as written, with positions for findings.
  public let config: TrackingConfig
  public let interception: TrackingConfig.Interception
  /// `conventions.event_id_pattern`, compiled; a failure when it is not a valid regular expression.
  public let eventIDPattern: Result<EventIDPattern, EventIDPattern.CompileError>
  /// Declared destination IDs in file order, each once; nil when the config has no `destinations`
  /// section, in which case routing is not restricted.
  public let declaredDestinations: [String]?
  /// Where an event goes unless it says otherwise: the declared destinations among `defaults`, or every
  /// declared one when `defaults` is absent; sorted.
  public let defaultDestinations: [String]
  /// Whether `defaults.destinations` is written at all.
  public let hasExplicitDefaults: Bool
  /// Every screen, in file order.
  public let screens: [Screen]
  /// Every event, screen by screen in file order; each screen's page events, then its control events;
  /// then the open events of entry points, in file order (those whose screen is a key of `screens`);
  /// then the application events (`application:`), in file order.
  public let events: [Event]
  /// Every property written as a binding, in plan order.
  public let bindings: [BoundProperty]
  /// The type each property name has across the plan, where the config says it: the plan's `properties`
  /// declaration, else the first static value or declared binding type (an integer where a double is
  /// also used counts as a double). Bindings whose type only the code tells are added by `MatchedPlan`.
  public let propertyTypes: [String: PlanPropertyType]
  /// The entry points: link rules, parsed patterns, routes and what the rules report about them.
  public let entryPoints: EntryPointPlan
  /// What personal data goes to which destination, for what (Plan/PrivacyPlan.swift); worked out last,
  /// from the rest of the plan.
  public private(set) var privacy = PrivacyPlan.none
  private let declaredSet: Set<String>
  /// The events written in the long form (`{event: ..., destinations: ...}`), in plan order, with what
  /// only that form says: the few that the destination and property rules read (one in twenty-one in the
  /// benchmark config), so that those rules skip the rest without touching them.
  private let longFormEvents: [(event: Event.ID, details: TrackingConfig.EventRule.Details)]

  /// A property of an event written as a binding (`{from: id}`).
  public struct BoundProperty: Sendable, Identifiable {
    public struct ID: Hashable, Sendable, Comparable {
      let rawValue: Int32
      public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public let id: ID
    public let event: Event.ID
    /// Its index in the event's written properties.
    public let index: Int
  }

  /// A property name's type across the plan, and what settled it.
  public struct PlanPropertyType: Sendable {
    public enum Origin: Sendable {
      /// Declared in the plan's `properties`, here.
      case declaration(SourceRange)
      /// The first use with a type: a static value, or a binding's `type:` (`isBinding`).
      case usage(Event.ID, SourceRange, isBinding: Bool)
    }

    public var type: PropertyType
    public var origin: Origin
  }

  public struct Screen: Sendable, Identifiable {
    public struct ID: Hashable, Sendable, Comparable {
      let rawValue: Int32
      public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public let id: ID
    /// The screen's events, page events first (`plan.events[screen.events]`).
    public let events: Range<Int>
  }

  public struct Event: Sendable, Identifiable {
    public struct ID: Hashable, Sendable, Comparable {
      let rawValue: Int32
      public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public let id: ID
    /// The screen it is tracked on; nil for an application event, which the runtime tracks on none.
    public let screen: Screen.ID?
    /// A page phase, which of the screen's control events, an entry point or an application event.
    public let trigger: TrackingConfig.Trigger
    public let routing: Routing
  }

  /// Where an event may go.
  public enum Routing: Hashable, Sendable {
    /// The config declares no destinations: every destination the app registers at run time.
    case unrestricted
    /// Only these declared destination IDs, each once, in UTF-8 order; empty when the event reaches none.
    case only([String])

    /// Routed to declared destinations, none of them.
    public var reachesNone: Bool {
      if case .only(let destinations) = self { return destinations.isEmpty }
      return false
    }

    public func allows(_ destination: String) -> Bool {
      switch self {
      case .unrestricted: return true
      case .only(let destinations): return destinations.contains(destination)
      }
    }
  }

  public init(_ config: TrackingConfig) {
    self.config = config
    interception = config.interception?.value ?? .default
    eventIDPattern = EventIDPattern.compile(config.conventions.eventIDPattern)
    var declared: [String]?
    if let destinations = config.destinations {
      var seen = Set<String>()
      declared = destinations.map(\.id.value).filter { seen.insert($0).inserted }
    }
    declaredDestinations = declared
    let declaredSet = Set(declared ?? [])
    self.declaredSet = declaredSet
    hasExplicitDefaults = config.defaults.destinations != nil
    // An undeclared destination routes nothing (`unknown-destination` reports it); keeping it would route
    // events to a destination the plan does not have.
    let defaults = config.defaults.destinations.map { Set($0.map(\.value)).intersection(declaredSet) } ?? declaredSet
    let defaultDestinations = defaults.sorted(by: UTF8Order.less)
    self.defaultDestinations = defaultDestinations

    var screens: [Screen] = []
    var events: [Event] = []
    var bindings: [BoundProperty] = []
    var propertyTypes: [String: PlanPropertyType] = [:]
    for declaration in config.propertyDeclarations ?? [] {
      guard let type = declaration.type, propertyTypes[declaration.name.value] == nil else { continue }
      propertyTypes[declaration.name.value] = PlanPropertyType(type: type.value, origin: .declaration(declaration.name.range))
    }
    let declaredNames = Set(propertyTypes.keys)
    screens.reserveCapacity(config.screens.count)
    events.reserveCapacity(
      config.screens.reduce(config.entryPoints.count + config.application.count) { $0 + $1.pageEvents.count + $1.controlEvents.count })
    let isRestricted = declared != nil
    let defaultRouting = Routing.only(defaultDestinations)
    func routing(_ details: TrackingConfig.EventRule.Details?) -> Routing {
      if !isRestricted {
        return .unrestricted
      } else if let only = details?.only {
        return .only(Set(only.entries.map(\.value)).intersection(declaredSet).sorted(by: UTF8Order.less))
      } else if let exclude = details?.exclude {
        let excluded = Set(exclude.entries.map(\.value))
        return .only(defaultDestinations.filter { !excluded.contains($0) })
      } else {
        return defaultRouting
      }
    }
    var longFormEvents: [(event: Event.ID, details: TrackingConfig.EventRule.Details)] = []
    /// Adds an event, and what is kept beside it by event ID, to the plan.
    func append(_ trigger: TrackingConfig.Trigger, of screenID: Screen.ID?, details: TrackingConfig.EventRule.Details?) -> Event.ID {
      let id = Event.ID(rawValue: Int32(events.count))
      events.append(Event(id: id, screen: screenID, trigger: trigger, routing: routing(details)))
      if let details { longFormEvents.append((id, details)) }
      return id
    }
    /// Adds a screen's event, with its bindings and the property types it settles. An application event
    /// has no bindings (`application-event-property` reports them): nothing the runtime has could be read.
    func add(_ trigger: TrackingConfig.Trigger, of screenID: Screen.ID?, details: TrackingConfig.EventRule.Details?) {
      let id = append(trigger, of: screenID, details: details)
      guard let details else { return }
      for (index, property) in details.properties.enumerated() {
        if property.binding != nil, screenID != nil {
          bindings.append(BoundProperty(id: BoundProperty.ID(rawValue: Int32(bindings.count)), event: id, index: index))
        }
        guard let type = Self.writtenType(of: property), !declaredNames.contains(property.key.value) else { continue }
        if let first = propertyTypes[property.key.value] {
          // An integer and a double under one name make it a double (a JSON number either way).
          if first.type == .int && type == .double { propertyTypes[property.key.value]!.type = .double }
        } else {
          propertyTypes[property.key.value] = PlanPropertyType(
            type: type, origin: .usage(id, Self.typeRange(of: property), isBinding: property.binding != nil))
        }
      }
    }
    // By index, reading only each event's `details`: iterating the screens or their events by value (or
    // handing an event to a closure) copies it whole, retaining every string it holds, a hundred thousand
    // times on a large config (`perf record`: the largest share of the plan's CPU).
    let configScreens = config.screens
    for screen in configScreens.indices {
      let screenID = Screen.ID(rawValue: Int32(screen))
      let first = events.count
      for index in configScreens[screen].pageEvents.indices {
        add(
          .page(configScreens[screen].pageEvents[index].phase.value), of: screenID, details: configScreens[screen].pageEvents[index].event.details)
      }
      for index in configScreens[screen].controlEvents.indices {
        add(.control(index: index), of: screenID, details: configScreens[screen].controlEvents[index].event.details)
      }
      screens.append(Screen(id: screenID, events: first..<events.count))
    }
    self.screens = screens
    entryPoints = EntryPointPlan(config) { Self.screen(named: $0, in: config) }
    for route in entryPoints.routes {
      guard let screen = route.screen, let event = config.entryPoints[route.entry].event else { continue }
      _ = append(.entryPoint(index: route.entry), of: screen, details: event.details)
    }
    // The application events, once each (a second of a kind is a duplicate key, reported and left out).
    var mappedApplicationEvents = Set<TrackingConfig.ApplicationEvent>()
    for mapping in config.application where mappedApplicationEvents.insert(mapping.kind.value).inserted {
      add(.application(mapping.kind.value), of: nil, details: mapping.event.details)
    }
    self.events = events
    self.longFormEvents = longFormEvents
    self.bindings = bindings
    self.propertyTypes = propertyTypes
    privacy = PrivacyPlan(self)
  }

  /// The type the config itself gives a property: a static value's, or a binding's `type:`.
  public static func writtenType(of property: TrackingConfig.Property) -> PropertyType? {
    property.value?.type ?? property.binding?.declaredType?.value
  }

  /// Where that type is written: the value, or the binding's `type:`.
  public static func typeRange(of property: TrackingConfig.Property) -> SourceRange {
    property.binding?.declaredType?.range ?? property.valueRange
  }

  /// The type a property is expected to have: its own binding's `type:`, else the plan's for its name.
  public func expectedType(of property: TrackingConfig.Property) -> PropertyType? {
    property.binding?.declaredType?.value ?? propertyTypes[property.key.value]?.type
  }

  /// The screen an entry point names: the key as written, else the same type name spelt otherwise.
  static func screen(named name: String, in config: TrackingConfig) -> Screen.ID? {
    if let index = config.screens.firstIndex(where: { $0.name.value == name }) { return Screen.ID(rawValue: Int32(index)) }
    guard case .success(let typeName) = SwiftTypeName.parse(name) else { return nil }
    return config.screens.firstIndex { screen in
      if case .success(let other) = screen.typeName { return other == typeName }
      return false
    }.map { Screen.ID(rawValue: Int32($0)) }
  }

  // MARK: Looking up

  public subscript(screen: Screen.ID) -> Screen { screens[Int(screen.rawValue)] }

  public subscript(event: Event.ID) -> Event { events[Int(event.rawValue)] }

  /// The screen as written.
  public func written(_ screen: Screen.ID) -> TrackingConfig.Screen { config.screens[Int(screen.rawValue)] }

  /// The event as written: its ID, routing and properties with their positions.
  public func written(_ event: Event) -> TrackingConfig.EventRule {
    switch event.trigger {
    case .page(let phase): return config.screens[Int(event.screen!.rawValue)].pageEvents.first { $0.phase.value == phase }!.event
    case .control(let index): return config.screens[Int(event.screen!.rawValue)].controlEvents[index].event
    case .entryPoint(let index): return config.entryPoints[index].event!
    case .application(let kind): return config.application.first { $0.kind.value == kind }!.event
    }
  }

  /// The control event as written (handler key and name), for events of handlers.
  public func control(_ event: Event) -> TrackingConfig.ControlEvent? {
    guard case .control(let index) = event.trigger, let screen = event.screen else { return nil }
    return config.screens[Int(screen.rawValue)].controlEvents[index]
  }

  /// The page event as written, for page events.
  public func page(_ event: Event) -> TrackingConfig.PageEvent? {
    guard case .page(let phase) = event.trigger, let screen = event.screen else { return nil }
    return config.screens[Int(screen.rawValue)].pageEvents.first { $0.phase.value == phase }
  }

  /// Calls `body` for every event in order (by ID: `plan[event]` is the event), with the event as
  /// written. A rule that reads only what the long form says walks `forEachLongFormEvent` instead.
  ///
  /// What is handed over is chosen for what it costs, measured with `perf record` on a 105,000-event
  /// config. Swift copies an argument it reads from memory the callee might write, `borrowing` or not, so
  /// the event as written costs a retain of its ID string per event per rule. The resolved event would
  /// also cost a retain of its routing, an array most events share; handing over the ID instead took the
  /// plan rules from 23.8 to 17.0 ms (medians of 9, `--timings`). Hence the ID.
  public func forEachEvent(_ body: (Event.ID, borrowing TrackingConfig.EventRule) throws -> Void) rethrows {
    var index = 0
    try config.screens.withUnsafeBufferPointer { screens in
      for screen in screens.indices {
        try screens[screen].forEachEvent { _, written in
          try body(Event.ID(rawValue: Int32(index)), written)
          index += 1
        }
      }
    }
    for event in index..<events.count {
      switch events[event].trigger {
      case .entryPoint(let entry): try body(Event.ID(rawValue: Int32(event)), config.entryPoints[entry].event!)
      case .application: try body(Event.ID(rawValue: Int32(event)), written(events[event]))
      case .page, .control: continue
      }
    }
  }

  /// Calls `body` for every event written in the long form, in plan order, with what that form says
  /// (destinations, exclusions, properties); the short form (`handler: EVENT_ID`) says none of it. These
  /// are few, so the event itself is handed over (see `forEachEvent` for what that costs).
  public func forEachLongFormEvent(_ body: (Event, TrackingConfig.EventRule.Details) throws -> Void) rethrows {
    for (event, details) in longFormEvents { try body(events[Int(event.rawValue)], details) }
  }

  /// The events of one screen.
  public func events(of screen: Screen.ID) -> ArraySlice<Event> { events[self[screen].events] }

  public subscript(binding: BoundProperty.ID) -> BoundProperty { bindings[Int(binding.rawValue)] }

  /// The bindings of one event, in the order written.
  public func bindings(of event: Event.ID) -> some Collection<BoundProperty> {
    // Bindings are in event order: find the first, then take while the event matches.
    let start = bindings.partitioningIndex { $0.event >= event }
    return bindings[start...].prefix { $0.event == event }
  }

  /// A bound property as written.
  public func written(_ binding: BoundProperty) -> TrackingConfig.Property {
    written(self[binding.event]).properties[binding.index]
  }

  /// "the enter page event of 'Home'", "handler 'onFav(_:)' of 'Home'": words for messages.
  public func describe(_ event: Event) -> String {
    switch event.trigger {
    case .entryPoint(let index): return "the event of entry point '\(config.entryPoints[index].name.value)'"
    case .application(let kind): return "the application event '\(kind.rawValue)'"
    case .page, .control: return written(event.screen!).describe(event.trigger)
    }
  }

  /// The open event of an entry point, when it has one and opens a known screen.
  public func event(ofEntryPoint index: Int) -> Event? {
    events.last { $0.trigger == .entryPoint(index: index) }
  }

  /// The event the plan maps an application event to, when it maps it.
  public func event(ofApplication kind: TrackingConfig.ApplicationEvent) -> Event? {
    events.last { $0.trigger == .application(kind) }
  }

  /// Whether the config declares this destination.
  public func declares(_ destination: String) -> Bool { declaredSet.contains(destination) }
}

extension RandomAccessCollection {
  /// The first index whose element satisfies `predicate`, in a collection where every element that does
  /// comes after every element that does not (a binary search).
  func partitioningIndex(where predicate: (Element) -> Bool) -> Index {
    var low = startIndex
    var count = self.count
    while count > 0 {
      let half = count / 2
      let middle = index(low, offsetBy: half)
      if predicate(self[middle]) {
        count = half
      } else {
        low = index(after: middle)
        count -= half + 1
      }
    }
    return low
  }
}
