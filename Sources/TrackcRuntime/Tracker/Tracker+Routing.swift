import Foundation

extension Tracker {
  // MARK: Routing

  /// The lanes the event goes to, and for collectors the plan destinations it is for: a plan destination
  /// when the rule routes there, remote configuration has it on and sampling keeps the event; a
  /// collector when some destination the rule routes to (on, and sampled in) has no lane of its own
  /// (every destination, when the plan does not restrict routing): the collector's lane for what waits
  /// when one of them waits for a pending consent category.
  func route(_ rule: EventRule) -> (UInt64, [String]?) {
    // Consent, when the plan gates destinations by it: the lanes and categories not granted now.
    let consent = gating ? consentBook.routingFilter : ConsentBook.RoutingFilter()
    var destinations: UInt64 = 0
    for (index, id) in planLanes where rule.routes(to: id) && isOn(id, for: rule) {
      destinations |= 1 << UInt64(index)
    }
    destinations &= ~consent.blockedLanes
    guard !collectorLanes.isEmpty else { return (destinations, nil) }
    var forwardedTo: [String]?
    if case .only = rule.routing {
      let routed = rule.destinationIDs
      var kept = routed
      if !planLaneIDs.isEmpty || !(configuration is AllDestinationsEnabled) || !consent.deniedCategories.isEmpty {
        kept = routed.filter { !planLaneIDs.contains($0) && !consentBook.blocks($0, by: consent) && isOn($0, for: rule) }
      }
      guard !kept.isEmpty else { return (destinations, nil) }
      forwardedTo = kept
    }
    // For a destination whose category waits for its first answer: the collector's lane for what waits.
    let waits = !waitingLanes.isEmpty && consentBook.waits(forwardedTo, by: consent)
    for (index, id) in collectorLanes where isOn(id, for: rule) {
      destinations |= 1 << UInt64(waits ? waitingLanes[index] ?? index : index)
    }
    return (destinations, forwardedTo)
  }

  /// Remote configuration has the destination on, and sampling keeps this event for it.
  private func isOn(_ id: String, for rule: EventRule) -> Bool {
    guard configuration.isEnabled(id) else { return false }
    let rate = configuration.samplingRate(eventID: rule.eventID, destinationID: id)
    return rate >= 1 || (rate > 0 && Double.random(in: 0..<1) < rate)
  }
}
