/// A key the config format does not define, most often a typo; never silently ignored.
public enum UnknownKeyRule: Rule {
  public static let id = "unknown-key"
  public static let summary = "Every key must be one the config format defines (with a did-you-mean for typos)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      1️⃣screen:
        Home: {}
      screens: {}
      """),
    .triggers("""
      version: 1
      screens:
        Home:
          1️⃣pageEvents: {enter: HOME_ENTER}
          page_events:
            enter: HOME_ENTER
            2️⃣appear: HOME_APPEAR
      """),
    .passes("""
      version: 1
      conventions: {event_id_pattern: '^[A-Z_]+$'}
      destinations: {firebase: {description: Google}}
      defaults: {destinations: [firebase]}
      screens:
        Home:
          page_events: {enter: HOME_ENTER, leave: HOME_LEAVE}
          control_events:
            onFav(_:): {event: HOME_FAV, destinations: [firebase], properties: {a: 1}}
      """),
  ]

  static func diagnostic(key: Located<String>, in what: String, allowed: [String], kind: String, file: String) -> Diagnostic {
    let location = SourceLocation(file: file, range: key.range)
    let allowedList = allowed.map { "'\($0)'" }.joined(separator: ", ")
    guard let suggestion = Suggestions.closest(to: key.value, in: allowed) else {
      return Diagnostic(
        .error, rule: id, "unknown \(kind) '\(key.value)' in \(what)", at: location,
        notes: [Diagnostic.Note("allowed here: \(allowedList)")])
    }
    return Diagnostic(
      .error, rule: id, "unknown \(kind) '\(key.value)' in \(what); did you mean '\(suggestion)'?", at: location,
      notes: [Diagnostic.Note("allowed here: \(allowedList)")],
      fixIt: Diagnostic.FixIt("replace with '\(suggestion)'", replacing: location, with: suggestion))
  }
}
