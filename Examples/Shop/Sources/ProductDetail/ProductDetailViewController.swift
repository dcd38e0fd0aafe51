import ShopUI

/// One product: sizes, favourite, share, add to cart.
open class ProductDetailViewController: ScreenController {
  public let productID: String
  public private(set) var selectedSize: String?
  public private(set) var isFavourite = false
  public private(set) var quantityInCart = 0

  public init(productID: String) {
    self.productID = productID
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
