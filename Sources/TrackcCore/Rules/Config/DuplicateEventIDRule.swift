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
    var first: [String: ResolvedPlan.Event] = [:]
    first.reserveCapacity(plan.events.count)
    plan.forEachEvent { event, written in
      let id = written.id
      // One hash for the common case, a new ID; a duplicate (rare) puts the first mapping back.
      guard let original = first.updateValue(event, forKey: id.value) else { return }
      first[id.value] = original
      context.report(
        Self.self, "event ID '\(id.value)' of \(plan.describe(event)) is also mapped from \(plan.describe(original))", at: id.range,
        notes: [Diagnostic.Note("'\(id.value)' is first mapped here", at: context.location(plan.written(original).id.range))])
    }
  }
}
