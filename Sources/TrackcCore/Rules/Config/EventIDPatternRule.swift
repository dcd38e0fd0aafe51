/// An event ID that does not match the naming convention (`conventions.event_id_pattern`).
public enum EventIDPatternRule: PlanRule {
  public static let id = "event-id-pattern"
  public static let summary =
    "Event IDs must match conventions.event_id_pattern (default '^[A-Z][A-Z0-9_]*$'); the pattern must be a valid regular expression of the linear-time subset."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        Home:
          page_events: {enter: 1️⃣home_enter, leave: HOME_LEAVE}
      """, expecting: [.error("event ID 'home_enter' of the enter page event of 'Home' does not match the pattern '^[A-Z][A-Z0-9_]*$'")]),
    .triggers(
      """
      version: 1
      conventions: {event_id_pattern: '^[a-z]+(\\.[a-z]+)*$'}
      screens:
        Home:
          page_events: {enter: home.enter, leave: 1️⃣HOME_LEAVE}
      """, expecting: [.error("event ID 'HOME_LEAVE' of the leave page event of 'Home' does not match the pattern '^[a-z]+(\\.[a-z]+)*$'")]),
    .triggers(
      """
      version: 1
      conventions: {event_id_pattern: 1️⃣'^[A-Z'}
      screens: {}
      """,
      expecting: [.error("event_id_pattern '^[A-Z' is not a valid regular expression: the class opened at character 2 is not closed: expected ']'")]),
    .triggers(
      """
      version: 1
      conventions: {event_id_pattern: 1️⃣'^(?!TMP_)[A-Z_]+$'}
      screens: {}
      """,
      expecting: [
        .error(
          "event_id_pattern '^(?!TMP_)[A-Z_]+$' uses a negative lookahead '(?!' at character 2, which event ID patterns do not support (they are matched in linear time)"
        )
      ]),
    .passes(
      """
      version: 1
      screens:
        Home:
          page_events: {enter: HOME_ENTER, leave: PAGE_HOME_LEAVE_2}
      """),
  ]

  /// A pattern that does not compile (invalid, outside the supported subset, or too large) is reported
  /// once, at the pattern; otherwise every event ID is matched, in time linear in its length.
  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    let pattern: EventIDPattern
    switch plan.eventIDPattern {
    case .failure(let error):
      let written = plan.config.conventions.eventIDPattern
      context.report(
        Self.self, "event_id_pattern '\(Diagnostic.excerpt(written?.value ?? ""))' \(error.message)",
        at: written?.range ?? SourceRange(at: .start))
      return
    case .success(let compiled):
      pattern = compiled
    }
    var budget = EventIDPattern.lintBudget
    var unchecked = 0
    plan.forEachEvent { event, written in
      let id = written.id
      guard unchecked == 0, let matches = pattern.matches(id.value, budget: &budget) else {
        unchecked += 1
        return
      }
      guard !matches else { return }
      context.report(
        Self.self,
        "event ID '\(id.value)' of \(plan.describe(plan[event])) does not match the pattern '\(pattern.source)'",
        at: id.range,
        notes: pattern.range.map { [Diagnostic.Note("the pattern is set here", at: context.location($0))] } ?? [])
    }
    if unchecked > 0 {
      context.report(
        Self.self,
        "event_id_pattern '\(Diagnostic.excerpt(pattern.source))' is too costly to match against these event IDs: "
          + "\(NumberText.grouped(unchecked)) of them were not checked (simplify the pattern or shorten the IDs)",
        at: pattern.range ?? SourceRange(at: .start))
    }
  }
}
