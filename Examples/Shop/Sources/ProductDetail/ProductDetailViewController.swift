import ShopUI

/// One product: sizes, favourite, share, add to cart.
open class ProductDetailViewController: ScreenController {
  public let productID: String
  /// Where the visitor came from, when a link says (`?ref=`).
  public let referrer: String?
  public private(set) var selectedSize: String?
  public private(set) var isFavourite = false
  public private(set) var quantityInCart = 0

  /// Takes the `product` entry point's parameters by their names in the plan (`entry-point-signature`
  /// checks it), so `Route.product(let id, let ref)` hands them over as they are.
  public init(id: String, ref: String? = nil) {
    self.productID = id
    self.referrer = ref
    super.init(title: "Product")
  }

  public func onSizeSelected(_ sender: Control) {
    selectedSize = sender.identifier
  }

  public func onFavBtnPressed(_ sender: Control) {
    isFavourite.toggle()
  }

  public func onShareBtnPressed(_ sender: Control) {}

  public func onAddToCartPressed(_ sender: Control) {
    quantityInCart += 1
  }
}
