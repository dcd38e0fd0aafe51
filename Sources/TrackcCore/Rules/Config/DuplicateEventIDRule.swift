/// One event ID mapped from two places, so analytics cannot tell them apart.
public enum DuplicateEventIDRule: PlanRule {
  public static let id = "duplicate-event-id"
  public static let summary = "An event ID should be mapped from one place only; a second mapping is a warning naming both."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers("""
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
      """),
    .passes("""
      version: 1
      screens:
        Home: {control_events: {onFav(_:): HOME_FAV}}
        Detail: {control_events: {onFav(_:): DETAIL_FAV}}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    // Event IDs, not events, as values: an event holds its routing, and copying it in and out of the
    // table retained and released that array for each of a hundred thousand events (a sixth of a large
    // config's lint went to this rule, mostly in retains).
    var first: [String: ResolvedPlan.Event.ID] = [:]
    first.reserveCapacity(plan.events.count)
    plan.forEachEvent { event, written in
      let id = written.id
      // One hash for the common case, a new ID; a duplicate (rare) puts the first mapping back.
      guard let originalID = first.updateValue(event.id, forKey: id.value) else { return }
      first[id.value] = originalID
      let original = plan[originalID]
      context.report(
        Self.self, "event ID '\(id.value)' of \(plan.describe(event)) is also mapped from \(plan.describe(original))", at: id.range,
        notes: [Diagnostic.Note("'\(id.value)' is first mapped here", at: context.location(plan.written(original).id.range))])
    }
  }
}
