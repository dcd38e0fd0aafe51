import Observation
import SwiftUI
import UIKit

/// Shows the account screen in a hosting controller: under objc-runtime its appearance is reported
/// as `AccountView`'s.
final class AccountCoordinator {
  func start(from presenter: UIViewController, model: AccountModel) {
    let screen = AccountView(model: model)
    presenter.present(UIHostingController(rootView: screen.environment(model)), animated: true)
  }
}

/// The account screen's view model: an `@Observable` class.
@Observable final class AccountModel {
  var isSignedIn = false

  func onAppear() {}

  func signOut() { isSignedIn = false }

  private func refreshToken() {}
}

struct AccountView: View {
  @Bindable var model: AccountModel

  var body: some View {
    List {
      Button("Orders") {}
    }
    .sheet(isPresented: .constant(false)) { OrdersView() }
  }
}

/// The orders screen's view model: an `ObservableObject`.
final class OrdersModel: ObservableObject {
  @Published var orders: [String] = []

  func onAppear() {}

  func onDisappear() {}

  func reorder(_ id: String) {}
}

/// Presented by the account screen; reports its own appearance with the generated modifier.
struct OrdersView: View {
  @StateObject private var model = OrdersModel()

  var body: some View {
    NavigationStack {
      List(model.orders, id: \.self) { order in
        NavigationLink(order) { OrderDetailView(id: order) }
      }
    }
    .tracked(.ordersView)
  }
}

/// Pushed from the orders screen.
struct OrderDetailView: View {
  let id: String

  var body: some View {
    Text(id).navigationTitle("Order").tracked(.orderDetailView)
  }
}

/// A component: neither hosted, presented nor navigating, so not a screen.
struct PriceTag: View {
  var body: some View { Text("9.99") }
}
