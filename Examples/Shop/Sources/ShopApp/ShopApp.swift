import Cart
import Checkout
import Foundation
import Home
import ProductDetail
import ShopScreens
import ShopTracking
import ShopUI
import TrackcRuntime
import Wishlist

/// The shop's tracking set-up: the generated registry, and the collector (Segment's batch API) that
/// forwards each event, once, to the analytics services its rule names (`integrations`).
public enum ShopApp {
  /// Where the shop's events go.
  public static let collector = URL(string: "https://collector.shop.example.com")!

  /// What the shopper answered in the consent dialog, in the scripted sessions: yes to both categories of
  /// the plan. (Until someone answers, the plan's defaults hold: analytics granted, personalization not.)
  public static let consentGiven: [String: Bool] = ["analytics": true, "personalization": true]

  /// What the app does at launch, in `application(_:didFinishLaunchingWithOptions:)`: one call, the
  /// journal in Application Support, every other setting as `Defaults` states it; then the shopper's
  /// consent answers (`nil`: not asked yet). Tests and the scripted session pass their own collector and
  /// journal folder.
  @discardableResult
  public static func start(
    collector: URL = collector, consent: [String: Bool]? = consentGiven, _ configure: (inout Trackc.Settings) -> Void = { _ in }
  ) throws -> Tracker {
    let tracker = try Trackc.start(Tracking.registry, endpoint: collector, writeKey: "shop-ios", configure)
    if let consent { tracker.setConsent(consent) }
    return tracker
  }

  /// A tracker with in-process destinations (which stand for Firebase's and Mixpanel's SDKs here: they
  /// keep what they receive), for the tests that read what each service would get; with the shopper's
  /// consent answers (`nil`: not asked yet).
  public static func makeTracker(
    destinations: [any TrackingDestination], journal: JournalConfiguration = .inMemory, consent: [String: Bool]? = consentGiven
  ) -> Tracker {
    let tracker = Tracker(registry: ShopTracking.Tracking.registry, destinations: destinations, journal: journal)
    if let consent { tracker.setConsent(consent) }
    return tracker
  }

  /// The shopper signed in: the events tracked from now on carry their user ID (and the collector gets an
  /// `identify` call).
  public static func signedIn(userID: String, tier: String) {
    Trackc.tracker?.identify(userID: userID, traits: ["tier": .string(tier)])
  }

  /// The shopper signed out: a new anonymous ID, no user.
  public static func signedOut() {
    Trackc.tracker?.reset()
  }
}

/// A user's visit, step by step, as the screens see it: appearing, taps, leaving. Nothing here tracks
/// anything; the generated interceptors do.
public struct ScriptedSession {
  public struct Step: Sendable {
    public let description: String
    public let action: @Sendable (inout Screens) -> Void
  }

  /// The screens of the visit, created as the user gets to them.
  public struct Screens {
    public init() {}
    var home = HomeViewController(feed: ["sku-7", "sku-42", "sku-99"])
    /// The wishlist's view model, as its SwiftUI view holds it.
    var wishlist = WishlistModel()
    var detail: ProductDetailViewController?
    var cart: CartViewController?
    var checkout: CheckoutViewController?
  }

  public init() {}

  public let steps: [Step] = [
    Step(description: "open the shop: home appears") { $0.home.viewDidAppear(true) },
    Step(description: "favourite sku-42 in the feed") { $0.home.onFavBtnPressed(Control("sku-42")) },
    Step(description: "keep sku-7 on the wishlist (a SwiftUI screen's view model), drop sku-99 from it") { screens in
      screens.wishlist.onAppear()
      screens.wishlist.add(productID: "sku-7")
      screens.wishlist.add(productID: "sku-99")
      screens.wishlist.remove(productID: "sku-99")
      screens.wishlist.onDisappear()
    },
    Step(description: "open sku-42, third in the feed") { screens in
      screens.home.openProduct(id: "sku-42", position: 2)
      screens.home.viewDidDisappear(true)
      let detail = ProductDetailViewController(id: "sku-42")
      screens.detail = detail
      detail.viewDidAppear(true)
    },
    Step(description: "pick size M and add it to the cart") { screens in
      screens.detail?.onSizeSelected(Control("M"))
      screens.detail?.onAddToCartPressed(Control("add-to-cart"))
    },
    Step(description: "leave the product for the cart") { screens in
      screens.detail?.viewDidDisappear(true)
      let cart = CartViewController(items: ["sku-42/M"])
      screens.cart = cart
      cart.viewDidAppear(true)
    },
    Step(description: "apply a coupon and go to checkout") { screens in
      screens.cart?.onApplyCouponPressed(Control("WELCOME10"))
      screens.cart?.onCheckoutPressed(Control("checkout"))
      screens.cart?.viewDidDisappear(true)
      let checkout = CheckoutViewController()
      screens.checkout = checkout
      checkout.viewDidAppear(true)
    },
    Step(description: "sign in to check out") { _ in ShopApp.signedIn(userID: "user-1001", tier: "gold") },
    Step(description: "pay by card and place the order, then leave") { screens in
      screens.checkout?.onPaymentMethodSelected(Control("card"))
      screens.checkout?.onPlaceOrderPressed(Control("place-order"))
      screens.checkout?.viewDidDisappear(true)
    },
    // SwiftUI does not exist on Linux: this is the call the view's `.tracked(.orderConfirmationView)`
    // makes as the view appears.
    Step(description: "the order confirmation (a SwiftUI view) appears") { _ in TrackingScreen.orderConfirmationView.report(.enter) },
    Step(description: "sign out and look at the home screen again") { screens in
      ShopApp.signedOut()
      screens.home.viewDidAppear(true)
    },
  ]

  /// Runs the steps with `tracker` installed; after each, waits for the events to be delivered and
  /// hands the step to `afterStep`.
  public func run(with tracker: Tracker, afterStep: (Step) -> Void = { _ in }) -> Screens {
    var screens = Screens()
    Interception.withTracker(tracker) {
      for step in steps {
        step.action(&screens)
        tracker.flush()
        afterStep(step)
      }
    }
    return screens
  }
}

extension ScriptedSession.Screens {
  public var orderPlaced: Bool { checkout?.orderPlaced ?? false }
  public var favourites: Set<String> { home.favourites }
  public var wishlistProductIDs: [String] { wishlist.productIDs }
}
