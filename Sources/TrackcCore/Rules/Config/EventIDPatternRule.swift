/// An event ID that does not match the naming convention (`conventions.event_id_pattern`).
public enum EventIDPatternRule: ConfigRule {
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

  public static func check(_ config: TrackingConfig, in context: inout RuleContext) {
    let written = config.conventions.eventIDPattern
    let pattern = written?.value ?? TrackingConfig.defaultEventIDPattern
    let regex: Regex<AnyRegexOutput>
    do {
      regex = try Regex(pattern).matchingSemantics(.unicodeScalar)
    } catch {
      context.report(Self.self, "event_id_pattern '\(pattern)' is not a valid regular expression: \(error)", at: written?.range ?? SourceRange(at: .start))
      return
    }
    let notes = written.map { [Diagnostic.Note("the pattern is set here", at: context.location($0.range))] } ?? []
    config.forEachEvent { screen, trigger, event in
      guard (try? regex.firstMatch(in: event.id.value)) == nil else { return }
      context.report(
        Self.self,
        "event ID '\(event.id.value)' of \(trigger.describe(on: screen)) does not match the pattern '\(pattern)'",
        at: event.id.range, notes: notes)
    }
  }
}
