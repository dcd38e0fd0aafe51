/// A binding whose value has a type a property cannot hold: the collector and the destinations take
/// strings, numbers and booleans only.
public enum UnsupportedPropertyTypeRule: CodeRule {
  public static let id = "unsupported-property-type"
  public static let summary =
    "A bound value must be a String, an integer, a floating-point number, a Bool, an optional of those, a raw-value enum of those, or (with 'type: string') a CustomStringConvertible."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      RuleExample.handlerConfig(
        "CartViewController", "checkout()", event: "CART_CHECKOUT",
        properties: "{items: {from: 1️⃣self.items}, cart: {from: 2️⃣self.cart}, code: {from: 3️⃣self.coupon}, size: {from: 4️⃣self.title.count}}",
        interception: "dynamic-replacement"),
      swift: [
        "Sources/Cart/Cart.swift": """
        final class CartViewController {
          var items: [String] = []
          var cart = Cart()
          var coupon: Coupon? = nil
          var title = ""
          func checkout() {}
        }
        struct Cart {}
        struct Coupon: CustomStringConvertible {
          var description: String { "" }
        }
        """
      ],
      expecting: [
        .error(
          "property 'items' of handler 'checkout()' of 'CartViewController' reads 'self.items', of type '[String]', which cannot be a property value; a property is a String, an integer, a floating-point number, a Bool, an optional of those, or an enum with such a raw type"
        ),
        .error(
          "property 'cart' of handler 'checkout()' of 'CartViewController' reads 'self.cart', of type 'Cart', which cannot be a property value; a property is a String, an integer, a floating-point number, a Bool, an optional of those, or an enum with such a raw type"
        ),
        .error(
          "property 'code' of handler 'checkout()' of 'CartViewController' reads 'self.coupon', of type 'Coupon', which cannot be a property value; a property is a String, an integer, a floating-point number, a Bool, an optional of those, or an enum with such a raw type ('Coupon' is CustomStringConvertible: declare 'type: string' to send its description)"
        ),
        .error(
          "property 'size' of handler 'checkout()' of 'CartViewController' reads 'self.title.count', which goes on past a 'String'; a path reads properties declared in the sources (bind 'String' itself, or give the screen a property)"
        ),
      ]),
    .passes(
      RuleExample.handlerConfig(
        "CartViewController", "checkout()", event: "CART_CHECKOUT",
        properties: "{count: {from: self.count}, tab: {from: self.tab}, code: {from: self.coupon, type: string}, ratio: {from: self.ratio}}",
        interception: "dynamic-replacement"),
      swift: [
        "Sources/Cart/Cart.swift": """
        final class CartViewController {
          var count: UInt8 = 0
          var tab: Tab = .all
          var coupon: Coupon? = nil
          var ratio: Swift.Float?
          func checkout() {}
        }
        enum Tab: String { case all }
        struct Coupon: CustomStringConvertible {
          var description: String { "" }
        }
        """
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    code.forEachBinding { site in
      guard case .unsupportedType(let text, let refusal, let declaration) = site.resolution else { return }
      let allowed = "a property is a String, an integer, a floating-point number, a Bool, an optional of those, or an enum with such a raw type"
      let message: String
      switch refusal {
      case .untyped:
        message =
          "\(site.subject) reads '\(site.source.value)', whose type the declaration does not write; write it (': Int') so that the binding can be checked"
      case .notNamed:
        message = "\(site.subject) reads '\(site.source.value)', of type '\(text ?? "?")', which cannot be a property value; \(allowed)"
      case .notAValue(let name, let describable):
        let tail = describable ? " ('\(name)' is CustomStringConvertible: declare 'type: string' to send its description)" : ""
        message = "\(site.subject) reads '\(site.source.value)', of type '\(name)', which cannot be a property value; \(allowed)\(tail)"
      case .genericParameter(let name, let owner):
        message =
          "\(site.subject) reads '\(site.source.value)', of type '\(name)', a generic parameter of '\(owner)' whose argument the path does not tell, so its type cannot be known without the compiler; bind it through a property whose type names the argument ('Box<String>')"
      case .noProperties(let name):
        message =
          "\(site.subject) reads '\(site.source.value)', which goes on past a '\(name)'; a path reads properties declared in the sources (bind '\(name)' itself, or give the screen a property)"
      }
      context.report(Self.self, message, at: site.source.range, notes: [Diagnostic.Note("declared here", at: declaration)])
    }
  }
}
