// Scanned by the generator's fixture (as module FixtureViews); SwiftUI does not exist on Linux, where the
// tests run, so it is compiled only against the iOS SDK (Scripts/typecheck-ios.sh), with the generated
// FixtureTracking+SwiftUI.swift, which GeneratedSwiftUITests runs.
import GenerateFixtureFeature
import GenerateFixtureTracking
import SwiftUI

/// Holds an `@Observable` view model, which is iOS 17 and later, so the view is too.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
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

@MainActor func giftCard() -> UIViewController { UIHostingController(rootView: GiftCardView()) }
