import StoreAnalytics
import StoreUI

/// The cart: apply a coupon, remove an item, check out.
open class CartViewController: ScreenController {
  public let cart: CartModel
  public private(set) var coupon: String?

  /// Every item costs the same here.
  public static let unitPrice = 24.5

  public var itemCount: Int { cart.items.count }
  public var total: Double { Double(cart.items.count) * Self.unitPrice }

  public init(cart: CartModel) {
    self.cart = cart
    super.init()
  }

  override open func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
    analytics.track(name: "Cart Viewed", properties: ["items": itemCount])
  }

  override open func viewDidDisappear(_ animated: Bool) {
    super.viewDidDisappear(animated)
    analytics.track(name: "Cart Left")
  }

  public func onApplyCoupon(code: String) {
    // An early exit decides whether the call fires: it stays.
    guard !code.isEmpty else { return }
    coupon = code
    analytics.track(name: "Coupon Applied", properties: ["code": code])
  }

  public func onRemoveItem(at index: Int) {
    let removed = cart.remove(at: index)
    // A value computed from a local: it stays.
    analytics.track(name: "Product Removed", properties: ["product_id": removed])
  }

  public func onCheckout() {
    analytics.track(name: "Checkout Started", properties: ["total": total, "currency": "EUR"])
  }
}
