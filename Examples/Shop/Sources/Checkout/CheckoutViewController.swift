import ShopUI

/// Payment and order.
open class CheckoutViewController: ScreenController {
  public private(set) var paymentMethod: String?
  public private(set) var orderPlaced = false

  public init() {
    super.init(title: "Checkout")
  }

  public func onPaymentMethodSelected(_ sender: Control) {
    paymentMethod = sender.identifier
  }

  public func onPlaceOrderPressed(_ sender: Control) {
    orderPlaced = paymentMethod != nil
  }
}
