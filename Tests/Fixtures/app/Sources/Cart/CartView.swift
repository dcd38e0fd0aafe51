import SwiftUI

struct CartView: View {
  var body: some View { EmptyView().onAppear(perform: onAppear).onDisappear(perform: onDisappear) }

  func onAppear() {}

  func onDisappear() {}

  func removeItem(at index: Int) {}

  private func recomputeTotals() {}

  fileprivate func onPromoBannerTapped() {}

  /// How a link opens the cart (`entry-point-signature` checks entry points against it).
  func route(items: [String]) {}

  /// A parameter named as another's label (`ambiguous-binding-parameter`).
  func swapItems(a b: Int, b a: String) {}
}
