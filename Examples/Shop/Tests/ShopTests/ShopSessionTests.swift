import CollectorProcess
import Foundation
import ShopApp
import ShopTracking
import Testing
import TrackcRuntime

/// The scripted visit emits exactly the events tracking.yaml maps, in order, to the destinations its
/// routing allows, with their properties; and the feature code still does its job.
@Suite struct ShopSessionTests {
  /// `EVENT_ID screen.handler {properties}` or `EVENT_ID screen enter`.
  static func lines(_ events: [TrackingEvent]) -> [String] {
    events.map { LoggingDestination.line(for: $0, destination: "-").replacing("[-] ", with: "") }
  }

  @Test func theVisitEmitsTheConfiguredEventsInOrder() {
    let firebase = InMemoryDestination(id: "firebase")
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let screens = ScriptedSession().run(with: ShopApp.makeTracker(destinations: [firebase, mixpanel]))

    #expect(screens.orderPlaced)
    #expect(screens.favourites == ["sku-42"])
    #expect(screens.wishlistProductIDs == ["sku-7"])
    #expect(
      Self.lines(firebase.events) == [
        "PAGE_HOME_ENTER HomeViewController enter",
        "CTRL_HOME_FAVORITE HomeViewController.onFavBtnPressed(_:)",
        "PAGE_WISHLIST_ENTER WishlistModel enter",
        "CTRL_WISHLIST_ADD WishlistModel.add(productID:) {product_id: sku-7}",
        "CTRL_WISHLIST_ADD WishlistModel.add(productID:) {product_id: sku-99}",
        "CTRL_WISHLIST_REMOVE WishlistModel.remove(productID:)",
        "CTRL_HOME_OPEN_PRODUCT HomeViewController.openProduct(id:position:) {position: 2, product_id: sku-42, source: home_feed}",
        "PAGE_HOME_LEAVE HomeViewController leave",
        "PAGE_PRODUCT_ENTER ProductDetailViewController enter",
        "CTRL_PRODUCT_SIZE_SELECTED ProductDetailViewController.onSizeSelected(_:)",
        "CTRL_PRODUCT_ADD_TO_CART ProductDetailViewController.onAddToCartPressed(_:) {quantity: 1, source: product_detail}",
        "PAGE_PRODUCT_LEAVE ProductDetailViewController leave",
        "PAGE_CART_ENTER CartViewController enter {total: 24.5}",
        "CTRL_CART_CHECKOUT CartViewController.onCheckoutPressed(_:) {express: false, step: 1, total: 24.5}",
        "PAGE_CART_LEAVE CartViewController leave",
        "PAGE_CHECKOUT_ENTER CheckoutViewController enter",
        "CTRL_CHECKOUT_PAYMENT_METHOD CheckoutViewController.onPaymentMethodSelected(_:)",
        "CTRL_CHECKOUT_PLACE_ORDER CheckoutViewController.onPlaceOrderPressed(_:) {currency: EUR, step: 3}",
        "PAGE_CHECKOUT_LEAVE CheckoutViewController leave",
        "PAGE_ORDER_CONFIRMATION_ENTER OrderConfirmationView enter",
        "PAGE_HOME_ENTER HomeViewController enter",
      ])
    // The coupon goes to mixpanel only; leaving checkout excludes mixpanel.
    #expect(
      Self.lines(mixpanel.events) == [
        "PAGE_HOME_ENTER HomeViewController enter",
        "CTRL_HOME_FAVORITE HomeViewController.onFavBtnPressed(_:)",
        "PAGE_WISHLIST_ENTER WishlistModel enter",
        "CTRL_WISHLIST_ADD WishlistModel.add(productID:) {product_id: sku-7}",
        "CTRL_WISHLIST_ADD WishlistModel.add(productID:) {product_id: sku-99}",
        "CTRL_WISHLIST_REMOVE WishlistModel.remove(productID:)",
        "CTRL_HOME_OPEN_PRODUCT HomeViewController.openProduct(id:position:) {position: 2, product_id: sku-42, source: home_feed}",
        "PAGE_HOME_LEAVE HomeViewController leave",
        "PAGE_PRODUCT_ENTER ProductDetailViewController enter",
        "CTRL_PRODUCT_SIZE_SELECTED ProductDetailViewController.onSizeSelected(_:)",
        "CTRL_PRODUCT_ADD_TO_CART ProductDetailViewController.onAddToCartPressed(_:) {quantity: 1, source: product_detail}",
        "PAGE_PRODUCT_LEAVE ProductDetailViewController leave",
        "PAGE_CART_ENTER CartViewController enter {total: 24.5}",
        "CTRL_CART_APPLY_COUPON CartViewController.onApplyCouponPressed(_:)",
        "CTRL_CART_CHECKOUT CartViewController.onCheckoutPressed(_:) {express: false, step: 1, total: 24.5}",
        "PAGE_CART_LEAVE CartViewController leave",
        "PAGE_CHECKOUT_ENTER CheckoutViewController enter",
        "CTRL_CHECKOUT_PAYMENT_METHOD CheckoutViewController.onPaymentMethodSelected(_:)",
        "CTRL_CHECKOUT_PLACE_ORDER CheckoutViewController.onPlaceOrderPressed(_:) {currency: EUR, step: 3}",
        "PAGE_ORDER_CONFIRMATION_ENTER OrderConfirmationView enter",
        "PAGE_HOME_ENTER HomeViewController enter",
      ])
    // Each event carries the identity it was tracked under: the shopper's user ID from signing in to
    // signing out, then a new anonymous ID.
    let identities = firebase.events.map(\.identity)
    let signedIn = firebase.events.firstIndex { $0.id == "CTRL_CHECKOUT_PAYMENT_METHOD" }!
    #expect(identities[..<signedIn].allSatisfy { $0 == identities[0] && $0.userID == nil })
    #expect(identities[signedIn..<(identities.count - 1)].allSatisfy { $0.anonymousID == identities[0].anonymousID && $0.userID == "user-1001" })
    #expect(identities[signedIn].traits == ["tier": .string("gold")])
    #expect(identities.last!.userID == nil && identities.last!.anonymousID != identities[0].anonymousID)
    let properties = firebase.events.first { $0.id == "CTRL_PRODUCT_ADD_TO_CART" }?.properties
    #expect(properties == ["source": .string("product_detail"), "quantity": .int(1)])
    // Bound properties: the product and its place in the feed from the handler's arguments, the cart
    // total from the cart screen's state.
    let opened = firebase.events.first { $0.id == "CTRL_HOME_OPEN_PRODUCT" }?.properties
    #expect(opened == ["source": .string("home_feed"), "product_id": .string("sku-42"), "position": .int(2)])
    let checkout = firebase.events.first { $0.id == "CTRL_CART_CHECKOUT" }?.properties
    #expect(checkout?["total"] == .double(24.5))
    #expect(Set(firebase.events.map(\.messageID)).count == firebase.events.count)
  }

  /// Remote configuration switches a destination off: it gets nothing, the other everything it would.
  @Test func aDestinationSwitchedOffGetsNothing() {
    let firebase = InMemoryDestination(id: "firebase")
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let tracker = Tracker(
      registry: ShopApp.makeTracker(destinations: []).registry, destinations: [firebase, mixpanel],
      configuration: FixedDestinationConfiguration(enabled: ["firebase"]))
    _ = ScriptedSession().run(with: tracker)
    #expect(mixpanel.events.isEmpty)
    #expect(firebase.events.count == 21)
  }

  /// Without a tracker the app runs exactly the same, tracking nothing.
  @Test func withoutATrackerNothingChanges() {
    let firebase = InMemoryDestination(id: "firebase")
    _ = ShopApp.makeTracker(destinations: [firebase])
    var screens = ScriptedSession.Screens()
    // Taking the turn with no tracker, so that another test's tracker cannot hear these calls.
    Interception.withTracker(nil) {
      for step in ScriptedSession().steps { step.action(&screens) }
    }
    #expect(screens.orderPlaced)
    #expect(firebase.events.isEmpty)
  }

  /// As the app ships: started with `ShopApp.start`, events go through the journal to a real collector
  /// on 127.0.0.1, started with the example's own plan. Every event arrives once, naming the destinations
  /// its rule routes it to, in order, with its properties and its screen (page enter events as screen
  /// calls), carrying the anonymous ID, the user ID from signing in to signing out (none after), and the
  /// context; and conforms to the plan.
  @Test func theVisitIsDeliveredToACollectorExactlyOnce() async throws {
    let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("tracking.yaml")
    let collector = try CollectorProcess(plan: config)
    let journal = FileManager.default.temporaryDirectory.appendingPathComponent("shop-tests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: journal) }

    let firebase = InMemoryDestination(id: "firebase")
    let mixpanel = InMemoryDestination(id: "mixpanel")
    _ = ScriptedSession().run(with: ShopApp.makeTracker(destinations: [firebase, mixpanel]))
    let tracker = try ShopApp.start(collector: collector.baseURL) { $0.journal = .directory(journal) }
    let anonymousID = tracker.identity.anonymousID
    _ = ScriptedSession().run(with: tracker)
    #expect(await tracker.flush(timeout: 30))
    #expect(collector.waitForCalls(tracker.statistics["collector"]?.delivered ?? 0))
    collector.stop()

    // The launch: the app's lifecycle events the plan declares, tracked by the runtime as `Trackc.start`
    // returns, then the visit. Both go to firebase only: installed is for mixpanel too, but it is tracked
    // before the shopper's consent answers are set, while the plan's default (personalization not
    // granted) gates mixpanel; opened is for firebase alone.
    // The shopper's answers, set after the launch, are sent as Segment's consent-updated event (a call of
    // the runtime's own, which no destination's in-memory copy holds), once.
    #expect(collector.received.filter { $0.event == Tracker.consentUpdatedEvent }.count == 1)
    let received = collector.received.filter { $0.type != "identify" && $0.event != Tracker.consentUpdatedEvent }
    #expect(received.prefix(2).map(\.event) == ["APP_INSTALLED", "APP_OPENED"])
    // Each destination is named in `integrations` by the name Segment's catalogue gives it (the plan's
    // `wire_name`), and the collector, given the plan, would forward there.
    #expect(received.prefix(2).map(\.destinations) == [["Firebase"], ["Firebase"]])
    #expect(received.allSatisfy { $0.forwardedTo == $0.destinations }, "\(received.map(\.destinations))")
    #expect(received.dropFirst().first?.properties["from_background"]?.description == "false")
    let events = Array(received.dropFirst(2))
    let wireNames = ["firebase": "Firebase", "mixpanel": "Mixpanel"]
    for expected in [firebase, mixpanel] {
      let received = events.filter { $0.destinations?.contains(wireNames[expected.id]!) ?? true }
      #expect(received.map(\.event) == expected.events.map(\.id), "\(expected.id)")
      #expect(received.map(\.screen) == expected.events.map(\.screen), "\(expected.id)")
      #expect(received.map { $0.properties.mapValues(\.description) } == expected.events.map { $0.properties.mapValues(\.description) })
    }
    #expect(events.filter { $0.phase == "enter" }.allSatisfy { $0.type == "screen" && $0.name == $0.screen })
    #expect(collector.violations.isEmpty, "\(collector.violations)")
    #expect(collector.duplicates == 0)
    #expect(tracker.statistics["collector"]?.delivered == collector.received.count)

    // Identity: the anonymous ID on every event, the user ID from signing in (an identify call with the
    // traits) to signing out, then a new anonymous ID and no user.
    #expect(received.prefix(2).allSatisfy { $0.anonymousID == anonymousID && $0.userID == nil })
    let identify = try #require(collector.received.first { $0.type == "identify" })
    #expect(identify.userID == "user-1001" && identify.anonymousID == anonymousID && identify.traits["tier"]?.description == "gold")
    let signedIn = try #require(events.firstIndex { $0.event == "CTRL_CHECKOUT_PAYMENT_METHOD" })
    #expect(events[..<signedIn].allSatisfy { $0.anonymousID == anonymousID && $0.userID == nil })
    #expect(events[signedIn..<(events.count - 1)].allSatisfy { $0.anonymousID == anonymousID && $0.userID == "user-1001" })
    let afterSignOut = try #require(events.last)
    #expect(afterSignOut.event == "PAGE_HOME_ENTER" && afterSignOut.userID == nil)
    #expect(afterSignOut.anonymousID != nil && afterSignOut.anonymousID != anonymousID)
    #expect(tracker.identity.anonymousID == afterSignOut.anonymousID)

    // Context: what the system says, on every event.
    let expectedContext = tracker.currentContext
    for event in collector.received {
      let context = try #require(event.json["context"])
      #expect(context["app"]?["name"]?.string == expectedContext.app.name && expectedContext.app.name?.isEmpty == false)
      #expect(context["os"]?["name"]?.string == expectedContext.os.name && expectedContext.os.name?.isEmpty == false)
      #expect(context["os"]?["version"]?.string == expectedContext.os.version && expectedContext.os.version?.isEmpty == false)
      #expect(context["device"]?["model"]?.string == expectedContext.device.model && expectedContext.device.model?.isEmpty == false)
      #expect(context["locale"]?.string == expectedContext.locale && context["timezone"]?.string == expectedContext.timezone)
      #expect(context["library"]?["name"]?.string == "trackc")
    }
  }

  /// The events a visit sends firebase with every category granted: what consent must leave it.
  static func firebaseLinesOfAVisit() -> [String] {
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = ShopApp.makeTracker(destinations: [firebase, InMemoryDestination(id: "mixpanel")])
    _ = ScriptedSession().run(with: tracker)
    _ = tracker.flush()
    return lines(firebase.events)
  }

  @Test func aConsentedVisitSendsFirebaseTwentyOneEvents() {
    #expect(Self.firebaseLinesOfAVisit().count == 21)
  }

  /// Consent: personalization gates mixpanel. Revoked while events wait for mixpanel (down), they are
  /// dropped and counted, and nothing of the visits after goes to it; firebase is not affected.
  @Test func personalizationRevokedDeliversNothingToMixpanel() throws {
    let firebase = InMemoryDestination(id: "firebase")
    let mixpanel = DownDestination(id: "mixpanel")
    let tracker = ShopApp.makeTracker(destinations: [firebase, mixpanel])
    // Five coupons (for mixpanel only) wait for mixpanel when the shopper turns personalization off.
    for _ in 0..<5 { tracker.track(Tracking.EventID.ctrlCartApplyCoupon) }
    tracker.setConsent("personalization", granted: false)
    mixpanel.isUp = true
    _ = ScriptedSession().run(with: tracker)
    #expect(tracker.flush())
    #expect(mixpanel.received.isEmpty)
    #expect(Self.lines(firebase.events) == Self.firebaseLinesOfAVisit())
    let statistics = try #require(tracker.statistics["mixpanel"])
    #expect(statistics.droppedByReason[.consentRevoked] == 5 && statistics.accepted == 5 && statistics.balances, "\(statistics)")
    #expect(tracker.consent == ["analytics": true, "personalization": false])
  }

  /// Until the shopper answers, the plan's defaults hold: personalization is not granted.
  @Test func beforeTheShopperAnswersMixpanelGetsNothing() {
    let firebase = InMemoryDestination(id: "firebase")
    let mixpanel = InMemoryDestination(id: "mixpanel")
    _ = ScriptedSession().run(with: ShopApp.makeTracker(destinations: [firebase, mixpanel], consent: nil))
    #expect(Self.lines(firebase.events) == Self.firebaseLinesOfAVisit())
    #expect(mixpanel.events.isEmpty)
  }

  /// As the app ships, through the collector: once personalization is revoked, no event names mixpanel.
  @Test func theCollectorIsToldNothingMoreForMixpanel() async throws {
    let collector = try CollectorProcess()
    let tracker = try ShopApp.start(collector: collector.baseURL) { $0.journal = .inMemory }
    _ = ScriptedSession().run(with: tracker)
    #expect(tracker.flush(timeout: 30))
    #expect(collector.waitForCalls(tracker.statistics["collector"]?.delivered ?? 0))
    let before = collector.received.count
    tracker.setConsent("personalization", granted: false)
    _ = ScriptedSession().run(with: tracker)
    #expect(tracker.flush(timeout: 30))
    #expect(collector.waitForCalls(tracker.statistics["collector"]?.delivered ?? 0))
    collector.stop()
    // Turning personalization off is a consent update of its own; the visit after it reaches firebase only.
    let after = collector.received.dropFirst(before).filter { $0.type != "identify" && $0.event != Tracker.consentUpdatedEvent }
    #expect(collector.received.dropFirst(before).filter { $0.event == Tracker.consentUpdatedEvent }.count == 1)
    #expect(collector.received.prefix(before).contains { $0.destinations?.contains("Mixpanel") ?? false })
    #expect(after.count == Self.firebaseLinesOfAVisit().count && after.allSatisfy { $0.destinations == ["Firebase"] }, "\(after.map(\.destinations))")
  }

  /// Refuses everything while down.
  final class DownDestination: TrackingDestination, @unchecked Sendable {
    struct Down: Error {}
    let id: String
    private let lock = NSLock()
    private var up = false
    private var events: [TrackingEvent] = []
    init(id: String) { self.id = id }
    var isUp: Bool {
      get { lock.withLock { up } }
      set { lock.withLock { up = newValue } }
    }
    var received: [TrackingEvent] { lock.withLock { events } }
    func receive(_ event: TrackingEvent) throws {
      try lock.withLock {
        guard up else { throw Down() }
        events.append(event)
      }
    }
  }
}
