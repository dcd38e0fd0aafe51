import TrackcCore

/// What the collector checks events against: for each event ID, where it may go and the static
/// properties it carries.
///
/// This file is the collector's only contact with the compiler's plan model: it reads the plan's
/// `WireContract`, and when that changes, only `init(contract:)` changes.
public struct CollectorPlan: Sendable, Hashable {
  /// Where an event ID may be delivered.
  public enum Routing: Sendable, Hashable {
    /// The config declares no destinations: any destination may receive it.
    case unrestricted
    /// Only these destination IDs.
    case only(Set<String>)

    public func allows(_ destination: String) -> Bool {
      switch self {
      case .unrestricted: return true
      case .only(let destinations): return destinations.contains(destination)
      }
    }
  }

  /// The JSON type a property value has on the wire.
  public enum PropertyType: String, Sendable, Hashable, CaseIterable, Comparable {
    case string, number, boolean

    public static func < (lhs: PropertyType, rhs: PropertyType) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  public struct Event: Sendable, Hashable {
    public var routing: Routing
    /// The static properties of the event and the types they may have. An ID mapped several times
    /// accepts the types of every mapping.
    public var properties: [String: Set<PropertyType>]
    /// The static properties every mapping of the ID declares, which every copy of the event carries
    /// (the runtime always adds them; a manual `track` may override their values, not remove them).
    public var requiredProperties: Set<String>

    public init(routing: Routing, properties: [String: Set<PropertyType>] = [:], requiredProperties: Set<String>? = nil) {
      self.routing = routing
      self.properties = properties
      self.requiredProperties = requiredProperties ?? Set(properties.keys)
    }
  }

  /// By event ID.
  public var events: [String: Event]
  /// The declared destination IDs; nil when the config declares none (routing is not restricted).
  public var destinations: Set<String>?
  /// The consent categories every call from trackc stamps (`context.consent.categoryPreferences`), by the
  /// names the workspace knows them by; nil when the plan declares none.
  public var consentCategories: Set<String>?
  /// The plan's `plan_version` and content hash (`PlanHash`) when read from its file (`load`): an event
  /// that carries another hash was built from another plan (`other-plan`).
  public var planVersion: String?
  public var planHash: String?
  /// The track call a change of consent sends (Segment's name, which its consent plugins send too): not
  /// an event of the plan, checked by its consent stamp.
  public static let consentUpdatedEvent = "Segment Consent Preference Updated"

  /// The enter event of each screen, by the screen's name as the plan writes it: what a `screen` call
  /// that carries no event ID (a client other than trackc) is checked as.
  public var screens: [String: String]
  /// The event each track call name means, for the events that go by a `wire_name`: what a track call
  /// that carries no event ID in `context.trackc.event` (a client other than trackc) is checked as.
  public var tracks: [String: String] = [:]
  /// Each event's name on the wire where it is not its ID (its `wire_name`), by event ID: what a track
  /// call carrying that ID must be named.
  public var trackNames: [String: String] = [:]
  /// The name each declared destination goes by on the wire (`wire_name`), by ID, for those whose name
  /// is not their ID: `integrations` may name a destination either way.
  public var wireNames: [String: String] {
    didSet { destinationsByWireName = Dictionary(wireNames.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first }) }
  }
  private var destinationsByWireName: [String: String] = [:]

  public init(
    events: [String: Event], destinations: Set<String>?, screens: [String: String] = [:], wireNames: [String: String] = [:],
    consentCategories: Set<String>? = nil
  ) {
    self.consentCategories = consentCategories
    self.events = events
    self.destinations = destinations
    self.screens = screens
    self.wireNames = wireNames
    destinationsByWireName = Dictionary(wireNames.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
  }

  /// The declared destination `integrations` means by `name`: its ID, or its wire name. Nil when the
  /// plan declares none by that name.
  public func destination(named name: String) -> String? {
    guard let destinations else { return nil }
    if destinations.contains(name) { return name }
    return destinationsByWireName[name]
  }

  /// Why a config cannot be used as a plan.
  public struct InvalidConfig: Error, Sendable {
    /// The lint findings that stop it (errors); empty when the config could not be decoded at all.
    public var diagnostics: [Diagnostic]
  }

  /// The plan of a config that lints without errors; warnings are allowed. What each event carries is
  /// the compiler's `WireContract`, which the JSON Schema export reads too, so that the collector, the
  /// schemas and the generated code cannot disagree.
  public init(lintResult: LintResult) throws(InvalidConfig) {
    guard let outline = PlanOutline(lintResult), !lintResult.diagnostics.hasErrors else {
      throw InvalidConfig(diagnostics: lintResult.diagnostics.filter { $0.severity == .error })
    }
    self.init(contract: WireContract(outline))
  }

  /// Each event ID with the routing and property types of every mapping of it (an ID mapped several
  /// times accepts what any of them sends, and requires what all of them send).
  public init(contract: WireContract) {
    var events: [String: Event] = [:]
    var screens: [String: String] = [:]
    var tracks: [String: String] = [:]
    var trackNames: [String: String] = [:]
    for event in contract.events {
      var types: [String: Set<PropertyType>] = [:]
      for property in event.properties {
        types[property.key, default: []].formUnion(property.type.map { [PropertyType($0)] } ?? Set(PropertyType.allCases))
      }
      let routing: Routing
      switch event.routing {
      case .unrestricted: routing = .unrestricted
      case .only(let destinations): routing = .only(Set(destinations))
      }
      switch event.call {
      case .screen(let name): if screens[name] == nil { screens[name] = event.id }
      case .track(let name) where name != event.id:
        if tracks[name] == nil { tracks[name] = event.id }
        if trackNames[event.id] == nil { trackNames[event.id] = name }
      case .track: break
      }
      let mapping = Event(routing: routing, properties: types, requiredProperties: Set(event.properties.filter(\.isRequired).map(\.key)))
      guard var merged = events[event.id] else {
        events[event.id] = mapping
        continue
      }
      switch (merged.routing, mapping.routing) {
      case (.only(let known), .only(let more)): merged.routing = .only(known.union(more))
      default: merged.routing = .unrestricted
      }
      merged.properties.merge(mapping.properties) { $0.union($1) }
      merged.requiredProperties.formIntersection(mapping.requiredProperties)
      events[event.id] = merged
    }
    self.init(
      events: events, destinations: contract.destinations.map(Set.init), screens: screens, wireNames: contract.wireNames,
      consentCategories: contract.consentCategories.map(Set.init))
    self.tracks = tracks
    self.trackNames = trackNames
  }

  /// Reads and lints a config (against its `sources`, as `trackc lint` does) and makes its plan.
  public static func load(path: String, options: LintOptions = LintOptions()) throws -> CollectorPlan {
    let session = LintSession.run(paths: [path], options: options)
    if let unreadable = session.unreadable.first { throw unreadable }
    guard let result = session.results.first else { throw InvalidConfig(diagnostics: []) }
    var plan = try CollectorPlan(lintResult: result)
    plan.planVersion = result.config?.planVersion?.value
    plan.planHash = PlanHash.ofFile(atPath: path)
    return plan
  }

  /// A track call that carries no event ID (`context.trackc.event`) is the event whose wire name it
  /// has, or the event of its ID; a screen call that carries none is the enter event of the plan's
  /// screen of its name; a call
  /// that names its destinations is forwarded to those the plan declares, by their wire names; one that
  /// withholds some, to every declared destination but those.
  public func resolve(_ event: inout ReceivedEvent) {
    if let named = event.destinations, destinations != nil {
      var forwarded: [String] = []
      for name in named {
        guard let id = destination(named: name) else { continue }
        let wire = wireNames[id] ?? id
        if !forwarded.contains(wire) { forwarded.append(wire) }
      }
      event.forwardedTo = forwarded
    } else if event.destinations == nil, !event.withheldFrom.isEmpty, let declared = destinations {
      let withheld = Set(event.withheldFrom.compactMap { destination(named: $0) })
      event.forwardedTo = declared.subtracting(withheld).map { wireNames[$0] ?? $0 }.sorted()
    }
    if event.type == .track, event.event == event.name, events[event.event] == nil, let name = event.name, let id = tracks[name] {
      event.event = id
    }
    guard event.type == .screen, event.event.isEmpty, let name = event.name, let id = screens[name] else { return }
    event.event = id
  }
}

extension CollectorPlan.PropertyType {
  init(_ type: TrackcCore.PropertyType) {
    switch type {
    case .string: self = .string
    case .int, .double: self = .number
    case .bool: self = .boolean
    }
  }
}
