import ShopUI

/// The cart: remove items, apply a coupon, go to checkout.
open class CartViewController: ScreenController {
  public private(set) var items: [String]
  public private(set) var coupon: String?

  /// Every item costs the same in this example.
  public static let unitPrice = 24.5

  /// What the cart comes to (checkout sends it with its event).
  public var total: Double { Double(items.count) * Self.unitPrice }

  public init(items: [String]) {
    self.items = items
    super.init(title: "Cart")
  }

  public func removeItem(at index: Int) {
    guard items.indices.contains(index) else { return }
    items.remove(at: index)
  }

  public func onApplyCouponPressed(_ sender: Control) {
    coupon = sender.identifier
  }

  public func onCheckoutPressed(_ sender: Control) {}
}
