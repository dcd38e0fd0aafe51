import Combine
import Foundation
import Observation
import ShapesKit

/// An `ObservableObject` view model on the main actor: its actions are handlers, its `onAppear()` and
/// `onDisappear()` (which the view calls) carry the page events.
@MainActor public final class CartModel: ObservableObject {
  @Published private(set) var items: [String] = []
  @Published var coupon: String?
  var total = 0.0

  func onAppear() {}

  func onDisappear() {}

  public init() {}

  func apply(coupon: String) {
    self.coupon = coupon
  }

  func checkout() {}
}

/// An `@Observable` view model, which Observation makes iOS 17 and later: an app for iOS 16 marks it so,
/// and the generated replacements of its methods are marked the same way.
@available(iOS 17, macOS 14, *)
@Observable final class WishlistModel {
  private(set) var productIDs: [String] = []
  var count: Int { productIDs.count }

  func onAppear() {}

  func onDisappear() {}

  func add(_ product: Product) {
    productIDs.append(product.id)
  }

  func remove(productID: String) {
    productIDs.removeAll { $0 == productID }
  }
}
