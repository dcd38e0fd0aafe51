import AppCore

class ProductDetailViewController: BaseViewController {
  @objc func onAddToCartPressed(_ sender: Any) {}

  @objc func onFavBtnPressed(_ sender: Any) {}

  @objc func onSizeSelected(_ sender: Any) {}
}

/// Inherits every handler of the product page.
final class GiftProductDetailViewController: ProductDetailViewController {
  @objc func onGiftWrapToggled_UA(_ sender: Any) {}
}
