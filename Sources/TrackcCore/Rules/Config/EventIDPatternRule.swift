/// An event ID that does not match the naming convention (`conventions.event_id_pattern`).
public enum EventIDPatternRule: ScreenRule, ConfigRule {
  public static let id = "event-id-pattern"
  public static let summary = "Event IDs must match conventions.event_id_pattern (default '^[A-Z][A-Z0-9_]*$'); the pattern must be a valid regular expression."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      screens:
        Home:
          page_events: {enter: 1️⃣home_enter, leave: HOME_LEAVE}
      """),
    .triggers("""
      version: 1
      conventions: {event_id_pattern: '^[a-z]+(\\.[a-z]+)*$'}
      screens:
        Home:
          page_events: {enter: home.enter, leave: 1️⃣HOME_LEAVE}
      """),
    .triggers("""
      version: 1
      conventions: {event_id_pattern: 1️⃣'^[A-Z'}
      screens: {}
      """),
    .passes("""
      version: 1
      screens:
        Home:
          page_events: {enter: HOME_ENTER, leave: PAGE_HOME_LEAVE_2}
      """),
  ]

  /// Reports a pattern that does not compile (once, at the pattern).
  public static func check(_ config: TrackingConfig, in context: inout RuleContext) {
    guard case .failure(let error) = EventIDPattern.compile(config.conventions.eventIDPattern) else { return }
    let pattern = config.conventions.eventIDPattern
    context.report(
      Self.self, "event_id_pattern '\(pattern?.value ?? "")' is not a valid regular expression: \(error.message)",
      at: pattern?.range ?? SourceRange(at: .start))
  }

  public static func check(_ screen: TrackingConfig.Screen, in environment: RuleEnvironment, context: inout RuleContext) {
    guard let pattern = environment.eventIDPattern else { return }
    screen.forEachEvent { trigger, event in
      guard !pattern.matches(event.id.value) else { return }
      context.report(
        Self.self,
        "event ID '\(event.id.value)' of \(screen.describe(trigger)) does not match the pattern '\(pattern.source)'",
        at: event.id.range,
        notes: pattern.range.map { [Diagnostic.Note("the pattern is set here", at: context.location($0))] } ?? [])
    }
  }
}
