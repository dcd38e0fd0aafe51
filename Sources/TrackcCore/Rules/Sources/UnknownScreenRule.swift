/// A screen whose type is declared nowhere in the sources: a rename or a typo the config missed. A name
/// that is an alias of a type of the sources (`typealias Checkout = CheckoutViewController`) names it.
public enum UnknownScreenRule: CodeRule {
  public static let id = "unknown-screen"
  public static let summary = "Every screen must name a type declared in the sources (with a did-you-mean, and a note when it is in another module)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        1️⃣HomeViewControler: {page_events: {enter: HOME_ENTER}}
        2️⃣Shop.CartViewController: {page_events: {enter: CART_ENTER}}
      """,
      swift: [
        "Sources/Home/HomeViewController.swift": "class HomeViewController {}\n",
        "Sources/Cart/CartViewController.swift": "class CartViewController {}\n",
      ],
      expecting: [
        .error("screen type 'HomeViewControler' is declared nowhere in the sources; did you mean 'HomeViewController'?"),
        .error("screen type 'Shop.CartViewController' is not declared in that module"),
      ]),
    .passes(
      """
      version: 1
      screens:
        HomeViewController: {page_events: {enter: HOME_ENTER}}
        Cart.CartViewController: {page_events: {enter: CART_ENTER}}
        Checkout: {page_events: {enter: CHECKOUT_ENTER}}
      """,
      swift: [
        "Sources/Home/HomeViewController.swift": "class HomeViewController: UIViewController {}\n",
        "Sources/Cart/CartViewController.swift": "class CartViewController: UIViewController {}\n",
        "Sources/Cart/Checkout.swift":
          "typealias Checkout = CheckoutViewController\nclass CheckoutViewController: UIViewController {}\n",
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    for screen in code.plan.screens {
      guard case .notFound(let suggestion, let elsewhere)? = code.resolution(of: screen.id) else { continue }
      let name = code.plan.written(screen.id).name
      let notes = elsewhere.map { index -> Diagnostic.Note in
        let type = code.index[index]
        return Diagnostic.Note(
          "'\(type.name)' is declared in module '\(type.module ?? "?")': write '\(type.qualifiedName)'", at: type.nameLocation)
      }
      if let suggestion {
        context.report(
          Self.self, "screen type '\(name.value)' is declared nowhere in the sources; did you mean '\(suggestion)'?",
          at: name.range, notes: notes,
          fixIt: Diagnostic.FixIt("replace with '\(suggestion)'", replacing: context.location(name.range), with: suggestion))
      } else {
        let message =
          elsewhere.isEmpty
          ? "screen type '\(name.value)' is declared nowhere in the sources"
          : "screen type '\(name.value)' is not declared in that module"
        context.report(Self.self, message, at: name.range, notes: notes)
      }
    }
  }
}
