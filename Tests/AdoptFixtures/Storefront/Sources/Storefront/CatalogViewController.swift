import StoreAnalytics
import StoreUI

/// The catalog: a category of products, each added to the cart.
open class CatalogViewController: ScreenController {
  public private(set) var category: String
  public let cart: CartModel

  public init(category: String, cart: CartModel) {
    self.category = category
    self.cart = cart
    super.init()
  }

  override open func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
    // The screen call, named by its title.
    analytics.screen(title: "Catalog", properties: ["category": category])
  }

  public func onSelectCategory(_ name: String) {
    category = name
    analytics.track(name: "Category Selected", properties: ["category": name, "source": "catalog"])
  }

  public func onAddToCart(productID: String) {
    cart.add(productID)
  }

  public func onShare() {
    analytics.track(name: "Catalog Shared")
  }
}
