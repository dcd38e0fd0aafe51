import ShapesKit
import ShapesScreens
import SwiftUI
import UIKit

/// The root view of a hosting controller made in code; it reports itself with `.tracked(_:)`, and shows
/// the other SwiftUI screens in a sheet and through a navigation link. On the main actor, as its view
/// model is (iOS 18's SDK makes every `View` so).
@MainActor struct AccountView: View {
  @StateObject private var cart = CartModel()
  @State private var showsProfile = false

  var body: some View {
    NavigationStack {
      List {
        Button("Profile") { showsProfile = true }
        NavigationLink("Orders") { OrdersView(year: 2024) }
        NavigationLink("Cart") { CartView(model: cart) }
        if #available(iOS 17, *) {
          NavigationLink("Wishlist") { WishlistView() }
        }
      }
      .navigationTitle("Account")
      .sheet(isPresented: $showsProfile) { ProfileView() }
    }
    .tracked(.accountView)
  }
}

@MainActor public func accountScreen() -> UIViewController { UIHostingController(rootView: AccountView()) }

struct ProfileView: View {
  var body: some View { Text("Profile").tracked(.profileView) }
}

/// Opened by the `archive` entry point too: its initializer takes the entry point's parameters.
public struct OrdersView: View {
  let year: Int64

  public init(year: Int64, name: String = "") {
    self.year = year
  }

  public var body: some View { Text("Orders of \(year)").tracked(.ordersView) }
}

/// Holds an `ObservableObject` view model, whose actions and lifecycle carry the events.
@MainActor public struct CartView: View {
  @ObservedObject var model: CartModel

  public init(model: CartModel) {
    self.model = model
  }

  public var body: some View {
    List(model.items, id: \.self) { Text($0) }
      .toolbar { Button("Check out") { model.checkout() } }
      .onAppear { model.onAppear() }
      .onDisappear { model.onDisappear() }
  }
}

/// Holds an `@Observable` view model, newer than the app's deployment target, as the view is.
@available(iOS 17, *)
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
