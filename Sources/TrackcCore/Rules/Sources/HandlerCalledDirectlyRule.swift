/// Under `objc-runtime`, a mapped handler whose only callers the runtime cannot see: the runtime replaces
/// the handler's Objective-C implementation, which every Objective-C dispatch reaches (a `#selector` handed
/// to `addTarget`, a gesture recognizer or a bar button item; UIKit calling a delegate; `perform(_:)`), but
/// Swift calls a method that is not `dynamic` through its own dispatch, past that implementation: a direct
/// call from Swift code, and so a call inside a `UIAction`'s closure, is never reported.
///
/// The scanner finds each `#selector` and each call in the sources by name, without resolving a call's
/// receiver, so a call of another type's method of the same name counts as a caller too. A handler with no
/// caller in the sources, an `@IBAction` (Interface Builder connects it), a method UIKit calls (an override
/// of a framework method, a requirement of a delegate protocol) and a `dynamic` method (Swift sends it as
/// an Objective-C message) are not reported. A warning: a caller outside the sources (Objective-C code, a
/// storyboard) may still reach it.
public enum HandlerCalledDirectlyRule: CodeRule {
  public static let id = "handler-called-directly"
  public static let summary =
    "Under objc-runtime, a handler must have a caller the runtime sees (a #selector, UIKit, a dynamic method), not only direct calls from Swift."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        CartViewController:
          control_events:
            1️⃣startCheckout(): CART_CHECKOUT
            2️⃣applyCoupon(_:): CART_COUPON
            zoom(_:): CART_ZOOM
            share(): CART_SHARE
      """,
      swift: [
        "Sources/Cart/CartViewController.swift": """
        import UIKit
        class CartViewController: UIViewController {
          override func viewDidLoad() {
            super.viewDidLoad()
            let button = UIButton(primaryAction: UIAction { [weak self] _ in self?.startCheckout() })
            view.addSubview(button)
            view.addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(zoom(_:))))
            navigationItem.rightBarButtonItem = UIBarButtonItem(title: "Share", primaryAction: UIAction { [weak self] _ in self?.share() })
          }
          func couponEntered(_ code: String) {
            applyCoupon(code)
          }
          @objc func startCheckout() {}
          @objc func applyCoupon(_ code: String) {}
          @objc func zoom(_ recognizer: UITapGestureRecognizer) {}
          @objc dynamic func share() {}
        }
        """
      ],
      expecting: [
        .warning(
          "handler 'startCheckout()' of 'CartViewController' is only called directly from Swift (inside a UIAction's closure), which does not pass through the Objective-C runtime, so interception: objc-runtime never reports it; make it 'dynamic' (Swift then sends it as an Objective-C message), wire it with #selector (addTarget, a gesture recognizer, a bar button item), or use interception: dynamic-replacement"
        ),
        .warning(
          "handler 'applyCoupon(_:)' of 'CartViewController' is only called directly from Swift, which does not pass through the Objective-C runtime, so interception: objc-runtime never reports it; make it 'dynamic' (Swift then sends it as an Objective-C message), wire it with #selector (addTarget, a gesture recognizer, a bar button item), or use interception: dynamic-replacement"
        ),
      ]),
    .passes(
      """
      version: 1
      screens:
        ProductViewController:
          control_events:
            zoomImage(_:): PRODUCT_ZOOM
            addToCart(_:): PRODUCT_ADD
            onShare(_:): PRODUCT_SHARE
            tableView(_:didSelectRowAt:): PRODUCT_ROW
            placeOrder(): PRODUCT_ORDER
      """,
      swift: [
        "Sources/Product/ProductViewController.swift": """
        import UIKit
        class ProductViewController: UITableViewController {
          override func viewDidLoad() {
            super.viewDidLoad()
            view.addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(zoomImage(_:))))
            let add = UIButton()
            add.addTarget(self, action: #selector(addToCart), for: .touchUpInside)
            let order = UIButton(primaryAction: UIAction { [weak self] _ in self?.placeOrder() })
            view.addSubview(order)
          }
          func refresh() {
            onShare(self)
            tableView(tableView, didSelectRowAt: IndexPath(row: 0, section: 0))
          }
          @objc func zoomImage(_ recognizer: UITapGestureRecognizer) {}
          @objc func addToCart(_ sender: UIButton) {}
          @IBAction func onShare(_ sender: Any) {}
          override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}
          @objc dynamic func placeOrder() {}
        }
        """
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    guard code.plan.interception == .objcRuntime, let uses = code.index.registry.methodUses, !uses.isEmpty else { return }
    var reported = Set<MethodReference>()
    for event in code.plan.events {
      guard let reference = code.method(of: event.id), let control = code.plan.control(event), let screen = event.screen.flatMap(code.type(of:)),
        !reported.contains(reference)
      else { continue }
      let method = code.index[reference]
      // Reached another way, or possibly: Interface Builder, UIKit (an override, a delegate), `dynamic`.
      guard method.objcSelector != nil, !method.attributes.contains("dynamic"), !method.attributes.contains("@IBAction"),
        !method.attributes.contains("override"), !isProtocolRequirement(method, of: screen, in: code.index)
      else { continue }
      let named = uses.filter { $0.names(method) }
      guard !named.isEmpty, !named.contains(where: { $0.kind == .selector }) else { continue }
      reported.insert(reference)
      let inClosures = named.allSatisfy { $0.kind == .actionClosureCall }
      let notes = named.prefix(3).map { use in
        Diagnostic.Note(
          use.kind == .actionClosureCall ? "called inside a UIAction's closure here" : "called directly here",
          at: use.location.sourceLocation(spanning: Substring(method.baseName)))
      }
      context.report(
        Self.self,
        "handler '\(control.key.value)' of '\(code.index[screen].name)' is only called directly from Swift\(inClosures ? " (inside a UIAction's closure)" : ""), which does not pass through the Objective-C runtime, so interception: objc-runtime never reports it; make it 'dynamic' (Swift then sends it as an Objective-C message), wire it with #selector (addTarget, a gesture recognizer, a bar button item), or use interception: dynamic-replacement",
        at: control.key.range, notes: [Diagnostic.Note("'\(method.name)' is declared here", at: method.nameLocation)] + notes)
    }
  }

  /// A requirement of a UIKit delegate or data-source protocol the class adopts: UIKit calls it.
  private static func isProtocolRequirement(_ method: DeclaredMethod, of type: Int, in index: CodeIndex) -> Bool {
    let conformances = index.lineage(of: type).flatMap { index[$0].inheritance }
    return ObjCProtocols.selector(of: method.name, conformingTo: conformances, frameworkAncestry: index.ancestry(of: type)) != nil
  }
}
