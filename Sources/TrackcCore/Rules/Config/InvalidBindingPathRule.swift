/// A binding's `from:` that is not a handler parameter or a short path: nothing could read it.
public enum InvalidBindingPathRule: PlanRule {
  public static let id = "invalid-binding-path"
  public static let summary = "A binding's 'from' must be a handler parameter ('id') or a path of at most 4 properties ('self.cart.total')."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      \(config)
                total: {from: 1️⃣self..total}
                screen: {from: 2️⃣self}
                deep: {from: 3️⃣self.a.b.c.d.e}
                code: {from: 4️⃣"coupon code"}
                number: {from: 5️⃣1st}
      """,
      expecting: [
        .error(
          "property 'total' of handler 'checkout(_:)' of 'Cart': 'self..total' has an empty step; write names separated by single dots, such as 'self.cart.total'"
        ),
        .error(
          "property 'screen' of handler 'checkout(_:)' of 'Cart': 'self' is the screen itself, which is not a property value; name a property of it, such as 'self.selectedTab'"
        ),
        .error(
          "property 'deep' of handler 'checkout(_:)' of 'Cart': 'self.a.b.c.d.e' reads 5 properties; a binding reads at most 4 (give the screen a property that holds the value)"
        ),
        .error(
          "property 'code' of handler 'checkout(_:)' of 'Cart': 'coupon code' is not a binding path: 'coupon code' is not a Swift name; write a handler parameter ('id') or a path such as 'self.cart.total'"
        ),
        .error(
          "property 'number' of handler 'checkout(_:)' of 'Cart': '1st' is not a binding path: '1st' is not a Swift name; write a handler parameter ('id') or a path such as 'self.cart.total'"
        ),
      ]),
    .passes(
      """
      \(config)
                total: {from: self.cart.total}
                sender: {from: sender}
                label: {from: for}
                flag: {from: self.default}
                sku: {from: item.product.sku}
      """),
  ]

  /// The examples' handler, up to its properties.
  private static let config = """
    version: 1
    screens:
      Cart:
        control_events:
          checkout(_:):
            event: CART_CHECKOUT
            properties:
    """

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    for binding in plan.bindings {
      let property = plan.written(binding)
      guard case .failure(let error)? = property.binding?.path, let source = property.binding?.source else { continue }
      context.report(
        Self.self, "property '\(property.key.value)' of \(plan.describe(plan[binding.event])): \(error.message)", at: source.range)
    }
  }
}
