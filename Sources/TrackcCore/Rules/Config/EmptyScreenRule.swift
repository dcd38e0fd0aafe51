/// A screen listed with no events: either unfinished or left over.
public enum EmptyScreenRule: PlanRule {
  public static let id = "empty-screen"
  public static let summary = "A screen should map at least one page or control event (or be opened by an entry point)."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        1️⃣Home: {}
        2️⃣Detail:
        3️⃣Cart: {page_events: {}, control_events: {}}
      """,
      expecting: [
        .warning("screen 'Home' has no events; map its page or control events, or remove it"),
        .warning("screen 'Detail' has no events; map its page or control events, or remove it"),
        .warning("screen 'Cart' has no events; map its page or control events, or remove it"),
      ]),
    .passes(
      """
      version: 1
      screens:
        Home: {page_events: {enter: HOME_ENTER}}
        Detail: {control_events: {onFav(_:): DETAIL_FAV}}
        Cart: {}
      entry_points:
        cart: {screen: Cart, shortcut: {type: com.example.cart, title: Cart}}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    // A screen an entry point opens is there to be opened, events or not.
    let opened = Set(plan.entryPoints.routes.compactMap(\.screen))
    // By index: a screen taken by value is copied whole (see `ResolvedPlan.init`).
    let screens = plan.config.screens
    for index in screens.indices where screens[index].isEmptyAsWritten && !opened.contains(ResolvedPlan.Screen.ID(rawValue: Int32(index))) {
      context.report(
        Self.self, "screen '\(screens[index].name.value)' has no events; map its page or control events, or remove it",
        at: screens[index].name.range)
    }
  }
}
