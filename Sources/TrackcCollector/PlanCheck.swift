extension CollectorPlan {
  /// What the plan says is wrong with a received event, in a stable order: the event, its routing, then
  /// its properties by name.
  public func violations(of event: ReceivedEvent) -> [Violation] {
    var found: [Violation] = []
    func report(_ rule: Violation.Rule, _ message: String) {
      found.append(Violation(rule: rule, message: message, event: event.event, messageID: event.messageID))
    }
    var id: String { event.type == .screen ? "the screen call of \(Self.quoted(event.event))" : Self.quoted(event.event) }  // messages only
    // Property values first, by name (sorted only when there is something to report).
    var invalid: [(name: String, kind: String)] = []
    for (name, value) in event.properties {
      if case .other(let kind) = value { invalid.append((name, kind)) }
    }
    for (name, kind) in invalid.sorted(by: { $0.name < $1.name }) {
      report(.propertyValue, "property '\(Self.quoted(name))' of \(id) is \(kind), not a string, number or boolean")
    }
    found += planViolations(of: event)
    if event.type == .track && event.event == Self.consentUpdatedEvent { return found + consentViolations(of: event) }
    found += consentViolations(of: event)
    guard let planned = events[event.event] else {
      if event.type == .screen && event.event.isEmpty {
        report(.unknownScreen, "the screen call '\(Self.quoted(event.name ?? ""))' names no screen of the tracking plan")
      } else {
        report(.unknownEvent, "\(id) is not an event of the tracking plan")
      }
      return found
    }
    if event.type == .track, let name = event.name, name != (trackNames[event.event] ?? event.event) {
      report(
        .wireName, "\(id) goes on the wire as '\(Self.quoted(name))', but the plan names it '\(Self.quoted(trackNames[event.event] ?? event.event))'")
    }
    if let destinations, let named = event.destinations {
      for name in named {
        // By the destination's ID or its wire name (`wire_name`), which the runtime sends.
        guard let destination = self.destination(named: name) else {
          found.append(
            Violation(
              rule: .unknownDestination,
              message: "\(id) is for '\(Self.quoted(name))', which the plan does not declare (it declares \(Self.list(destinations)))",
              event: event.event, messageID: event.messageID, destination: name))
          continue
        }
        if !planned.routing.allows(destination) {
          found.append(
            Violation(
              rule: .notRouted, message: "\(id) is not routed to '\(destination)' (the plan sends it to \(Self.list(planned.routing)))",
              event: event.event, messageID: event.messageID, destination: destination))
        }
      }
    } else if destinations != nil, event.destinations == nil, event.isFromTrackc, case .only = planned.routing {
      // trackc names the destinations of every event whose routing is restricted; another client's
      // events, which know nothing of the plan's destinations, are checked by ID and properties only.
      report(.missingDestination, "\(id) names no destination ('integrations'), so its routing cannot be checked")
    }
    var mismatched: [(name: String, rule: Violation.Rule, message: String)] = []
    for (name, allowed) in planned.properties {
      guard let value = event.properties[name] else {
        if planned.requiredProperties.contains(name) {
          mismatched.append((name, .missingProperty, "\(id) lacks its static property '\(Self.quoted(name))' (\(Self.list(allowed)))"))
        }
        continue
      }
      guard let type = value.propertyType else { continue }  // already reported as property-value
      if !allowed.contains(type) {
        mismatched.append(
          (name, .propertyType, "property '\(Self.quoted(name))' of \(id) is a \(type.rawValue), but the plan declares a \(Self.list(allowed))"))
      }
    }
    for (_, rule, message) in mismatched.sorted(by: { $0.name < $1.name }) { report(rule, message) }
    return found
  }

  /// With consent categories in the plan: a call from trackc that stamps its plan (or a consent preference
  /// update, from any client) must carry Segment's consent stamp with an answer for each, or Segment forwards it without
  /// enforcing consent.
  public func consentViolations(of event: ReceivedEvent) -> [Violation] {
    guard let categories = consentCategories, !categories.isEmpty else { return [] }
    // trackc stamps consent from the release that stamps its plan (`context.trackingPlan`): calls of
    // earlier releases are not asked for it.
    guard (event.isFromTrackc && event.planHash != nil) || (event.type == .track && event.event == Self.consentUpdatedEvent) else { return [] }
    let what = event.type == .track || event.type == .screen ? Self.quoted(event.event) : "the \(event.type.rawValue) call"
    guard let preferences = event.categoryPreferences else {
      return [
        Violation(
          rule: .missingConsent,
          message: "\(what) carries no consent stamp ('context.consent.categoryPreferences'), so Segment forwards it without enforcing consent",
          event: event.event, messageID: event.messageID)
      ]
    }
    let missing = categories.subtracting(preferences.keys)
    guard !missing.isEmpty else { return [] }
    return [
      Violation(
        rule: .missingConsent, message: "\(what) stamps no answer for the consent categories \(Self.list(missing))", event: event.event,
        messageID: event.messageID)
    ]
  }

  /// A call stamped with another plan's content hash than this plan's (read from its file): built from
  /// another version of the plan, so what the collector checks it against is not what built it.
  public func planViolations(of event: ReceivedEvent) -> [Violation] {
    guard let planHash, let eventHash = event.planHash, eventHash != planHash else { return [] }
    let what = event.type == .track || event.type == .screen ? Self.quoted(event.event) : "the \(event.type.rawValue) call"
    func describe(_ version: String?, _ hash: String) -> String { (version.map { "version '\(Self.quoted($0))', " } ?? "") + hash }
    return [
      Violation(
        rule: .otherPlan,
        message:
          "\(what) was built from another plan (\(describe(event.planVersion, Self.quoted(eventHash)))) than the one checked (\(describe(planVersion, planHash)))",
        event: event.event, messageID: event.messageID)
    ]
  }

  private static func quoted(_ text: String) -> String { BatchDecoder.quoted(text) }

  private static func list(_ names: Set<String>) -> String {
    names.isEmpty ? "none" : names.sorted().map { "'\($0)'" }.joined(separator: ", ")
  }

  private static func list(_ routing: Routing) -> String {
    switch routing {
    case .unrestricted: return "every destination"
    case .only(let destinations): return destinations.isEmpty ? "no destination" : list(destinations)
    }
  }

  private static func list(_ types: Set<PropertyType>) -> String {
    types.sorted().map(\.rawValue).joined(separator: " or ")
  }
}
