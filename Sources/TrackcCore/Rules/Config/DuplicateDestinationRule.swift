/// The same destination listed twice in one list: harmless, but a sign of a copy-and-paste slip.
public enum DuplicateDestinationRule: PlanRule {
  public static let id = "duplicate-destination"
  public static let summary = "A destination should appear once in a 'destinations' or 'exclude' list."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      destinations: {firebase: {wire_name: Firebase}, mixpanel: {wire_name: Mixpanel}}
      defaults: {destinations: [firebase, mixpanel, 1️⃣firebase]}
      screens: {}
      """, expecting: [.warning("destination 'firebase' is listed twice")]),
    .passes(
      """
      version: 1
      destinations: {firebase: {wire_name: Firebase}, mixpanel: {wire_name: Mixpanel}}
      defaults: {destinations: [firebase, mixpanel]}
      screens: {}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    check(plan.config.defaults.destinations ?? [], context: &context)
    plan.forEachLongFormEvent { _, details in
      if let only = details.only { check(only.entries, context: &context) }
      if let exclude = details.exclude { check(exclude.entries, context: &context) }
    }
  }

  private static func check(_ entries: [Located<String>], context: inout RuleContext) {
    guard entries.count > 1 else { return }
    for (index, entry) in entries.enumerated() {
      guard let first = entries[..<index].first(where: { $0.value == entry.value }) else { continue }
      context.report(
        Self.self, "destination '\(entry.value)' is listed twice", at: entry.range,
        notes: [Diagnostic.Note("first listed here", at: context.location(first.range))])
    }
  }
}
