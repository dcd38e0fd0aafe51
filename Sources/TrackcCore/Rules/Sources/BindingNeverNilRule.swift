/// `optional: true` on a bound value that can never be nil: the setting says a missing value is
/// expected and should not be counted, but there is nothing to miss, so it only misleads the reader
/// (and would hide the value going missing if the code changed to make it optional).
public enum BindingNeverNilRule: CodeRule {
  public static let id = "binding-never-nil"
  public static let summary =
    "A binding marked 'optional: true' should read a value that can be nil (an optional, or a path through one); a warning otherwise."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      RuleExample.handlerConfig(
        "CartViewController", "checkout(count:)", event: "CART_CHECKOUT",
        properties: "{total: {from: 1️⃣self.total, optional: true}, items: {from: 2️⃣count, optional: true}}", interception: "dynamic-replacement"),
      swift: [
        "Sources/Cart/Cart.swift": "final class CartViewController {\n  var total = 0.0\n  var coupon: String?\n  func checkout(count: Int) {}\n}\n"
      ],
      expecting: [
        .warning(
          "property 'total' of handler 'checkout(count:)' of 'CartViewController' says 'optional: true', but 'self.total' is 'Double', which is never nil: remove 'optional: true'"
        ),
        .warning(
          "property 'items' of handler 'checkout(count:)' of 'CartViewController' says 'optional: true', but 'count' is 'Int', which is never nil: remove 'optional: true'"
        ),
      ]),
    .passes(
      RuleExample.handlerConfig(
        "CartViewController", "checkout(count:)", event: "CART_CHECKOUT",
        properties: "{total: {from: self.total}, coupon: {from: self.coupon, optional: true}, owner: {from: self.owner.name, optional: true}}",
        interception: "dynamic-replacement"),
      swift: [
        "Sources/Cart/Cart.swift":
          "final class CartViewController {\n  var total = 0.0\n  var coupon: String?\n  var owner: Owner?\n  func checkout(count: Int) {}\n}\nfinal class Owner {\n  var name = \"\"\n}\n"
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    code.forEachBinding { site in
      guard site.property.binding?.isOptional == true, case .resolved(let value) = site.resolution, !value.isOptional else { return }
      context.report(
        Self.self,
        "\(site.subject) says 'optional: true', but '\(Diagnostic.excerpt(site.source.value))' is '\(value.valueType.name)', which is never nil: remove 'optional: true'",
        at: site.source.range, notes: [Diagnostic.Note("'\(site.source.value)' is declared here", at: value.declaration)])
    }
  }
}
