@_spi(Generated) import GenerateFixtureTracking
import Testing
@_spi(Generated) import TrackcRuntime

@testable import GenerateFixtureFeature

/// The generated registry and interceptors of `Tests/GenerateFixtures/tracking.yaml`, compiled against
/// the fixture feature module (built with -enable-implicit-dynamic) and run: calling the feature's own
/// methods emits the configured events, and the methods still do what they did.
///
/// The interceptors report to the one installed tracker, which `Interception.withTracker` lends to one
/// test at a time.
@Suite struct GeneratedInterceptorTests {
  let firebase = InMemoryDestination(id: "firebase")
  let mixpanel = InMemoryDestination(id: "mixpanel")
  let warehouse = InMemoryDestination(id: "warehouse")

  /// Runs `body` with a tracker installed; returns what each destination received, as event IDs.
  func tracking(_ body: () throws -> Void) rethrows -> (firebase: [TrackingEvent], mixpanel: [String], warehouse: [String]) {
    let tracker = Tracker(registry: FixtureTracking.registry, destinations: [firebase, mixpanel, warehouse])
    try Interception.withTracker(tracker, body)
    tracker.flush()
    return (firebase.events, mixpanel.events.map(\.id), warehouse.events.map(\.id))
  }

  /// The plan's wire names (`wire_name`), for a collector's `integrations`; a destination without one
  /// goes by its ID.
  @Test func theRegistryKnowsTheWireNames() {
    let registry = FixtureTracking.registry
    #expect(registry.wireName(ofDestination: "firebase") == "Firebase" && registry.wireName(ofDestination: "mixpanel") == "Mixpanel")
    #expect(registry.wireName(ofDestination: "warehouse") == nil)
  }

  @Test func pageEventsComeFromTheInheritedLifecycle() {
    let screen = CatalogScreen()
    let received = tracking {
      screen.viewDidAppear(true)
      screen.viewDidDisappear(true)
    }
    #expect(received.firebase.map(\.id) == ["PAGE_CATALOG_ENTER"])
    #expect(received.firebase.first?.screen == "CatalogScreen")
    #expect(received.mixpanel == ["PAGE_CATALOG_ENTER"])
    #expect(received.warehouse == ["PAGE_CATALOG_LEAVE"])
    #expect(screen.log == ["Screen.viewDidAppear", "Screen.viewDidDisappear"])
  }

  /// Bindings: the handler's arguments and the screen's state, read when the call is reported and
  /// converted by type; a nil left out, and counted unless the binding is `optional: true`.
  @Test func boundPropertiesCarryTheValuesOfTheMoment() throws {
    let screen = CatalogScreen()
    screen.selectedTab = .sale
    screen.cart.total = 12.5
    screen.cart.count = 200
    let tracker = Tracker(registry: FixtureTracking.registry, destinations: [firebase, mixpanel, warehouse])
    try Interception.withTracker(tracker) {
      screen.viewDidAppear(true)
      screen.open(item: 7, at: 2)
      _ = try screen.addToCart("p2", quantity: 3)
      screen.coupon = "SPRING"
      screen.note = "gift"
      screen.cart.owner = CatalogOwner()
      screen.cart.owner?.name = "ann"
      screen.viewDidAppear(true)
      _ = try screen.addToCart("p3", quantity: 1)
      // Another screen with the same inherited lifecycle reads nothing of the catalog's.
      SaleScreen().viewDidAppear(true)
    }
    tracker.flush()
    let events = firebase.events
    #expect(
      events.map(\.id) == [
        "PAGE_CATALOG_ENTER", "CTRL_CATALOG_OPEN_AT", "CTRL_CATALOG_ADD", "PAGE_CATALOG_ENTER", "CTRL_CATALOG_ADD", "PAGE_SALE_ENTER",
      ])
    #expect(events[0].properties == ["tab": .string("sale")])
    #expect(events[1].properties == ["item": .int(7), "position": .int(2)])
    #expect(
      events[2].properties == [
        "product_id": .string("p2"), "quantity": .double(3), "quote \" and \\ key": .int(3), "total": .double(12.5), "items": .int(200),
      ])
    #expect(events[3].properties == ["tab": .string("sale"), "coupon": .string("SPRING")])
    #expect(events[4].properties["note"] == .string("gift"))
    #expect(events[4].properties["owner"] == .string("ann"))
    #expect(events[5].properties.isEmpty)
    // The first addToCart had no note (required): left out and counted once; the optional owner is not counted.
    #expect(tracker.missingBoundValues == 1)
  }

  /// The typed function of an event with bindings: its properties are parameters of their types.
  @Test func typedManualTrackingSendsItsParameters() {
    let received = tracking {
      FixtureTracking.Track.ctrlCatalogOpenAt(item: 4, position: 1)
      FixtureTracking.Track.pageCatalogEnter(coupon: nil, tab: "all")
    }
    #expect(received.firebase.map(\.id) == ["CTRL_CATALOG_OPEN_AT", "PAGE_CATALOG_ENTER"])
    #expect(received.firebase.first?.properties == ["item": .int(4), "position": .int(1)])
    #expect(received.firebase.last?.properties == ["tab": .string("all")])
  }

  @Test func handlersOfEveryShapeReportAndStillRun() throws {
    let screen = CatalogScreen()
    var completed = false
    var added = 0
    let received = try tracking {
      screen.onFavorite("p1")
      screen.open(item: 7, at: 2)
      screen.open(item: 8)
      added = try screen.addToCart("p2", quantity: 3)
      #expect(throws: CatalogScreen.Failure.self) { try screen.addToCart("sold-out", quantity: 1) }
      nonisolated(unsafe) var flag = false
      screen.refresh { flag = true }
      completed = flag
      screen.default(5)
      screen.internalHandler()
    }
    #expect(added == 3)
    #expect(completed)
    #expect(screen.log == ["favorite p1", "open 7 at 2", "open 8", "add 3 p2", "refresh", "default 5", "internal"])
    #expect(
      received.firebase.map(\.id) == [
        "CTRL_CATALOG_FAVORITE", "CTRL_CATALOG_OPEN_AT", "CTRL_CATALOG_OPEN", "CTRL_CATALOG_ADD", "CTRL_CATALOG_ADD",
        "CTRL_CATALOG_REFRESH", "CTRL_CATALOG_DEFAULT", "CTRL_CATALOG_INTERNAL",
      ])
    #expect(
      received.mixpanel == [
        "CTRL_CATALOG_FAVORITE", "CTRL_CATALOG_OPEN_AT", "CTRL_CATALOG_OPEN", "CTRL_CATALOG_REFRESH", "CTRL_CATALOG_DEFAULT", "CTRL_CATALOG_INTERNAL",
      ])
    let favorite = try #require(received.firebase.first)
    #expect(favorite.handler == "onFavorite(_:)")
    #expect(favorite.properties == ["source": .string("catalog"), "position": .int(3), "ratio": .double(0.25), "featured": .bool(true)])
    #expect(received.firebase[2].handler == "open(item:)", "the selector key names the Swift method")
  }

  @Test func overridesThatCallSuperAreOneEvent() {
    let sale = SaleScreen()
    let received = tracking {
      sale.onFavorite("p3")
      sale.viewDidAppear(false)
      sale.viewDidDisappear(false)  // the sale screen maps no leave event
    }
    #expect(received.firebase.map(\.id) == ["CTRL_SALE_FAVORITE", "PAGE_SALE_ENTER"])
    #expect(received.firebase.map(\.name) == ["CTRL_SALE_FAVORITE", "Sale Viewed"], "the plan's wire name")
    #expect(sale.log == ["sale favorite", "favorite p3", "SaleScreen.viewDidAppear", "Screen.viewDidAppear", "Screen.viewDidDisappear"])
  }

  @Test func unlistedSubclassesReportAsTheirSuperclass() {
    let outlet = OutletScreen()
    let received = tracking {
      outlet.viewDidAppear(true)
      outlet.onFavorite("p4")
    }
    #expect(received.firebase.map(\.id) == ["PAGE_CATALOG_ENTER", "CTRL_CATALOG_FAVORITE"])
    #expect(received.firebase.map(\.screen) == ["CatalogScreen", "CatalogScreen"])
  }

  @MainActor @Test func valueTypesMainActorAndNestedScreens() {
    var basket = Basket()
    var item = "apple"
    let received = tracking {
      basket.add(&item, note: "!")
      let checkout = CheckoutScreen()
      checkout.pay(12.5)
      #expect(checkout.paid)
      CheckoutScreen.Summary().confirm()
    }
    #expect(basket.items == ["apple!"])
    #expect(item == "")
    #expect(received.firebase.map(\.id) == ["CTRL_BASKET_ADD", "CTRL_CHECKOUT_PAY", "CTRL_CHECKOUT_CONFIRM"])
    #expect(received.firebase.map(\.name) == ["CTRL_BASKET_ADD", "Order \"Paid\"", "CTRL_CHECKOUT_CONFIRM"])
    #expect(received.warehouse == ["CTRL_CHECKOUT_PAY"])
    #expect(received.mixpanel == ["CTRL_BASKET_ADD", "CTRL_CHECKOUT_CONFIRM"])
  }

  @Test func theBaseScreenIsNotAScreen() {
    let received = tracking { Screen().viewDidAppear(true) }
    #expect(received.firebase.isEmpty)
  }

  @Test func typedEventIDsForTrackingByHand() {
    #expect(FixtureTracking.EventID.allCases.count == 28)
    #expect(FixtureTracking.EventID.ctrlCatalogFavorite.rawValue == "CTRL_CATALOG_FAVORITE")
    let received = tracking {
      Interception.tracker?.track(FixtureTracking.EventID.ctrlCatalogFavorite, properties: ["source": .string("widget")])
    }
    #expect(received.firebase.map(\.id) == ["CTRL_CATALOG_FAVORITE"])
    #expect(received.firebase.first?.properties["source"] == .string("widget"))
    #expect(received.firebase.first?.properties["position"] == .int(3))
  }
}

/// The code generated from `Tests/GenerateFixtures/hostile.yaml` compiles (warnings as errors) and every
/// string in it comes back exactly as the config writes it.
@Suite struct HostileGeneratedCodeTests {
  let registry = HostileTracking.registry

  @Test func everyEventIDComesBackExactly() {
    let expected: Set<String> = [
      "PAGE\"); fatalError(\"injected", "\\(interpolated) #\"raw\"# \"\"\" multi", "line\nbreak\r\ttab\u{0}nul", "class",
      "123 starts with a digit", "rawValue", "init", "*/ /* // comment", "PAGE_BIDI_\u{202E}_OVERRIDE", "ÉVÉNEMENT_ÉTÉ",
      "OPEN \"); evil(\"",
    ]
    #expect(Set(HostileTracking.EventID.allCases.map(\.rawValue)) == expected)
    for id in expected { #expect(registry.rule(eventID: id)?.eventID == id, "\(id)") }
  }

  @Test func propertiesAndRoutingComeBackExactly() throws {
    let home = try #require(registry.screen(named: "Home"))
    let onFav = try #require(registry.handler(named: "onFav(_:)"))
    let rule = try #require(registry.controlRule(screen: home, handler: onFav))
    #expect(rule.eventID == "line\nbreak\r\ttab\u{0}nul")
    #expect(
      rule.properties == [
        "key \"quoted\"": .string("value \\(x) \u{2028} separator \u{200B} zero-width"),
        "emoji 🏠": .string("façade ✓ \u{1F600}"),
        "big": .int(9_223_372_036_854_775_807),
        "negative": .int(-42),
        "tiny": .double(1.0e-300),
        "huge": .double(1.5e300),
        "yes": .string("yes"),
        "flag": .bool(false),
      ])
    #expect(rule.routing == .only(["fire\"base", "mix\\panel", "dest\u{202E}warehouse"]))
    let share = try #require(registry.handler(named: "onShare:"))
    #expect(registry.controlRule(screen: home, handler: share)?.routing == .only(["fire\"base", "dest\u{202E}warehouse"]))
    #expect(registry.controlRule(screen: home, handler: share)?.wireName == "Share\"); fatalError(\"\\(x) \u{202E}\nTapped")
  }

  @Test func consentComesBackExactly() {
    #expect(registry.consentDefaults == ["ana\"lytics\\(x)": true, "\u{202E}ads */": false])
    #expect(registry.consentCategory(ofDestination: "fire\"base") == "ana\"lytics\\(x)")
    #expect(registry.consentCategory(ofDestination: "mix\\panel") == "\u{202E}ads */")
    #expect(registry.consentCategory(ofDestination: "dest\u{202E}warehouse") == "\u{202E}ads */")
    #expect(registry.consentCategory(ofDestination: "firebase") == nil)
  }

  @Test func namesComeBackExactly() throws {
    let classScreen = try #require(registry.screen(named: "class"))
    #expect(registry.name(of: classScreen) == "`class`")
    #expect(registry.pageRule(screen: classScreen, phase: .enter)?.eventID == "PAGE_BIDI_\u{202E}_OVERRIDE")
    #expect(registry.handler(named: "touché(_:)").map { registry.name(of: $0) } == "touché(_:)")
    #expect(registry.handler(named: "default(_:)") != nil)
  }
}
