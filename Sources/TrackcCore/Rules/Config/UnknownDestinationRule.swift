/// A destination named in `defaults`, `destinations` or `exclude` that `destinations:` does not declare.
public enum UnknownDestinationRule: PlanRule {
  public static let id = "unknown-destination"
  public static let summary = "Every destination used in 'defaults', 'destinations' or 'exclude' must be declared under 'destinations'."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      destinations: {firebase: {wire_name: Firebase}, mixpanel: {wire_name: Mixpanel}}
      defaults: {destinations: [firebase, 1️⃣mixpanell]}
      screens:
        Home:
          control_events:
            onFav(_:): {event: HOME_FAV, destinations: [2️⃣amplitude]}
            onShare(_:): {event: HOME_SHARE, exclude: [3️⃣Mixpanel]}
      """,
      expecting: [
        .error("destination 'mixpanell' in 'defaults' is not declared; did you mean 'mixpanel'?"),
        .error("destination 'amplitude' in 'destinations' of handler 'onFav(_:)' of 'Home' is not declared under 'destinations'"),
        .error("destination 'Mixpanel' in 'exclude' of handler 'onShare(_:)' of 'Home' is not declared; did you mean 'mixpanel'?"),
      ]),
    .triggers(
      """
      version: 1
      defaults: {destinations: [1️⃣firebase]}
      screens: {}
      """, expecting: [.error("destination 'firebase' in 'defaults' is not declared; the config has no 'destinations' section")]),
    .passes(
      """
      version: 1
      destinations: {firebase: {wire_name: Firebase}, mixpanel: {wire_name: Mixpanel}}
      defaults: {destinations: [firebase, mixpanel]}
      screens:
        Home:
          control_events:
            onFav(_:): {event: HOME_FAV, destinations: [firebase]}
            onShare(_:): {event: HOME_SHARE, exclude: [mixpanel]}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    check(plan.config.defaults.destinations ?? [], in: "'defaults'", plan: plan, context: &context)
    plan.forEachLongFormEvent { event, details in
      if let only = details.only {
        check(only.entries, in: "'destinations' of \(plan.describe(event))", plan: plan, context: &context)
      }
      if let exclude = details.exclude {
        check(exclude.entries, in: "'exclude' of \(plan.describe(event))", plan: plan, context: &context)
      }
    }
  }

  private static func check(
    _ entries: [Located<String>], in what: @autoclosure () -> String, plan: ResolvedPlan, context: inout RuleContext
  ) {
    for entry in entries where !plan.declares(entry.value) {
      guard let names = plan.declaredDestinations else {
        context.report(
          Self.self, "destination '\(entry.value)' in \(what()) is not declared; the config has no 'destinations' section", at: entry.range)
        continue
      }
      if let suggestion = Suggestions.closest(to: entry.value, in: names) {
        context.report(
          Self.self, "destination '\(entry.value)' in \(what()) is not declared; did you mean '\(suggestion)'?", at: entry.range,
          fixIt: context.fixIt(replacing: entry.range, with: suggestion))
      } else {
        let list = names.map { "'\($0)'" }.joined(separator: ", ")
        context.report(
          Self.self, "destination '\(entry.value)' in \(what()) is not declared under 'destinations'", at: entry.range,
          notes: [Diagnostic.Note(names.isEmpty ? "no destinations are declared" : "declared destinations: \(list)")])
      }
    }
  }
}
