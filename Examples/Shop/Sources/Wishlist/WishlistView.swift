#if canImport(SwiftUI)
  import SwiftUI

  /// The wishlist as the app shows it. Its page events are its model's (`onAppear()`, `onDisappear()`).
  public struct WishlistView: View {
    @State private var model = WishlistModel()

    public init() {}

    public var body: some View {
      List(model.productIDs, id: \.self) { productID in
        Text(productID).swipeActions { Button("Remove") { model.remove(productID: productID) } }
      }
      .onAppear { model.onAppear() }
      .onDisappear { model.onDisappear() }
    }
  }
#endif
