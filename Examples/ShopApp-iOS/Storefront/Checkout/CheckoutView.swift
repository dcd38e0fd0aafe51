import SwiftUI

/// The checkout, in SwiftUI, shown by a hosting controller: its appearance is reported as the hosting
/// controller appears (PAGE_CHECKOUT). Its button calls the view model.
struct CheckoutView: View {
  @ObservedObject var model: CheckoutModel

  var body: some View {
    VStack(spacing: 24) {
      Text(model.total.formatted(.currency(code: "EUR"))).font(.largeTitle)
      Button(model.isPlaced ? "Ordered" : "Place order") { model.placeOrder() }
        .buttonStyle(.borderedProminent)
        .disabled(model.isPlaced)
    }
  }
}

/// The checkout's view model. An `NSObject` whose handler is `@objc dynamic`: the view calls it from
/// Swift, which sends a `dynamic` method as an Objective-C message, so the hooks see the call
/// (CTRL_CHECKOUT_PLACE, with the total read from its `@objc` state).
final class CheckoutModel: NSObject, ObservableObject {
  @objc let total: Double
  @Published private(set) var isPlaced = false

  init(total: Double) {
    self.total = total
  }

  @objc dynamic func placeOrder() {
    isPlaced = true
  }
}
