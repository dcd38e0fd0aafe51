import Observation

/// The wishlist screen's view model, as a SwiftUI screen has one: an `@Observable` class. Its actions are
/// handlers and its `onAppear()`/`onDisappear()` (which the view calls) carry the page events, all
/// intercepted by dynamic replacement; Observation exists on Linux, so the example runs it here.
@Observable public final class WishlistModel {
  public private(set) var productIDs: [String] = []
  public private(set) var isVisible = false

  public init() {}

  public func onAppear() { isVisible = true }

  public func onDisappear() { isVisible = false }

  public func add(productID: String) {
    guard !productIDs.contains(productID) else { return }
    productIDs.append(productID)
  }

  public func remove(productID: String) {
    productIDs.removeAll { $0 == productID }
  }
}
