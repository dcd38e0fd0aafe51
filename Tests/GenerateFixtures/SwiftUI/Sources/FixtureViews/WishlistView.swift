// Scanned by the generator's fixture (as module FixtureViews), compiled by no target: SwiftUI does not
// exist on Linux, where the tests run. The generated FixtureTracking+SwiftUI.swift is compiled (its
// SwiftUI part only where SwiftUI exists) and run by GeneratedSwiftUITests.
import GenerateFixtureFeature
import SwiftUI

struct WishlistView: View {
  @State private var model = WishlistModel()

  var body: some View {
    List(model.items, id: \.self) { Text($0) }
      .onAppear { model.onAppear() }
      .onDisappear { model.onDisappear() }
      .tracked(.wishlistView)
  }
}

/// Shown by a hosting controller: under objc-runtime its appearance is reported without a modifier; under
/// dynamic-replacement (this fixture's) it carries one.
struct GiftCardView: View {
  var body: some View { Text("Gift card").tracked(FixtureTrackingScreen.giftCardView) }
}

func giftCard() -> UIViewController { UIHostingController(rootView: GiftCardView()) }
