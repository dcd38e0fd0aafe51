/// A screen key that is not a Swift type name (`Shop.HomeViewController`, `Outer.Inner`).
public enum InvalidScreenNameRule: PlanRule {
  public static let id = "invalid-screen-name"
  public static let summary = "Screen keys must be Swift type names, optionally module-qualified or nested."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        1️⃣Home Screen: {page_events: {enter: HOME_ENTER}}
        2️⃣Shop..Cart: {page_events: {enter: CART_ENTER}}
        3️⃣List<Item>: {page_events: {enter: LIST_ENTER}}
      """,
      expecting: [
        .error("'Home Screen' is not a Swift type name"), .error("'Shop..Cart' is not a Swift type name: it has an empty component"),
        .error("'List<Item>' has generic arguments; name the type itself (a screen is matched by its type name)"),
      ]),
    .passes(
      """
      version: 1
      screens:
        HomeViewController: {page_events: {enter: HOME_ENTER}}
        Shop.CartViewController: {page_events: {enter: CART_ENTER}}
        Checkout.Flow.PaymentScreen: {page_events: {enter: PAYMENT_ENTER}}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    // By index: a screen taken by value is copied whole (see `ResolvedPlan.init`).
    let screens = plan.config.screens
    for screen in screens.indices {
      guard case .failure(let error) = screens[screen].typeName else { continue }
      context.report(Self.self, error.message, at: screens[screen].name.range)
    }
  }
}
