/// An event with both `destinations` (only these) and `exclude` (all defaults but these): one must go.
public enum DestinationsExcludeConflictRule: PlanRule {
  public static let id = "destinations-exclude-conflict"
  public static let summary = "An event may say 'destinations' (only these) or 'exclude' (all defaults but these), not both."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      destinations: {firebase: {wire_name: Firebase}, mixpanel: {wire_name: Mixpanel}}
      screens:
        Home:
          control_events:
            onFav(_:): {event: HOME_FAV, destinations: [firebase], 1️⃣exclude: [mixpanel]}
      """,
      expecting: [
        .error(
          "handler 'onFav(_:)' of 'Home' has both 'destinations' and 'exclude'; use 'destinations' to list the only ones, or 'exclude' to drop some defaults"
        )
      ]),
    .passes(
      """
      version: 1
      destinations: {firebase: {wire_name: Firebase}, mixpanel: {wire_name: Mixpanel}}
      screens:
        Home:
          control_events:
            onFav(_:): {event: HOME_FAV, destinations: [firebase]}
            onShare(_:): {event: HOME_SHARE, exclude: [mixpanel]}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    plan.forEachLongFormEvent { event, details in
      guard let only = details.only, let exclude = details.exclude else { return }
      let (first, second) = only.keyRange.start < exclude.keyRange.start ? (only.keyRange, exclude.keyRange) : (exclude.keyRange, only.keyRange)
      context.report(
        Self.self,
        "\(plan.describe(event)) has both 'destinations' and 'exclude'; use 'destinations' to list the only ones, or 'exclude' to drop some defaults",
        at: second, notes: [Diagnostic.Note("the other key is here", at: context.location(first))])
    }
  }
}
