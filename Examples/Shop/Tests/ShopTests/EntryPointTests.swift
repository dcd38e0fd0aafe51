import ShopApp
import ShopTracking
import Testing
import TrackcRuntime

/// A product link, the shipped-order notification and the Cart shortcut open their screens, each with
/// its open event (the source and the route's values as properties, routed as tracking.yaml says); the
/// link that matches nothing opens nothing and is counted.
@Suite struct EntryPointTests {
  static func lines(_ events: [TrackingEvent]) -> [String] {
    events.map { LoggingDestination.line(for: $0, destination: "-").replacing("[-] ", with: "") }
  }

  @Test func eachSourceOpensItsScreenAndTracksHowTheAppWasOpened() {
    let firebase = InMemoryDestination(id: "firebase")
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let result = EntryPointSession().run(with: ShopApp.makeTracker(destinations: [firebase, mixpanel]))

    #expect(result.opened == ["ProductDetailViewController sku-42", "CheckoutViewController order-1001", "CartViewController"])
    let expected = [
      "OPEN_PRODUCT ProductDetailViewController {id: sku-42, ref: newsletter, source: universal_link}",
      "PAGE_PRODUCT_ENTER ProductDetailViewController enter",
      "PAGE_PRODUCT_LEAVE ProductDetailViewController leave",
      "OPEN_ORDER_SHIPPED CheckoutViewController {order_id: order-1001, source: notification}",
      "PAGE_CHECKOUT_ENTER CheckoutViewController enter",
      "PAGE_CHECKOUT_LEAVE CheckoutViewController leave",
      "OPEN_CART CartViewController {source: shortcut}",
      "PAGE_CART_ENTER CartViewController enter {total: 0.0}",
      "PAGE_CART_LEAVE CartViewController leave",
    ]
    #expect(Self.lines(firebase.events) == expected)
    // Leaving checkout excludes mixpanel.
    #expect(Self.lines(mixpanel.events) == expected.filter { !$0.hasPrefix("PAGE_CHECKOUT_LEAVE") })

    let statistics = result.pending.statistics
    #expect(statistics.opened == 3)
    #expect(statistics.consumed == 3)
    #expect(statistics.dropped == [.unmatched: 1])
  }

  @Test func theRoutesReadAndWriteTheLinksOfTheConfig() {
    #expect(Tracking.Route(link: "shop://product/sku-42") == .product(id: "sku-42", ref: nil))
    #expect(Tracking.Route(link: "https://shop.example.com/product/sku-42?ref=ad") == .product(id: "sku-42", ref: "ad"))
    #expect(Tracking.Route.product(id: "sku-42", ref: "ad").url?.absoluteString == "https://shop.example.com/product/sku-42?ref=ad")
    #expect(Tracking.Route.cart.url?.absoluteString == "shop://cart")
    #expect(Tracking.Route.shortcuts.map(\.type) == ["com.example.shop.cart"])
  }
}
