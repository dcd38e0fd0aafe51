import Cart
import Checkout
import Foundation
import ProductDetail
import ShopTracking
import TrackcRuntime

/// The app opened from outside, as the app delegate sees it: a universal link, a notification the user
/// tapped, a shortcut pressed on the icon, and a link to a page that no longer exists. Each arrives at
/// `PendingRoute` (which tracks the entry point's open event, or counts why nothing opened), and when
/// the app becomes active the route is consumed once and its screen opened; the screen's page events
/// come from the generated interceptors, as in `ScriptedSession`.
public struct EntryPointSession {
  public enum Arrival: Sendable {
    case link(String)
    /// A notification's `userInfo`: its `type` and the order it is about.
    case orderNotification(type: String, orderID: String)
    case shortcut(String)
  }

  public struct Step: Sendable {
    public let description: String
    public let arrival: Arrival
  }

  public init() {}

  public let steps: [Step] = [
    Step(description: "tap a product link in the newsletter", arrival: .link("https://shop.example.com/product/sku-42?ref=newsletter")),
    Step(description: "tap the shipped-order notification", arrival: .orderNotification(type: "order_shipped", orderID: "order-1001")),
    Step(description: "press the Cart shortcut on the icon", arrival: .shortcut("com.example.shop.cart")),
    Step(description: "tap an old link to a page that is gone", arrival: .link("shop://wishlist/sku-7")),
  ]

  /// The screens opened, by name, in order; and the route manager, whose statistics count every outcome.
  public struct Result {
    public var opened: [String] = []
    public var pending: PendingRoute<Tracking.Route>
  }

  /// Runs the arrivals with `tracker` installed; after each, waits for the events and hands the step to
  /// `afterStep`.
  public func run(with tracker: Tracker, afterStep: (Step) -> Void = { _ in }) -> Result {
    var result = Result(pending: PendingRoute<Tracking.Route>(tracker: tracker))
    Interception.withTracker(tracker) {
      for step in steps {
        switch step.arrival {
        case .link(let link): result.pending.receive(link: link)
        case .orderNotification(let type, let orderID): result.pending.receive(notification: ["type": type, "order": ["id": orderID]])
        case .shortcut(let type): result.pending.receive(shortcutType: type)
        }
        // The app becomes active: the route, once.
        if let route = result.pending.consume() { result.opened.append(Self.open(route)) }
        tracker.flush()
        afterStep(step)
      }
    }
    return result
  }

  /// Shows the route's screen (it appears, then the visit moves on) and names it.
  static func open(_ route: Tracking.Route) -> String {
    switch route {
    case .product(let id, let ref):
      let screen = ProductDetailViewController(id: id, ref: ref)
      screen.viewDidAppear(true)
      screen.viewDidDisappear(true)
      return "ProductDetailViewController \(id)"
    case .orderShipped(let orderID):
      let screen = CheckoutViewController()
      screen.viewDidAppear(true)
      screen.viewDidDisappear(true)
      return "CheckoutViewController \(orderID)"
    case .cart:
      let screen = CartViewController(items: [])
      screen.viewDidAppear(true)
      screen.viewDidDisappear(true)
      return "CartViewController"
    }
  }
}
