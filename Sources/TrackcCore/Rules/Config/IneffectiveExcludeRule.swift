/// Excluding a destination that the event would not reach anyway (it is not among the defaults).
public enum IneffectiveExcludeRule: PlanRule {
  public static let id = "ineffective-exclude"
  public static let summary = "'exclude' should only name destinations that are among the defaults."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      config(exclude: "1️⃣amplitude"),
      expecting: [.warning("excluding 'amplitude' from handler 'onFav(_:)' of 'Home' has no effect: it is not among the default destinations")]),
    .passes(config(exclude: "mixpanel")),
  ]

  /// The examples' config, which differs only in what the handler excludes.
  private static func config(exclude: String) -> String {
    """
    version: 1
    destinations: {firebase: {wire_name: Firebase}, mixpanel: {wire_name: Mixpanel}, amplitude: {wire_name: Amplitude}}
    defaults: {destinations: [firebase, mixpanel]}
    screens:
      Home:
        control_events:
          onFav(_:): {event: HOME_FAV, exclude: [\(exclude)]}
    """
  }

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    guard plan.declaredDestinations != nil, plan.hasExplicitDefaults else { return }
    let defaults = Set(plan.defaultDestinations)
    plan.forEachLongFormEvent { event, details in
      guard let exclude = details.exclude else { return }
      for entry in exclude.entries where plan.declares(entry.value) && !defaults.contains(entry.value) {
        context.report(
          Self.self,
          "excluding '\(entry.value)' from \(plan.describe(event)) has no effect: it is not among the default destinations",
          at: entry.range)
      }
    }
  }
}
