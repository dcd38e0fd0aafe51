/// A required key is missing: `version` or `screens` at the top, `event` in a long-form event.
public enum MissingKeyRule: Rule {
  public static let id = "missing-key"
  public static let summary = "Required keys ('version', 'screens', and 'event' in the long form) must be present."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("1️⃣2️⃣conventions: {}\n"),
    .triggers("""
      version: 1
      screens:
        Home:
          control_events:
            1️⃣onShare(_:): {destinations: []}
      """),
    .passes("version: 1\nscreens:\n  Home: {control_events: {onShare(_:): {event: HOME_SHARE}}}\n"),
  ]
}
