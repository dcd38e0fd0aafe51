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
  static func duplicates(in plan: ResolvedPlan) -> [(ResolvedPlan.Event.ID, ResolvedPlan.Event.ID)] {
    var found: [(ResolvedPlan.Event.ID, ResolvedPlan.Event.ID)] = []
    // Sized for every ID up front: growing a table of a hundred thousand strings rehashes each one at
    // every step, which was most of this rule's time on the 6 MB benchmark config (`perf record`).
    var first: [String: ResolvedPlan.Event.ID] = [:]
    first.reserveCapacity(plan.events.count)
    plan.forEachEvent { event, written in
      // One look-up for the common case, a new ID; a duplicate (rare) puts the first event back.
      guard let earlier = first.updateValue(event, forKey: written.id.value) else { return }
      first[written.id.value] = earlier
      found.append((event, earlier))
    }
    return found
  }
}
