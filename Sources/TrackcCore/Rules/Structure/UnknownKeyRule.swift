/// A key the config format does not define, most often a typo; never silently ignored.
public enum UnknownKeyRule: StructureRule {
  public static let id = "unknown-key"
  public static let summary = "Every key must be one the config format defines (with a did-you-mean for typos)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      1️⃣screen:
        Home: {}
      screens: {}
      """, expecting: [.error("unknown key 'screen' in the config; did you mean 'screens'?")]),
    .triggers(
      """
      version: 1
      screens:
        Home:
          1️⃣pageEvents: {enter: HOME_ENTER}
          page_events:
            enter: HOME_ENTER
            2️⃣appear: HOME_APPEAR
      """,
      expecting: [
        .error("unknown key 'pageEvents' in screen 'Home'; did you mean 'page_events'?"),
        .error("unknown page event 'appear' in 'page_events' of 'Home'"),
      ]),
    .passes(
      """
      version: 1
      conventions: {event_id_pattern: '^[A-Z_]+$'}
      destinations: {firebase: {wire_name: Firebase, description: Google}}
      defaults: {destinations: [firebase]}
      screens:
        Home:
          page_events: {enter: HOME_ENTER, leave: HOME_LEAVE}
          control_events:
            onFav(_:): {event: HOME_FAV, destinations: [firebase], properties: {a: 1}}
      """),
  ]

  // Found by the config decoder (`ConfigProblem.unknownKey`), which knows the keys each place allows.
  static func report(key: Located<String>, in place: String, allowed: [String], kind: String, in context: inout RuleContext) {
    let allowedList = allowed.map { "'\($0)'" }.joined(separator: ", ")
    let notes = [Diagnostic.Note("allowed here: \(allowedList)")]
    guard let suggestion = Suggestions.closest(to: key.value, in: allowed) else {
      context.report(Self.self, "unknown \(kind) '\(key.value)' in \(place)", at: key.range, notes: notes)
      return
    }
    context.report(
      Self.self, "unknown \(kind) '\(key.value)' in \(place); did you mean '\(suggestion)'?", at: key.range, notes: notes,
      fixIt: context.fixIt(replacing: key.range, with: suggestion))
  }
}
