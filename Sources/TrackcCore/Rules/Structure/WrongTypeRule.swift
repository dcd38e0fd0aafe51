/// A value of the wrong kind: a list where a mapping belongs, a number where an event ID belongs.
public enum WrongTypeRule: Rule {
  public static let id = "wrong-type"
  public static let summary = "Every value must have the type the config format expects there."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("1️⃣- version: 1\n- screens: {}\n"),
    .triggers("""
      version: 1
      defaults: {destinations: 1️⃣firebase}
      screens:
        Home:
          page_events: 2️⃣[HOME_ENTER]
          control_events:
            onFav(_:): 3️⃣42
            onShare(_:): {event: 4️⃣[A, B]}
            5️⃣[a, b]: C
      """),
    .passes("""
      version: 1
      conventions: {event_id_pattern: '^[A-Z0-9_]+$'}
      destinations: {firebase: {}}
      defaults: {destinations: [firebase]}
      screens:
        Home:
          page_events: {enter: HOME_ENTER}
          control_events:
            onFav(_:): HOME_FAV
            onShare(_:): {event: "42"}
      """),
  ]
}
