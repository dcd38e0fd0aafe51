/// What each event of the plan carries on the wire (docs/wire-format.md): the call it goes as, where it
/// may go, and each property with its type and whether every copy of the event has it.
///
/// Worked out once, here, from the outline, and read by the JSON Schema export
/// (`PlanExport.jsonSchemas`, which describes it) and by the collector (`CollectorPlan`, which checks
/// events against it), so that the two cannot disagree.
public struct WireContract: Sendable {
  /// The Segment call an event goes as.
  public enum Call: Sendable, Hashable {
    /// `track`, named by the event's wire name (`wire_name`, else its ID).
    case track(name: String)
    /// `screen`, named after the screen (a page's enter event; its `wire_name` where it has one); the
    /// event ID goes in `context.trackc.event`.
    case screen(name: String)
  }

  public struct Property: Sendable, Hashable {
    public var key: String
    /// The plan's type; nil for a bound value whose type only the code tells (any scalar).
    public var type: PropertyType?
    /// A static value: every copy of the event carries it as written. Nil for a bound value, which is
    /// left out when it is nil at run time.
    public var constant: PropertyValue?

    /// Whether every copy of the event carries it.
    public var isRequired: Bool { constant != nil }
  }

  /// One mapping of the plan: an event ID as one trigger sends it.
  public struct Event: Sendable {
    public var id: String
    public var call: Call
    public var routing: ResolvedPlan.Routing
    /// By key as written, each key once (the first wins, as lint reports the rest); values that are not
    /// values (reported by lint, sent by nothing) are left out.
    public var properties: [Property]
    /// What sends it, in words: "the enter page event of Home, sent to firebase".
    public var summary: String
  }

  /// The declared destinations; nil when the config declares none (routing is not restricted).
  public var destinations: [String]?
  /// The name each declared destination goes by on the wire (`integrations`), by ID, for those whose
  /// `wire_name` is not their ID.
  public var wireNames: [String: String] = [:]
  /// The plan's consent categories by the names the workspace knows them by (`wire_name`, else the
  /// name), which every call stamps in `context.consent.categoryPreferences`; nil when it declares none.
  public var consentCategories: [String]?
  /// Every mapping: the screens' events in file order, then the entry points' open events, then the
  /// application events.
  public var events: [Event]

  public init(_ outline: PlanOutline) {
    destinations = outline.destinations?.map(\.id)
    for destination in outline.destinations ?? [] {
      if let wireName = destination.wireName, wireName != destination.id { wireNames[destination.id] = wireName }
    }
    if let categories = outline.privacy?.consentCategories, !categories.isEmpty {
      consentCategories = categories.map { $0.wireName ?? $0.name }
    }
    events = outline.allEvents.map { screen, event in
      var seen = Set<String>()
      var properties: [Property] = []
      for property in event.properties where seen.insert(property.key).inserted {
        switch property.value {
        case .literal(let value): properties.append(Property(key: property.key, type: value.type, constant: value))
        case .bound(_, let type): properties.append(Property(key: property.key, type: type, constant: nil))
        case .invalid: continue
        }
      }
      let call: Call
      let trigger: String
      switch event.call {
      case .screen: call = .screen(name: event.wireName ?? screen.name)
      case .track: call = .track(name: event.wireName ?? event.id)
      }
      switch event.trigger {
      case .page(let phase): trigger = "the \(phase.rawValue) page event of \(screen.name)"
      case .control(let handler, _): trigger = "\(handler) on \(screen.name)"
      case .open(let entryPoint): trigger = "opening \(screen.name) through entry point \(entryPoint)"
      case .application(let kind): trigger = "the application event \(kind.rawValue), tracked by the runtime"
      }
      let wire = event.wireDescription(screen: screen.name).map { " as \($0)" } ?? ""
      return Event(
        id: event.id, call: call, routing: event.routing, properties: properties,
        summary: "\(trigger), sent\(wire) to \(event.routing.summary)")
    }
  }
}
