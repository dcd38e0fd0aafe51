/// The same destination listed twice in one list: harmless, but a sign of a copy-and-paste slip.
public enum DuplicateDestinationRule: ConfigRule {
  public static let id = "duplicate-destination"
  public static let summary = "A destination should appear once in a 'destinations' or 'exclude' list."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      destinations: {firebase: {}, mixpanel: {}}
      defaults: {destinations: [firebase, mixpanel, 1️⃣firebase]}
      screens: {}
      """),
    .passes("""
      version: 1
      destinations: {firebase: {}, mixpanel: {}}
      defaults: {destinations: [firebase, mixpanel]}
      screens: {}
      """),
  ]

  public static func check(_ config: TrackingConfig, in context: inout RuleContext) {
    func checkList(_ entries: [Located<String>]) {
      var seen: [String: SourceRange] = [:]
      for entry in entries {
        if let first = seen[entry.value] {
          context.report(
            Self.self, "destination '\(entry.value)' is listed twice", at: entry.range,
            notes: [Diagnostic.Note("first listed here", at: context.location(first))])
        } else {
          seen[entry.value] = entry.range
        }
      }
    }
    checkList(config.defaults.destinations ?? [])
    config.forEachEvent { _, _, event in
      if let only = event.only { checkList(only.entries) }
      if let exclude = event.exclude { checkList(exclude.entries) }
    }
  }
}
