/// A binding path step that is not a property of the type it is read on (`self.cart.totl`).
public enum UnknownBindingPropertyRule: CodeRule {
  public static let id = "unknown-binding-property"
  public static let summary = "Each step of a binding's path must be an instance property of the type before it (the screen's for 'self.')."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      RuleExample.handlerConfig(
        "CartViewController", "checkout()", event: "CART_CHECKOUT", properties: "{total: {from: 1️⃣self.cart.totl}, tab: {from: 2️⃣self.tab}}",
        interception: "dynamic-replacement"),
      swift: [
        "Sources/Cart/Cart.swift": """
        final class CartViewController {
          var cart = Cart()
          var selectedTab: String = ""
          func checkout() {}
        }
        struct Cart {
          var total: Double = 0
        }
        """
      ],
      expecting: [
        .error(
          "property 'total' of handler 'checkout()' of 'CartViewController' reads 'self.cart.totl', but 'Cart' has no instance property 'totl'; did you mean 'total'?"
        ),
        .error(
          "property 'tab' of handler 'checkout()' of 'CartViewController' reads 'self.tab', but 'CartViewController' has no instance property 'tab'"),
      ]),
    .passes(
      RuleExample.handlerConfig(
        "CartViewController", "checkout()", event: "CART_CHECKOUT", properties: "{total: {from: self.cart.total}, tab: {from: self.selectedTab}}",
        interception: "dynamic-replacement"),
      swift: [
        "Sources/Cart/Cart.swift": """
        class BaseViewController {
          var selectedTab: String = ""
        }
        final class CartViewController: BaseViewController {
          var cart = Cart()
          func checkout() {}
        }
        struct Cart {
          var total: Double = 0
        }
        """
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    code.forEachBinding { site in
      guard case .unknownProperty(_, let name, let owner, let candidates, let declaration) = site.resolution else { return }
      let hint = Suggestions.closest(to: name, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
      context.report(
        Self.self, "\(site.subject) reads '\(site.source.value)', but '\(owner)' has no instance property '\(name)'\(hint)",
        at: site.source.range, notes: declaration.map { [Diagnostic.Note("'\(owner)' is declared here", at: $0)] } ?? [])
    }
  }
}
