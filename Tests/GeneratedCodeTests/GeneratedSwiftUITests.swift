import Foundation
import GenerateFixtureTracking
import Observation
import Testing

@testable import GenerateFixtureFeature
@_spi(Generated) @testable import TrackcRuntime

/// SwiftUI screens as far as they run on Linux: a view model's actions and lifecycle through the
/// generated replacements (Observation exists here), the generated screens' enum that `.tracked(_:)`
/// calls, and a hosting controller's appearance reported as its root view's, by the names the UIKit
/// adapter would give. SwiftUI itself does not exist here; the modifier is a line around `report(_:)`.
@Suite struct GeneratedSwiftUITests {
  func received(_ registry: any TrackingRegistry, _ body: (Tracker) -> Void) -> [TrackingEvent] {
    let destination = InMemoryDestination(id: "firebase")
    let tracker = Tracker(registry: registry, destinations: [destination])
    Interception.withTracker(tracker) { body(tracker) }
    tracker.flush()
    return destination.events
  }

  /// An `@Observable` view model: its onAppear() and onDisappear() are the page events, its action a
  /// handler with a bound argument; what it does, and what observers see, is unchanged.
  @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
  @Test func aViewModelsLifecycleAndActionsAreTracked() {
    let model = WishlistModel()
    let changed = ObservationFlag()
    withObservationTracking {
      _ = model.items
    } onChange: {
      changed.set()
    }
    let events = received(FixtureTracking.registry) { _ in
      model.onAppear()
      model.add("sku-7")
      model.onDisappear()
    }
    #expect(events.map(\.id) == ["PAGE_WISHLIST_MODEL_ENTER", "CTRL_WISHLIST_ADD", "PAGE_WISHLIST_MODEL_LEAVE"])
    #expect(events.map(\.screen) == ["WishlistModel", "WishlistModel", "WishlistModel"])
    #expect(events[1].properties == ["sku": .string("sku-7")])
    #expect(model.items == ["sku-7"] && !model.visible)
    #expect(changed.isSet, "observers still see the change")
  }

  /// What `.tracked(.wishlistView)` calls as the view appears and disappears.
  @Test func theScreensEnumReportsItsPageEvents() {
    let events = received(FixtureTracking.registry) { _ in
      FixtureTrackingScreen.wishlistView.report(.enter)
      FixtureTrackingScreen.giftCardView.report(.enter)
      FixtureTrackingScreen.giftCardView.report(.leave)  // no leave event in the plan
      FixtureTrackingScreen.wishlistView.report(.leave)
    }
    #expect(events.map(\.id) == ["PAGE_WISHLIST_ENTER", "PAGE_GIFT_CARD_ENTER", "PAGE_WISHLIST_LEAVE"])
    #expect(events.map(\.screen) == ["WishlistView", "GiftCardView", "WishlistView"])
    #expect(FixtureTrackingScreen.allCases.map(\.rawValue) == ["FixtureViews.GiftCardView", "FixtureViews.WishlistView"])
  }

  /// Under objc-runtime a hosting controller's appearance is its root view's: `UIHostingController<...>`
  /// is no screen of the plan (its class name is mangled), so the root's type decides, modifiers peeled
  /// off. A view that reports itself with `.tracked(_:)` is not reported a second time.
  @Test func aHostingControllerReportsItsRootView() {
    let hosting = "_TtGC7SwiftUI19UIHostingControllerVS_7AnyView_"
    let events = received(ObjCTracking.registry) { tracker in
      let profile = "SwiftUI.ModifiedContent<FeedApp.ProfileView, SwiftUI._EnvironmentKeyWritingModifier<Foundation.Locale>>"
      tracker.trackPage(hostingControllerNamed: hosting, rootView: profile, .enter)
      tracker.trackPage(hostingControllerNamed: hosting, rootView: "FeedApp.StoriesView", .enter)
      tracker.trackPage(hostingControllerNamed: hosting, rootView: "SwiftUI.AnyView", .enter)
      tracker.trackPage(hostingControllerNamed: hosting, rootView: nil, .enter)
      ObjCTrackingScreen.storiesView.report(.enter)
      tracker.trackPage(hostingControllerNamed: hosting, rootView: "FeedApp.ProfileView", .leave)
    }
    #expect(events.map(\.id) == ["PAGE_PROFILE_ENTER", "PAGE_STORIES_ENTER", "PAGE_PROFILE_LEAVE"])
  }

  /// A view controller of the plan is itself, whatever it hosts.
  @Test func aListedControllerIsReportedAsItself() {
    let events = received(ObjCTracking.registry) { tracker in
      tracker.trackPage(hostingControllerNamed: "FeedApp.FeedViewController", rootView: "FeedApp.ProfileView", .enter)
    }
    #expect(events.map(\.id) == ["PAGE_FEED_ENTER"])
  }

  @Test(arguments: [
    ("FeedApp.ProfileView", "FeedApp.ProfileView"),
    ("SwiftUI.ModifiedContent<App.Settings, SwiftUI._PaddingLayout>", "App.Settings"),
    (
      "SwiftUI.ModifiedContent<SwiftUI.ModifiedContent<App.Outer.Inner<Swift.Int, Swift.String>, A<B, C>>, SwiftUI._EnvironmentKeyWritingModifier<Swift.Optional<App.Model>>>",
      "App.Outer.Inner<Swift.Int,Swift.String>"
    ),
  ])
  func rootViewNamesArePeeled(reflected: String, screen: String) {
    #expect(HostedRootView.screenTypeName(reflected) == screen)
  }

  @Test func typeErasedRootsNameNoScreen() {
    #expect(HostedRootView.screenTypeName("SwiftUI.AnyView") == nil)
    #expect(HostedRootView.screenTypeName("SwiftUI.ModifiedContent<SwiftUI.AnyView, SwiftUI._PaddingLayout>") == nil)
    #expect(HostedRootView.screenTypeName("") == nil)
  }
}

/// Set once, from whichever thread Observation calls back on.
private final class ObservationFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
}
