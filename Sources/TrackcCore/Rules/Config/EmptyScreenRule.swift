/// A screen listed with no events: either unfinished or left over.
public enum EmptyScreenRule: PlanRule {
  public static let id = "empty-screen"
  public static let summary = "A screen should map at least one page or control event."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      screens:
        1️⃣Home: {}
        2️⃣Detail:
        3️⃣Cart: {page_events: {}, control_events: {}}
      """),
    .passes("""
      version: 1
      screens:
        Home: {page_events: {enter: HOME_ENTER}}
        Detail: {control_events: {onFav(_:): DETAIL_FAV}}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    for screen in plan.config.screens where screen.isEmptyAsWritten {
      context.report(
        Self.self, "screen '\(screen.name.value)' has no events; map its page or control events, or remove it",
        at: screen.name.range)
    }
  }
}
