import TrackcCore

/// What the collector checks events against: for each event ID, where it may go and the static
/// properties it carries.
///
/// This file is the collector's only contact with the compiler's plan model (`LintResult.plan`, the
/// `ResolvedPlan`): when that model changes, only `init(lintResult:)` changes.
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

  public init(events: [String: Event], destinations: Set<String>?) {
    self.events = events
    self.destinations = destinations
  }

  /// Why a config cannot be used as a plan.
  public struct InvalidConfig: Error, Sendable {
    /// The lint findings that stop it (errors); empty when the config could not be decoded at all.
    public var diagnostics: [Diagnostic]
  }

  /// The plan of a config that lints without errors; warnings are allowed. Routing is the compiler's
  /// (`ResolvedPlan`), so the collector and the generated code cannot disagree about it.
  public init(lintResult: LintResult) throws(InvalidConfig) {
    guard let plan = lintResult.plan, !lintResult.diagnostics.hasErrors else {
      throw InvalidConfig(diagnostics: lintResult.diagnostics.filter { $0.severity == .error })
    }
    var events: [String: Event] = [:]
    plan.forEachEvent { resolved, written in
      var types: [String: Set<PropertyType>] = [:]
      var bound: Set<String> = []
      for property in written.properties {
        if let value = property.value {
          types[property.key.value, default: []].insert(PropertyType(value))
        } else if property.binding != nil {
          // A bound value: of its declared type (else whatever the code has), and left out when nil.
          bound.insert(property.key.value)
          types[property.key.value, default: []].formUnion(plan.expectedType(of: property).map { [PropertyType($0)] } ?? Set(PropertyType.allCases))
        }
      }
      let routing: Routing
      switch plan[resolved].routing {
      case .unrestricted: routing = .unrestricted
      case .only(let destinations): routing = .only(Set(destinations))
      }
      let mapping = Event(routing: routing, properties: types, requiredProperties: Set(types.keys).subtracting(bound))
      guard var merged = events[written.id.value] else {
        events[written.id.value] = mapping
        return
      }
      switch (merged.routing, mapping.routing) {
      case (.only(let known), .only(let more)): merged.routing = .only(known.union(more))
      default: merged.routing = .unrestricted
      }
      merged.properties.merge(mapping.properties) { $0.union($1) }
      merged.requiredProperties.formIntersection(mapping.requiredProperties)
      events[written.id.value] = merged
    }
    self.init(events: events, destinations: plan.declaredDestinations.map(Set.init))
  }

  /// Reads and lints a config (against its `sources`, as `trackc lint` does) and makes its plan.
  public static func load(path: String, options: LintOptions = LintOptions()) throws -> CollectorPlan {
    let session = LintSession.run(paths: [path], options: options)
    if let unreadable = session.unreadable.first { throw unreadable }
    guard let result = session.results.first else { throw InvalidConfig(diagnostics: []) }
    return try CollectorPlan(lintResult: result)
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

  init(_ value: PropertyValue) {
    switch value {
    case .string: self = .string
    case .int, .double: self = .number
    case .bool: self = .boolean
    }
  }
}
