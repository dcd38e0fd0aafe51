import Foundation

/// A product of the catalog.
struct Product: Sendable, Hashable {
  var id: String
  var name: String
  var price: Double
}

/// What the shop sells, and what is in the cart.
final class Catalog: @unchecked Sendable {
  let products: [Product]
  private(set) var cart: [Product] = []

  init(products: [Product]) {
    self.products = products
  }

  func add(_ product: Product) {
    cart.append(product)
  }

  var total: Double { cart.reduce(0) { $0 + $1.price } }

  static let sample = Catalog(products: [
    Product(id: "sku-1", name: "Canvas tote", price: 24),
    Product(id: "sku-2", name: "Linen shirt", price: 59),
    Product(id: "sku-3", name: "Leather belt", price: 45),
  ])
}
