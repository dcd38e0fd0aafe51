import GenerateFixtureTracking
import Testing
import TrackcRuntime

@testable import GenerateFixtureCart
@testable import GenerateFixtureUI

/// The generated code of `Tests/GenerateFixtures/cross-module.yaml`, compiled (warnings as errors) and
/// run: screens of one module whose page events and a handler come from a base class of another, with
/// bindings of every shape that reaches across modules. Each reads the value of the moment.
@Suite struct CrossModuleBindingTests {
  func events(_ body: () -> Void) -> [TrackingEvent] {
    let destination = InMemoryDestination(id: "all")
    let tracker = Tracker(registry: CrossModuleTracking.registry, destinations: [destination])
    Interception.withTracker(tracker, body)
    tracker.flush()
    return destination.events
  }

  @Test func aPageEventOfTheBaseModuleReadsTheScreenOfAnother() throws {
    let screen = CartScreen()
    screen.total = 49.5
    screen.itemCount = 3
    screen.basket.total = 12
    screen.basket.count = 2
    screen.kind = .sample
    screen.price = Money(cents: 1250)
    screen.label = Box("sample")
    screen.discount = 150
    screen.elapsed = 2.5
    let received = events {
      screen.viewDidAppear(true)
      screen.basket.owner = BasketOwner(name: "ann")
      screen.viewDidAppear(true)
    }
    #expect(received.map(\.id) == ["CART_ENTER", "CART_ENTER"])
    let first = try #require(received.first)
    #expect(
      first.properties == [
        "total": .double(49.5), "items": .int(3), "basket_total": .double(12), "basket_items": .int(2), "kind": .string("sample"),
        "price": .string("€12.50"), "label": .string("sample"), "label_length": .int(6), "discount": .int(150), "elapsed": .double(2.5),
      ])
    #expect(received.last?.properties["owner"] == .string("ann"))
    #expect(screen.log == ["BaseScreen.viewDidAppear", "BaseScreen.viewDidAppear"])
  }

  @Test func anInternalScreenAndTwoScreensOfOneNameAreEachRead() {
    let received = events {
      InternalScreen().viewDidAppear(true)
      GenerateFixtureCart.Panel().viewDidAppear(true)
      GenerateFixtureUI.Panel().viewDidAppear(true)
    }
    #expect(received.map(\.id) == ["INTERNAL_ENTER", "CART_PANEL_ENTER", "UI_PANEL_ENTER"])
    #expect(received.map { $0.properties } == [["step": .int(1)], ["title": .string("cart")], ["title": .string("ui")]])
  }

  @Test func handlersReadArgumentsOfTheOtherModulesTypes() {
    let screen = CartScreen()
    screen.total = 5
    screen.itemCount = 4
    let item = SharedItem(name: "mug", code: 77, kind: .gift)
    let received = events {
      screen.share(item)
      screen.checkout(item)
    }
    #expect(received.map(\.id) == ["CART_SHARE", "CART_CHECKOUT"])
    #expect(received.first?.properties == ["item": .string("mug"), "code": .int(77), "total": .double(5)])
    #expect(received.last?.properties == ["item": .string("mug"), "kind": .string("gift"), "items": .int(4)])
    #expect(screen.log == ["share mug"])
  }
}
