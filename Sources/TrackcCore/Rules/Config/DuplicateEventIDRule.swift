/// One event ID mapped from two places, so analytics cannot tell them apart.
public enum DuplicateEventIDRule: PlanRule {
  public static let id = "duplicate-event-id"
  public static let summary = "An event ID should be mapped from one place only; a second mapping is a warning naming both."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        Home:
          page_events: {enter: HOME_ENTER}
          control_events:
            onFav(_:): FAV
        Detail:
          control_events:
            onFav(_:): 1️⃣FAV
            onStar(_:): {event: 2️⃣FAV}
      """,
      expecting: [
        .warning("event ID 'FAV' of handler 'onFav(_:)' of 'Detail' is also mapped from handler 'onFav(_:)' of 'Home'"),
        .warning("event ID 'FAV' of handler 'onStar(_:)' of 'Detail' is also mapped from handler 'onFav(_:)' of 'Home'"),
      ]),
    .passes(
      """
      version: 1
      screens:
        Home: {control_events: {onFav(_:): HOME_FAV}}
        Detail: {control_events: {onFav(_:): DETAIL_FAV}}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    for (eventID, originalID) in duplicates(in: plan) {
      let event = plan[eventID]
      let original = plan[originalID]
      let id = plan.written(event).id
      context.report(
        Self.self, "event ID '\(id.value)' of \(plan.describe(event)) is also mapped from \(plan.describe(original))", at: id.range,
        notes: [Diagnostic.Note("'\(id.value)' is first mapped here", at: context.location(plan.written(original).id.range))])
    }
  }

  /// Each event whose ID an earlier event has, with that earlier event, in config order.
  ///
  /// Keyed by the ID's hash, not the ID: a table of a hundred thousand strings retained each one on
  /// insertion and released each at the end, on memory other threads had written, which cost a seventh
  /// of a large config's lint (perf, `Benchmarks/lint`'s 105,000 events). The hashes are the decoder's
  /// (`TrackingConfig.EventRule.idHash`), worked out while each string was in cache: reading the strings
  /// here cost a cache miss each, most of this rule's time. Equal hashes are then compared as strings, so
  /// a collision between two different IDs (1 in 2^64 per pair) only sends the second to a table of
  /// strings. `hashes` is for tests: one per event, used instead.
  static func duplicates(in plan: ResolvedPlan, hashes: [Int]? = nil) -> [(ResolvedPlan.Event.ID, ResolvedPlan.Event.ID)] {
    let hashes = hashes ?? plan.eventIDHashes
    var found: [(ResolvedPlan.Event.ID, ResolvedPlan.Event.ID)] = []
    var firstByHash: [Int: ResolvedPlan.Event.ID] = [:]
    firstByHash.reserveCapacity(hashes.count)
    var collided: [String: ResolvedPlan.Event.ID] = [:]
    for index in hashes.indices {
      let event = ResolvedPlan.Event.ID(rawValue: Int32(index))
      // One hash for the common case, a new ID; a duplicate (rare) puts the first mapping back.
      guard let sameHash = firstByHash.updateValue(event, forKey: hashes[index]) else { continue }
      firstByHash[hashes[index]] = sameHash
      let id = plan.written(plan[event]).id.value
      if plan.written(plan[sameHash]).id.value == id {
        found.append((event, sameHash))
      } else if let earlier = collided[id] {
        found.append((event, earlier))
      } else {
        collided[id] = event
      }
    }
    return found
  }
}
