/// Two entry points with the same shortcut type: the system would hand the app one type for both.
public enum DuplicateShortcutTypeRule: PlanRule {
  public static let id = "duplicate-shortcut-type"
  public static let summary = "Each shortcut type opens one entry point."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      config(orders: "{type: 1️⃣com.example.shop.cart, title: Orders}"),
      expecting: [.error("shortcut type 'com.example.shop.cart' of entry point 'orders' is already the shortcut of entry point 'cart'")]),
    .passes(config(orders: "{type: com.example.shop.orders, title: Orders, when: signed_in}")),
  ]

  /// The examples' config, which differs only in the shortcut of entry point 'orders'.
  private static func config(orders shortcut: String) -> String {
    """
    version: 1
    screens:
      Cart: {page_events: {enter: CART_ENTER}}
      Orders: {page_events: {enter: ORDERS_ENTER}}
    entry_points:
      cart: {screen: Cart, shortcut: {type: com.example.shop.cart, title: Cart}}
      orders: {screen: Orders, shortcut: \(shortcut)}
    """
  }

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    for (first, second) in plan.entryPoints.duplicateShortcuts {
      guard let type = plan.config.entryPoints[second].shortcut?.type, let original = plan.config.entryPoints[first].shortcut?.type else { continue }
      context.report(
        Self.self,
        "shortcut type '\(type.value)' of entry point '\(plan.config.entryPoints[second].name.value)' is already the shortcut of entry point '\(plan.config.entryPoints[first].name.value)'",
        at: type.range, notes: [Diagnostic.Note("first used here", at: context.location(original.range))])
    }
  }
}
