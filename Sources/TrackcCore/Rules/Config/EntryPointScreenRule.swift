/// An entry point that opens a screen the config does not list.
public enum EntryPointScreenRule: PlanRule {
  public static let id = "entry-point-screen"
  public static let summary = "An entry point's 'screen' must be a key of 'screens' (with a suggestion when one is close)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      \(config)
        product: {screen: 1️⃣ProductDetailViewControler, links: ["shop://product/{id:int}"]}
        cart: {screen: 2️⃣CartViewController, links: ["shop://cart"]}
      """,
      expecting: [
        .error(
          "entry point 'product' opens screen 'ProductDetailViewControler', which 'screens' does not list; did you mean 'ProductDetailViewController'?"
        ), .error("entry point 'cart' opens screen 'CartViewController', which 'screens' does not list; add it there or name a listed screen"),
      ]),
    .passes(
      """
      \(config)
        product: {screen: ProductDetailViewController, links: ["shop://product/{id:int}"]}
      """),
  ]

  /// The examples' screen and link origin.
  private static let config = """
    version: 1
    screens:
      ProductDetailViewController: {page_events: {enter: PRODUCT_ENTER}}
    links: {schemes: [shop]}
    entry_points:
    """

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    for route in plan.entryPoints.routes where route.screen == nil {
      guard let screen = plan.config.entryPoints[route.entry].screen else { continue }
      let names = plan.config.screens.map(\.name.value)
      if let suggestion = Suggestions.closest(to: screen.value, in: names) {
        context.report(
          Self.self, "entry point '\(route.name)' opens screen '\(screen.value)', which 'screens' does not list; did you mean '\(suggestion)'?",
          at: screen.range, fixIt: context.fixIt(replacing: screen.range, with: suggestion))
      } else {
        context.report(
          Self.self,
          "entry point '\(route.name)' opens screen '\(screen.value)', which 'screens' does not list; add it there or name a listed screen",
          at: screen.range)
      }
    }
  }
}
