import Foundation
@_spi(Generated) import GenerateFixtureTracking
import Testing
import TrackcLinks
@_spi(Generated) import TrackcRuntime
import TrackcTestSupport

/// The generated `Route` of `Tests/GenerateFixtures/tracking.yaml`, compiled with warnings as errors and
/// run: each source reads its input into the typed case, `url` writes every case back as a link that
/// reads as the same case, and `PendingRoute` tracks the open event and every outcome.
@Suite struct GeneratedRouteTests {
  typealias Route = FixtureTracking.Route

  static let orderID = UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!

  /// One value of every case, with optional values both present and absent, and values that need escaping.
  static let routes: [Route] = [
    .product(id: 42, ref: nil, slug: nil),
    .product(id: 0, ref: "mail & more/+ 100%", slug: "spring-sale"),
    .product(id: Int.max, ref: "é", slug: nil),
    .order(id: orderID, tab: .items),
    .order(id: orderID, tab: .billing),
    .files(rest: ["a", "b c", "...", "%2F", "x/y", "%GG"]),
    .files(rest: ["", "a", ""]),
    .archive(year: 9_000_000_000, name: "Q1 report?#"),
    .go(to: URL(string: "https://fixture.example.com/landing?x=1")!),
    .cart,
  ]

  @Test(arguments: routes)
  func everyRouteRoundTripsThroughItsURL(route: Route) throws {
    let url = try #require(route.url)
    #expect(Route(url: url) == route, "\(url.absoluteString)")
    #expect(Route(link: url.absoluteString) == route)
  }

  @Test func aRouteWithoutLinksHasNoURL() {
    #expect(Route.sale.url == nil)
  }

  /// Values no link can carry: `url` is nil, never a link that reads as nothing or as another route.
  @Test(arguments: [
    Route.product(id: -5, ref: nil, slug: nil), .product(id: 1, ref: "", slug: nil), .product(id: 1, ref: nil, slug: ""),
    .product(id: 1, ref: nil, slug: "a.b"), .product(id: 1, ref: "line\nbreak", slug: nil), .product(id: 1, ref: "\u{85}", slug: nil),
    .product(id: 1, ref: String(repeating: "x", count: 1025), slug: nil), .archive(year: -1, name: "q1"), .archive(year: 1, name: ""),
    .files(rest: []), .files(rest: [".."]), .files(rest: ["a", "."]), .files(rest: Array(repeating: "a", count: 32)),
    .go(to: URL(string: "https://evil.example.com/")!), .go(to: URL(string: "http://fixture.example.com/landing")!),
    .go(to: URL(string: "fixture://cart")!),
  ])
  func routesWhoseValuesNoLinkCarriesHaveNoURL(route: Route) {
    #expect(route.url == nil, "\(route.url?.absoluteString ?? "")")
  }

  /// Whichever a route is printed with, what the printer writes reads back: random values of every
  /// parameter type (near and past their bounds, escapes, dots, empty), each printed URL read back as the
  /// same route, and every value the reader accepts printed.
  @Test func printedLinksReadBackForRandomValues() throws {
    var random = SeededRandom(seed: SeededRandom.baseSeed)
    let pieces = ["a", "Z", "0", "-", "_", ".", "..", "/", "%", "%2F", "+", " ", "?", "&", "=", "#", "é", "😀", "\u{202E}", "\n", "\u{0}", ""]
    func text() -> String {
      random.chance(0.05)
        ? String(repeating: random.pick(["x", "é"]), count: Int.random(in: 300..<1100, using: &random))
        : (0..<Int.random(in: 0..<6, using: &random)).map { _ in random.pick(pieces) }.joined()
    }
    var printed = 0
    for _ in 0..<3000 {
      let route: Route
      switch Int.random(in: 0..<4, using: &random) {
      case 0:
        route = .product(id: random.pick([0, 1, -1, .max, .min]), ref: random.chance(0.5) ? text() : nil, slug: random.chance(0.5) ? text() : nil)
      case 1: route = .files(rest: (0..<Int.random(in: 0..<35, using: &random)).map { _ in text() })
      case 2: route = .archive(year: random.pick([0, 2024, -7, .max]), name: text())
      default:
        route = .go(
          to: URL(
            string: random.pick(["https", "http", "HTTPS", "fixture"]) + "://"
              + random.pick(["fixture.example.com", "evil.example.com", "FIXTURE.example.com"]) + "/" + LinkEncoding.percentEncoded(text())) ?? URL(
              string: "https://fixture.example.com/")!)
      }
      guard let url = route.url else {
        // Nil only for a value the reader refuses.
        #expect(!Self.readable(route), "\(route) has no URL")
        continue
      }
      printed += 1
      #expect(Route(url: url) == route, "\(url.absoluteString)")
      #expect(Route(link: url.absoluteString) == route)
    }
    #expect(printed > 500)
  }

  /// Whether every value of a route is one its link's reader accepts (what `url` must then print).
  static func readable(_ route: Route) -> Bool {
    func string(_ text: String) -> Bool { LinkValueType.string.accepted.contains(SegmentKind.of(text)) && text.utf8.count <= 1024 }
    switch route {
    case .product(let id, let ref, let slug):
      return id >= 0 && (ref.map(string) ?? true)
        && (slug.map { LinkValueType.slug.accepted.contains(SegmentKind.of($0)) && $0.utf8.count <= 1024 } ?? true)
    case .files(let rest):
      return !rest.isEmpty && rest.count <= 31
        && rest.allSatisfy { $0 != "." && $0 != ".." && $0.utf8.count <= 1024 && LinkValueType.path.accepted.contains(SegmentKind.of($0)) }
        && (rest.map { $0.utf8.count + 1 }.reduce(0, +) <= 4096 - "https://fixture.example.com/files".utf8.count)
    case .archive(let year, let name): return year >= 0 && string(name) && name != "." && name != ".."
    case .go(let to): return LinkValueType.acceptsURL(to.absoluteString, allowing: ["fixture.example.com"]) && to.absoluteString.utf8.count <= 1024
    default: return true
    }
  }

  /// One reading of a link: the text, or the `URL` Foundation makes of it (which escapes a `%` that
  /// begins no escape and a raw space rather than refusing them), opens the same route.
  @Test(arguments: [
    "fixture://products/7?ref=%GG", "fixture://products/7?ref=100%", "fixture://products/7?ref=a b", "https://fixture.example.com/archive/1/a b/",
    "https://fixture.example.com/files/%/%2", "fixture://products/7?ref=%E2%80%AE", "https://FIXTURE.example.com/products/7?ref=é",
  ])
  func aLinkOpensTheSameRouteAsTextAndAsURL(link: String) throws {
    let url = try #require(URL(string: link))
    let route = try #require(Route(link: link))
    #expect(Route(url: url) == route, "\(url.absoluteString)")
  }

  /// A host that is not ASCII reads as Foundation's `URL` holds it, in its IDNA form.
  @Test func anIDNHostReadsInItsASCIIForm() throws {
    let ascii = "https://xn--bcher-kva.example/x"
    #expect(Route.parse(link: "https://bücher.example/x").route == Route.parse(link: ascii).route)
    if case .invalid = Route.parse(link: "https://bücher.example/x") { Issue.record("an IDN host should read") }
  }

  @Test(arguments: [
    ("fixture://product/7", Route.product(id: 7, ref: nil, slug: nil)),
    // Scheme and host fold; a custom scheme's host is its first segment.
    ("FIXTURE://Product/7", .product(id: 7, ref: nil, slug: nil)),
    ("https://FIXTURE.example.com/products/7?slug=a-b", .product(id: 7, ref: nil, slug: "a-b")),
    ("fixture://products/7?ref=a+b%20c", .product(id: 7, ref: "a b c", slug: nil)),
    // Undeclared query items are ignored, a fragment too.
    ("https://fixture.example.com/products/7?utm_source=x#top", .product(id: 7, ref: nil, slug: nil)),
    ("https://fixture.example.com/orders/6ba7b810-9dad-11d1-80b4-00c04fd430c8", .order(id: orderID, tab: .items)),
    ("https://fixture.example.com/orders/6BA7B810-9DAD-11D1-80B4-00C04FD430C8?tab=billing", .order(id: orderID, tab: .billing)),
    ("https://fixture.example.com/files/a/%2F/..", .files(rest: ["a", "/", ".."])),
    // trailing_slash: ignore.
    ("https://fixture.example.com/archive/2024/q1", .archive(year: 2024, name: "q1")),
    ("https://fixture.example.com/archive/2024/q1/", .archive(year: 2024, name: "q1")),
    ("fixture://cart/", .cart),
  ])
  func linksOpenTheirRoutes(link: String, route: Route) {
    #expect(Route(link: link) == route)
  }

  @Test(arguments: [
    // No such pattern, origin or type.
    "fixture://product", "fixture://product/7/more", "fixture://product/x", "other://product/7", "https://evil.example.com/products/7",
    "fixture://product/99999999999999999999", "https://fixture.example.com/orders/not-a-uuid",
    // A declared query parameter repeated, or of the wrong type, or an enumeration's unknown value.
    "fixture://products/7?ref=a&ref=b", "fixture://products/7?slug=a.b",
    "https://fixture.example.com/orders/6ba7b810-9dad-11d1-80b4-00c04fd430c8?tab=x",
    // A url parameter off the allowlist: no open redirect.
    "fixture://go?to=https%3A%2F%2Fevil.example.com%2F", "fixture://go?to=javascript%3Aalert(1)",
    // Path case is sensitive by default.
    "https://fixture.example.com/Products/7",
    // Universal links are https only; a url parameter too.
    "http://fixture.example.com/products/7", "fixture://go?to=http%3A%2F%2Ffixture.example.com%2Flanding",
  ])
  func linksThatMatchNothingAreNil(link: String) {
    #expect(Route(link: link) == nil)
    if case .unmatched = Route.parse(link: link) {} else { Issue.record("\(link) should be unmatched") }
  }

  @Test(arguments: [
    ("fixture://product/%FF", LinkRejection.invalidUTF8), ("fixture://product/%C0%AE", .invalidUTF8), ("fixture://product/%00", .nul),
    ("fixture://product/%0A", .controlCharacter), ("fixture://user@product/1", .userInfo), ("https://fixture.example.com:8080/products/1", .port),
    // A custom scheme's host is its first segment: `fixture:product/1` names none.
    ("fixture:product/7", .missingHost), ("fixture:///product/7", .missingHost), ("fixture:cart", .missingHost),
  ])
  func linksThatAreNotValidAreRefusedWithTheirReason(link: String, rejection: LinkRejection) {
    guard case .invalid(.link(let found)) = Route.parse(link: link) else {
      Issue.record("\(link) should be refused")
      return
    }
    #expect(found == rejection)
  }

  @Test func notificationsSelectTheirRoutes() {
    #expect(Route(notification: ["type": "product_back", "product": ["id": 5]]) == .product(id: 5, ref: nil, slug: nil))
    #expect(Route(notification: ["type": "product_back", "product": ["id": "5"]]) == .product(id: 5, ref: nil, slug: nil))
    let shipped: [AnyHashable: Any] = ["type": "order_shipped", "aps": ["category": "ORDER"], "order": ["id": Self.orderID.uuidString]]
    #expect(Route(notification: shipped) == .order(id: Self.orderID, tab: .items))
    var billing = shipped
    billing["tab"] = "billing"
    #expect(Route(notification: billing) == .order(id: Self.orderID, tab: .billing))
  }

  @Test func notificationsThatSelectNothingOrLackParametersSayWhich() {
    func outcome(_ userInfo: [AnyHashable: Any]) -> String {
      switch Route.parse(notification: userInfo) {
      case .matched: return "matched"
      case .unmatched: return "unmatched"
      case .invalid(let problem): return problem.description
      }
    }
    // order_shipped needs aps.category too.
    #expect(outcome(["type": "order_shipped"]) == "unmatched")
    #expect(outcome(["type": "unknown"]) == "unmatched")
    #expect(outcome([:]) == "unmatched")
    // Selected, but its id is not an int, or missing.
    #expect(outcome(["type": "product_back", "product": ["id": "x"]]) == "parameters")
    #expect(outcome(["type": "product_back"]) == "parameters")
  }

  @Test func shortcutsOpenTheirRoutesAndAreOfferedByCondition() {
    #expect(Route(shortcutType: "com.example.fixture.cart") == .cart)
    #expect(Route(shortcutType: "com.example.fixture.sale") == .sale)
    #expect(Route(shortcutType: "com.example.fixture.other") == nil)
    enum Condition: String { case signedIn = "signed_in" }
    #expect(RouteShortcut.offered(Route.shortcuts, when: Set<Condition>()).map(\.type) == ["com.example.fixture.cart"])
    #expect(RouteShortcut.offered(Route.shortcuts, when: [Condition.signedIn]).count == 2)
  }

  @Test func entryPointsAndOpenEventsNameTheConfig() {
    let event = Route.order(id: Self.orderID, tab: .billing).openEvent
    #expect(event.rule?.eventID == "OPEN_ORDER")
    #expect(event.screen == "CheckoutScreen")
    #expect(event.parameters == ["id": .string(Self.orderID.uuidString.lowercased()), "tab": .string("billing")])
    #expect(Route.archive(year: 1, name: "x").openEvent.rule == nil)
    #expect(Route.cart.entryPoint == "cart")
  }

  // MARK: PendingRoute

  final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var time: TimeInterval = 1000
    var now: TimeInterval { lock.withLock { time } }
    func advance(_ seconds: TimeInterval) { lock.withLock { time += seconds } }
  }

  final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [PendingRoute<Route>.Outcome] = []
    var all: [PendingRoute<Route>.Outcome] { lock.withLock { list } }
    func append(_ outcome: PendingRoute<Route>.Outcome) { lock.withLock { list.append(outcome) } }
  }

  @Test func pendingRouteTracksTheOpenEventAndHandsTheRouteOutOnce() throws {
    let warehouse = InMemoryDestination(id: "warehouse")
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = Tracker(registry: FixtureTracking.registry, destinations: [firebase, warehouse])
    let clock = Clock()
    let outcomes = Outcomes()
    let pending = PendingRoute<Route>(tracker: tracker, now: { clock.now }, onOutcome: outcomes.append)

    #expect(pending.receive(link: "https://fixture.example.com/orders/\(Self.orderID.uuidString)?tab=billing"))
    tracker.flush()
    // Routed as the config says: warehouse only, with the static property, the source and the values.
    #expect(firebase.events.isEmpty)
    #expect(warehouse.events.map(\.id) == ["OPEN_ORDER"], "one open event")
    let event = try #require(warehouse.events.first)
    #expect(event.screen == "CheckoutScreen")
    #expect(event.properties["source"] == .string("universal_link"))
    #expect(event.properties["campaign"] == .string("spring"))
    #expect(event.properties["tab"] == .string("billing"))

    #expect(pending.consume() == .order(id: Self.orderID, tab: .billing))
    #expect(pending.consume() == nil)
    #expect(
      outcomes.all == [
        .opened(.order(id: Self.orderID, tab: .billing), .universalLink), .consumed(.order(id: Self.orderID, tab: .billing), .universalLink),
      ])
  }

  @Test func pendingRouteCountsEveryWayALinkIsLost() {
    let clock = Clock()
    let pending = PendingRoute<Route>(tracker: nil, now: { clock.now })
    #expect(!pending.receive(link: "fixture://nowhere"))
    #expect(!pending.receive(link: "fixture://product/%FF"))
    #expect(pending.receive(link: "fixture://product/1"))
    // Cold start delivers the same link twice.
    #expect(pending.receive(link: "fixture://product/1"))
    #expect(pending.receive(shortcutType: "com.example.fixture.cart"))
    clock.advance(500)
    #expect(pending.consume() == nil)
    #expect(!pending.receive(notification: ["type": "product_back"]))
    let statistics = pending.statistics
    #expect(statistics.opened == 2)
    #expect(statistics.consumed == 0)
    #expect(statistics.dropped == [.unmatched: 1, .invalid: 2, .duplicate: 1, .superseded: 1, .expired: 1])
    #expect(statistics.invalid == ["invalid-utf8": 1, "parameters": 1])
  }
}

/// The routes of `Tests/GenerateFixtures/hostile.yaml`: keywords as entry point and parameter names,
/// quotes and backslashes in literals, enumeration values, selectors and shortcut types. The generated
/// code compiles (warnings as errors) and every string matches exactly what the config writes.
@Suite struct HostileGeneratedRouteTests {
  typealias Route = HostileTracking.Route

  @Test func hostileLiteralsAndValuesMatchExactly() throws {
    #expect(Route(link: #"hostile://home/x%22y%5Cz/c%5Cd?q%22=%22);%20evil(%22"#) == .class(in: .cD, default: "\"); evil(\""))
    #expect(Route(link: #"hostile://home/x"y\z/a"b"#) == .class(in: .aB, default: nil))
    #expect(Route(link: "hostile://home/xy/a%22b") == nil)
    #expect(Route.ClassIn.allCases.map(\.rawValue) == ["a\"b", "c\\d", "e"])
    for route in [Route.class(in: .aB, default: "\\(x)"), .class(in: .e, default: nil), .url_(self_: 3)] {
      #expect(Route(url: try #require(route.url)) == route)
    }
  }

  @Test func hostileSelectorsAndShortcutTypesMatchExactly() {
    #expect(Route(notification: ["type": "\"); fatalError(\"", "kind": "\u{202E}\u{0}", "in": "c\\d"]) == .class(in: .cD, default: nil))
    #expect(Route(notification: ["type": "\"); fatalError(\"", "kind": "\u{202E}", "in": "c\\d"]) == nil)
    #expect(Route(shortcutType: "\\(x)\" + evil") == .class(in: nil, default: nil))
    #expect(Route.shortcuts.map(\.title) == ["line\nbreak */"])
    #expect(Route.url_(self_: 1).entryPoint == "url")
  }
}
