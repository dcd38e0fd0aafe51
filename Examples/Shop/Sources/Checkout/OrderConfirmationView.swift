#if canImport(SwiftUI)
  import ShopScreens
  import SwiftUI

  /// Shown once the order is placed: a SwiftUI screen. Its page event comes from the one line
  /// `.tracked(.orderConfirmationView)`, generated (ShopScreens/Tracking+SwiftUI.swift) and checked
  /// against tracking.yaml by trackc lint.
  public struct OrderConfirmationView: View {
    public let orderID: String

    public init(orderID: String) {
      self.orderID = orderID
    }

    public var body: some View {
      Text("Order \(orderID) placed")
        .navigationTitle("Thank you")
        .tracked(.orderConfirmationView)
    }
  }
#endif
