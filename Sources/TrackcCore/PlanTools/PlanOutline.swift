/// The plan as the people around the code read it: screens, their events with IDs, routing and
/// properties, and where the code declares each screen and handler. `trackc docs`, `trackc diff` and
/// `trackc export` all read this one value, made from the resolved plan (and the plan matched against
/// the code, when there was code), so that none of them works out routing or names on its own.
///
/// It has a section per kind of plan element (destinations, screens, events, properties); a new kind
/// (entry points, property bindings) is a new section here and a new section in each tool.
public struct PlanOutline: Sendable {
  /// The config's path, as diagnostics name it.
  public var file: String
  public var interception: TrackingConfig.Interception
  /// Declared destinations in file order; nil when the config declares none (routing is not restricted).
  public var destinations: [Destination]?
  /// Where an event goes unless it says otherwise.
  public var defaultDestinations: [String]
  public var screens: [Screen]
  /// The config's entry points, in file order: how the app is opened from outside, and what it tracks.
  public var entryPoints: [EntryPoint] = []
  /// The entry points' open events as events of the plan, for the tools that list or compare events
  /// (`diff`, `export`): each on a screen named after the screen it opens (identity `entry-point`),
  /// triggered by `open(entryPoint:)`, with the properties the runtime sends: `source`, the route's
  /// parameters as sent, and the static ones (a static property of the same name wins, as at run time).
  public var openEvents: [(screen: Screen, event: Event)] {
    entryPoints.compactMap { entry in
      guard let open = entry.openEvent else { return nil }
      let sent =
        [Property(key: "source", keyRange: entry.range, value: .bound(from: "source", type: .string), valueRange: entry.range)]
        + entry.routeParameters.map {
          Property(key: $0.name, keyRange: entry.range, value: .bound(from: "route." + $0.name, type: $0.sentType), valueRange: entry.range)
        }
      let properties = sent.filter { sent in !open.properties.contains { $0.key == sent.key } } + open.properties
      let screen = Screen(name: entry.screen ?? entry.name, identity: "entry-point", range: entry.range, declaration: nil, events: [])
      let event = Event(
        id: open.id, idRange: open.idRange, wireName: open.wireName, trigger: .open(entryPoint: entry.name), triggerRange: entry.range,
        routing: open.routing, properties: properties, declaration: nil)
      return (screen, event)
    }
  }
  /// The application events the plan maps (`application:`), in the runtime's order of the events, each
  /// triggered by `.application(kind)` and with the properties the runtime sends (`version`, `build`,
  /// ...: `{from: runtime.version}`), then the static ones.
  public var applicationEvents: [Event] = []
  /// The application events as events of the plan, for the tools that list or compare events: each on
  /// a screen named `application` (identity `application-events`, which no type name can be).
  public var applicationPlacedEvents: [(screen: Screen, event: Event)] {
    let screen = applicationScreen
    return applicationEvents.map { (screen, $0) }
  }
  /// The screen the application events are listed on.
  public var applicationScreen: Screen {
    let range = applicationEvents.first?.triggerRange ?? SourceRange(start: .start, end: .start)
    return Screen(name: "application", identity: "application-events", range: range, declaration: nil, events: applicationEvents)
  }
  /// The screens' events, then the open events, then the application events.
  public var allEvents: [(screen: Screen, event: Event)] { Array(events) + openEvents + applicationPlacedEvents }
  /// Whether screens and handlers were matched against code (so `declaration`s are meaningful).
  public var hasCode: Bool
  /// What personal data goes where, for what (PlanTools/PrivacyOutline.swift); nil when the plan says
  /// nothing about privacy.
  public var privacy: PrivacyOutline?

  public struct Destination: Sendable, Hashable {
    public var id: String
    public var description: String?
    public var range: SourceRange
    /// The name a collector is told to forward to (`wire_name`), when it is not the ID.
    public var wireName: String? = nil
  }

  public struct Screen: Sendable {
    /// The key as written (`Shop.HomeViewController`).
    public var name: String
    /// What identifies the screen across versions of the config: the type name without backticks or
    /// spaces (the key as written when it is not a type name).
    public var identity: String
    public var range: SourceRange
    /// Where the screen's type is declared, when matched against code.
    public var declaration: CodeLocation?
    /// Page events (enter, leave), then control events, in file order.
    public var events: [Event]
  }

  public struct Event: Sendable {
    /// The event ID.
    public var id: String
    public var idRange: SourceRange
    /// The name it goes by on the wire (`wire_name`), when that is not the ID (a track call) or the
    /// screen's name (a screen call).
    public var wireName: String? = nil
    /// The Segment call it goes as.
    public var call: TrackingConfig.Call = .track
    public var trigger: Trigger
    /// The key the event is mapped from (`enter`, `onFav(_:)`).
    public var triggerRange: SourceRange
    public var routing: ResolvedPlan.Routing
    public var properties: [Property]
    /// The handler's method (control events) or the lifecycle method that carries a page event.
    public var declaration: CodeLocation?

    /// The name it goes by on the wire: its `wire_name`, else its ID (a track call) or `screen`'s name
    /// (a screen call).
    public func nameOnTheWire(screen: String) -> String { wireName ?? (call == .screen ? screen : id) }

    /// "track 'Checkout Tapped'" when the plan says how the event goes on the wire (`wire_name`, or
    /// `call: track` for an enter event); nil when it goes as every event of its kind does.
    public func wireDescription(screen: String) -> String? {
      guard wireName != nil || (trigger == .page(.enter) && call == .track) else { return nil }
      return "\(call.rawValue) '\(nameOnTheWire(screen: screen))'"
    }
  }

  public enum Trigger: Sendable, Hashable {
    case page(TrackingConfig.PagePhase)
    /// `handler` is the key as written; `identity` its canonical spelling (`open(item:at:)`).
    case control(handler: String, identity: String)
    /// The open event of an entry point (`openEvents`).
    case open(entryPoint: String)
    /// An application event, tracked by the runtime (`applicationEvents`).
    case application(TrackingConfig.ApplicationEvent)

    /// "enter", "onFav(_:)": what the trigger is called in tables.
    public var label: String {
      switch self {
      case .page(let phase): return phase.rawValue
      case .control(let handler, _): return handler
      case .open(let entryPoint): return entryPoint
      case .application(let kind): return kind.rawValue
      }
    }

    /// "page", "control", "open" or "application".
    public var kind: String {
      switch self {
      case .page: return "page"
      case .control: return "control"
      case .open: return "open"
      case .application: return "application"
      }
    }

    /// What identifies the trigger on its screen across versions of the config.
    public var identity: String {
      switch self {
      case .page(let phase): return "page:" + phase.rawValue
      case .control(_, let identity): return "control:" + identity
      case .open(let entryPoint): return "open:" + entryPoint
      case .application(let kind): return "application:" + kind.rawValue
      }
    }
  }

  /// An entry point: the screen it opens, each source that opens it, its route's parameters and its
  /// open event.
  public struct EntryPoint: Sendable {
    public var name: String
    public var range: SourceRange
    /// The `screen` as written.
    public var screen: String?
    /// One line per source, in file order: `link`, `notification` or `shortcut`, and its text (a pattern,
    /// the selecting payload values, the shortcut type and title).
    public var sources: [Source]
    /// The route's parameters, typed.
    public var routeParameters: [RouteParameter]
    /// The route's parameters in words: `id: int`, `ref: string?`.
    public var parameters: [String] { routeParameters.map(\.description) }
    /// The event tracked when the app is opened this way (its ID, routing and static properties).
    public var openEvent: OpenEvent?

    /// A parameter of the route: its type as patterns write it, and as the open event sends it (an `int`
    /// or `int64` as an integer, anything else as a string).
    public struct RouteParameter: Sendable, Hashable, CustomStringConvertible {
      public var name: String
      public var type: String
      public var isOptional: Bool
      public var sentType: PropertyType

      public var description: String { "\(name): \(type)\(isOptional ? "?" : "")" }
    }

    public struct Source: Sendable, Hashable {
      public var kind: String
      public var text: String
    }
  }

  public struct OpenEvent: Sendable {
    public var id: String
    public var idRange: SourceRange
    public var wireName: String? = nil
    public var routing: ResolvedPlan.Routing
    public var properties: [Property]
  }

  public struct Property: Sendable {
    public var key: String
    public var keyRange: SourceRange
    public var value: Value
    public var valueRange: SourceRange

    /// What the event carries under this key.
    public enum Value: Sendable, Hashable {
      /// A static value, sent as written.
      case literal(PropertyValue)
      /// A binding (`{from: id}`): read when the event fires, of the type the plan gives it (nil when
      /// only the code tells).
      case bound(from: String, type: PropertyType?)
      /// Not a value an event can carry (`invalid-property-value` reports it).
      case invalid(FoundValue)
    }

    /// The JSON type of the value ("string", "integer", "number", "boolean"); nil when invalid.
    public var type: String? {
      switch value {
      case .literal(let value): return value.jsonType
      case .bound(_, let type): return type?.jsonType
      case .invalid: return nil
      }
    }
  }

  /// A place in the Swift sources, relative to the config's directory.
  public struct CodeLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var description: String { "\(file):\(line)" }
  }

  /// Every event, screen by screen.
  public var events: some Sequence<(screen: Screen, event: Event)> {
    screens.lazy.flatMap { screen in screen.events.lazy.map { (screen: screen, event: $0) } }
  }

  public var eventCount: Int { screens.reduce(0) { $0 + $1.events.count } }

  /// How many events each declared destination receives, in declaration order; `nil` when routing is
  /// not restricted (every destination receives every event).
  public var eventsPerDestination: [(destination: String, events: Int)]? {
    guard let destinations else { return nil }
    var counts = [String: Int]()
    for (_, event) in events {
      if case .only(let names) = event.routing { for name in names { counts[name, default: 0] += 1 } }
    }
    // The open events of entry points and the application events are events too.
    for entry in entryPoints {
      if case .only(let names)? = entry.openEvent?.routing { for name in names { counts[name, default: 0] += 1 } }
    }
    for event in applicationEvents {
      if case .only(let names) = event.routing { for name in names { counts[name, default: 0] += 1 } }
    }
    return destinations.map { ($0.id, counts[$0.id] ?? 0) }
  }
}

extension PlanOutline {
  /// The outline of a linted config: of its matched plan when it was checked against code, else of its
  /// resolved plan. Nil when the config could not be read far enough to have a plan.
  public init?(_ result: LintResult) {
    if let code = result.code {
      self.init(code, file: result.path)
    } else if let plan = result.plan {
      self.init(plan, file: result.path)
    } else {
      return nil
    }
  }

  public init(_ plan: ResolvedPlan, file: String) {
    self.init(plan, file: file, code: nil)
  }

  public init(_ code: MatchedPlan, file: String? = nil) {
    self.init(code.plan, file: file ?? "", code: code)
  }

  private init(_ plan: ResolvedPlan, file: String, code: MatchedPlan?) {
    self.file = file
    interception = plan.interception
    hasCode = code != nil
    let configDirectory = RelativePath.directory(of: file)
    func located(_ location: RegistryLocation) -> CodeLocation {
      CodeLocation(file: RelativePath.from(directory: configDirectory, to: location.file), line: location.line, column: location.column)
    }
    destinations = plan.config.destinations.map { declared in
      var seen = Set<String>()
      return declared.filter { seen.insert($0.id.value).inserted }.map {
        Destination(id: $0.id.value, description: $0.description?.value, range: $0.id.range, wireName: $0.wireName?.value)
      }
    }
    defaultDestinations = plan.defaultDestinations
    let swiftUICases = code.map(SwiftUIScreenCases.init)
    screens = plan.screens.map { screen in
      let written = plan.written(screen.id)
      let type = code?.type(of: screen.id)
      let identity: String
      switch written.typeName {
      case .success(let name): identity = name.description
      case .failure: identity = written.name.value
      }
      let events = plan.events(of: screen.id).map { event -> Event in
        let rule = plan.written(event)
        let trigger: Trigger
        let triggerRange: SourceRange
        var declaration: CodeLocation?
        var isEnter = false
        if let control = plan.control(event) {
          let identity: String
          switch control.handler {
          case .success(let name): identity = name.canonical
          case .failure: identity = control.key.value
          }
          trigger = .control(handler: control.key.value, identity: identity)
          triggerRange = control.key.range
          if let code, let method = code.method(of: event.id) { declaration = located(code.index[method].location) }
        } else {
          let page = plan.page(event)!
          trigger = .page(page.phase.value)
          isEnter = page.phase.value == .enter
          triggerRange = page.phase.range
          if let code, let type, let method = code.lifecycleMethod(for: page.phase.value, of: type) {
            declaration = located(code.index[method].location)
          } else if let code, let site = swiftUICases?.reportingSite(of: screen.id, in: code) {
            // A SwiftUI screen: where its `.tracked(_:)` (or hosting controller) reports it.
            declaration = located(site)
          }
        }
        let properties = rule.properties.map { property in
          Property(
            key: property.key.value, keyRange: property.key.range,
            value: Self.value(of: property, in: plan), valueRange: property.valueRange)
        }
        return Event(
          id: rule.id.value, idRange: rule.id.range, wireName: rule.wireName?.value, call: .of(rule, isEnter: isEnter), trigger: trigger,
          triggerRange: triggerRange, routing: event.routing, properties: properties, declaration: declaration)
      }
      return Screen(
        name: written.name.value, identity: identity, range: written.name.range,
        declaration: type.map { located(code!.index[$0].location) }, events: Array(events))
    }
    var openEventOf: [Int: ResolvedPlan.Event] = [:]
    for event in plan.events {
      if case .entryPoint(let entry) = event.trigger { openEventOf[entry] = event }
    }
    let routes = Dictionary(plan.entryPoints.routes.map { ($0.entry, $0) }, uniquingKeysWith: { first, _ in first })
    entryPoints = plan.config.entryPoints.enumerated().map { index, entry in
      var sources = entry.links.map { EntryPoint.Source(kind: "link", text: $0.value) }
      if let notification = entry.notification {
        let match = notification.match.map { "\($0.key.value): \($0.value.value)" }.joined(separator: ", ")
        sources.append(EntryPoint.Source(kind: "notification", text: match.isEmpty ? "any payload" : match))
      }
      if let shortcut = entry.shortcut {
        var text = shortcut.type?.value ?? ""
        if let title = shortcut.title?.value { text += " (\"\(title)\")" }
        if !shortcut.conditions.isEmpty { text += " when " + shortcut.conditions.map(\.value).joined(separator: ", ") }
        sources.append(EntryPoint.Source(kind: "shortcut", text: text))
      }
      let parameters = (routes[index]?.parameters ?? []).map { parameter -> EntryPoint.RouteParameter in
        let sentType: PropertyType
        switch parameter.type {
        case .value(.int), .value(.int64): sentType = .int
        default: sentType = .string
        }
        return EntryPoint.RouteParameter(name: parameter.name, type: parameter.type.description, isOptional: parameter.isOptional, sentType: sentType)
      }
      let openEvent = openEventOf[index].map { event -> OpenEvent in
        let rule = plan.written(event)
        return OpenEvent(
          id: rule.id.value, idRange: rule.id.range, wireName: rule.wireName?.value, routing: event.routing,
          properties: rule.properties.map {
            Property(key: $0.key.value, keyRange: $0.key.range, value: Self.value(of: $0, in: plan), valueRange: $0.valueRange)
          })
      }
      return EntryPoint(
        name: entry.name.value, range: entry.name.range, screen: entry.screen?.value, sources: sources, routeParameters: parameters,
        openEvent: openEvent)
    }
    applicationEvents = TrackingConfig.ApplicationEvent.allCases.compactMap { kind in
      guard let event = plan.event(ofApplication: kind), let mapping = plan.config.application.first(where: { $0.kind.value == kind }) else {
        return nil
      }
      let rule = plan.written(event)
      let range = mapping.kind.range
      let sent = kind.sentProperties.map {
        Property(key: $0.key, keyRange: range, value: .bound(from: "runtime." + $0.key, type: $0.type), valueRange: range)
      }
      let written = rule.properties.map {
        Property(key: $0.key.value, keyRange: $0.key.range, value: Self.value(of: $0, in: plan), valueRange: $0.valueRange)
      }
      // The runtime's values win over the plan's (`application-event-property` reports the plan's).
      return Event(
        id: rule.id.value, idRange: rule.id.range, wireName: rule.wireName?.value, trigger: .application(kind), triggerRange: range,
        routing: event.routing,
        properties: sent + written.filter { property in !sent.contains { $0.key == property.key } }, declaration: nil)
    }
    privacy = PrivacyOutline(plan)
  }
}

extension PlanOutline {
  static func value(of property: TrackingConfig.Property, in plan: ResolvedPlan) -> Property.Value {
    if let value = property.value { return .literal(value) }
    if let binding = property.binding, let source = binding.source { return .bound(from: source.value, type: plan.expectedType(of: property)) }
    return .invalid(property.found)
  }
}

extension PropertyValue {
  /// The JSON type of the value, as JSON Schema names it.
  public var jsonType: String { type.jsonType }

  /// The value as text: a string as it is, a number in its shortest exact form, `true`/`false`.
  public var text: String {
    switch self {
    case .string(let string): return string
    case .int(let int): return String(int)
    case .double(let double): return "\(double)"
    case .bool(let bool): return bool ? "true" : "false"
    }
  }
}

extension ResolvedPlan.Routing {
  /// "firebase, mixpanel", "every destination", "none": routing in words for tables.
  public var summary: String {
    switch self {
    case .unrestricted: return "every destination"
    case .only(let names): return names.isEmpty ? "none" : names.joined(separator: ", ")
    }
  }
}
