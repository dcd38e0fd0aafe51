import StoreAnalytics

/// What the shopper is buying. It is no screen: the call it makes stays in the code.
public final class CartModel {
  public private(set) var items: [String] = []

  public init() {}

  public func add(_ productID: String) {
    items.append(productID)
    analytics.track(name: "Product Added", properties: ["product_id": productID])
  }

  public func remove(at index: Int) -> String {
    items.remove(at: index)
  }
}
