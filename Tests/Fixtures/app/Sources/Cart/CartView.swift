import SwiftUI

struct CartView: View {
  var body: some View { EmptyView() }

  func onAppear() {}

  func onDisappear() {}

  func removeItem(at index: Int) {}

  private func recomputeTotals() {}

  fileprivate func onPromoBannerTapped() {}

  /// How a link opens the cart (`entry-point-signature` checks entry points against it).
  func route(items: [String]) {}
}
