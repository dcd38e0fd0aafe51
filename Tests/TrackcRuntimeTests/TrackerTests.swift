import Foundation
import Testing
import TrackcTestSupport

@_spi(Generated) @testable import TrackcRuntime

/// The tracker: rules resolved through the registry, routing, remote configuration, and delivery that
/// keeps order and never lets one destination hold up another.
extension Tracker {
  /// An unrestricted event of a screen, by hand.
  func trackManual(screen: String) {
    track(UnrestrictedEvent.detailBuy, screen: screen)
  }
}

enum UnrestrictedEvent: String, TrackingEventID {
  case detailBuy = "CTRL_DETAIL_BUY"
}

@Suite struct TrackerTests {
  struct Failure: Error {}

  /// Throws for its first `failures` events offered, then takes them.
  final class FlakyDestination: TrackingDestination, @unchecked Sendable {
    let id: String
    let inner: InMemoryDestination
    private let lock = NSLock()
    private var failuresLeft: Int
    init(id: String, failures: Int) {
      self.id = id
      inner = InMemoryDestination(id: id)
      failuresLeft = failures
    }
    func receive(_ event: TrackingEvent) throws {
      lock.lock()
      defer { lock.unlock() }
      if failuresLeft > 0 {
        failuresLeft -= 1
        throw Failure()
      }
      inner.receive(event)
    }
  }

  /// Blocks in `receive` until released: a destination that is as slow as it gets. `entered` is
  /// signalled each time a delivery reaches it, so tests synchronise on real delivery, not on time.
  final class BlockedDestination: TrackingDestination, @unchecked Sendable {
    let id: String
    let release = DispatchSemaphore(value: 0)
    let entered = DispatchSemaphore(value: 0)
    let inner: InMemoryDestination
    init(id: String) {
      self.id = id
      inner = InMemoryDestination(id: id)
    }
    func receive(_ event: TrackingEvent) {
      entered.signal()
      release.wait()
      release.signal()
      inner.receive(event)
    }
  }

  /// Only wants events of one screen.
  final class PickyDestination: TrackingDestination, @unchecked Sendable {
    let id = "picky"
    let inner = InMemoryDestination(id: "picky")
    func isApplicable(to event: TrackingEvent) -> Bool { event.screen == "HomeScreen" }
    func receive(_ event: TrackingEvent) { inner.receive(event) }
  }

  /// How long a test waits for a condition (`Tracker.waitUntil`) before it fails: a bound for a starved
  /// machine, scaled under a sanitizer. The wait ends as soon as the condition holds.
  static let patience = TimeLimits.seconds(10)

  @Test func eventsCarryTheRuleScreenHandlerAndProperties() throws {
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = Tracker(registry: TestRegistry(), destinations: [firebase])
    tracker.trackPage(of: HomeScreen.self, .enter)
    tracker.trackControl(of: HomeScreen.self, handler: TestRegistry.Handlers.onFav)
    tracker.trackControl(of: GiftDetailScreen.self, handler: TestRegistry.Handlers.onBuy)
    tracker.trackControl(of: HomeScreen.self, handler: TestRegistry.Handlers.onBuy)  // not mapped on Home
    tracker.trackPage(of: DetailScreen.self, .enter)  // no page events
    tracker.trackPage(of: String.self, .enter)  // not a screen
    #expect(tracker.flush())
    let events = firebase.events
    #expect(events.map(\.id) == ["PAGE_HOME_ENTER", "CTRL_HOME_FAV", "CTRL_DETAIL_BUY"])
    #expect(events[0].source == .page(.enter))
    #expect(events[0].screen == "HomeScreen")
    #expect(events[1].handler == "onFav(_:)")
    #expect(events[1].properties == ["source": .string("home")])
    #expect(events[2].screen == "DetailScreen", "a subclass the config does not list counts as its superclass")
    #expect(events[2].properties == ["quantity": .int(1), "express": .bool(false), "price": .double(9.5)])
    #expect(Set(events.map(\.messageID)).count == 3)
    #expect(events[0].timestamp <= events[2].timestamp)
  }

  @Test func routingFollowsTheRule() {
    let firebase = InMemoryDestination(id: "firebase")
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let other = InMemoryDestination(id: "other")
    let tracker = Tracker(registry: TestRegistry(), destinations: [firebase, mixpanel, other])
    tracker.trackPage(of: HomeScreen.self, .enter)  // firebase + mixpanel
    tracker.trackPage(of: HomeScreen.self, .leave)  // firebase only
    tracker.trackControl(of: HomeScreen.self, handler: TestRegistry.Handlers.onShare)  // mixpanel only
    tracker.trackControl(of: DetailScreen.self, handler: TestRegistry.Handlers.onBuy)  // unrestricted
    tracker.flush()
    #expect(firebase.events.map(\.id) == ["PAGE_HOME_ENTER", "PAGE_HOME_LEAVE", "CTRL_DETAIL_BUY"])
    #expect(mixpanel.events.map(\.id) == ["PAGE_HOME_ENTER", "CTRL_HOME_SHARE", "CTRL_DETAIL_BUY"])
    #expect(other.events.map(\.id) == ["CTRL_DETAIL_BUY"])
  }

  @Test func remoteConfigurationSwitchesDestinationsOff() {
    let firebase = InMemoryDestination(id: "firebase")
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let tracker = Tracker(
      registry: TestRegistry(), destinations: [firebase, mixpanel], configuration: FixedDestinationConfiguration(enabled: ["mixpanel"]))
    tracker.trackPage(of: HomeScreen.self, .enter)
    tracker.trackControl(of: DetailScreen.self, handler: TestRegistry.Handlers.onBuy)
    tracker.flush()
    #expect(firebase.events.isEmpty)
    #expect(mixpanel.events.map(\.id) == ["PAGE_HOME_ENTER", "CTRL_DETAIL_BUY"])
    #expect(tracker.statistics["firebase"]?.queued == 0)
  }

  @Test func aDestinationCanDeclineEvents() {
    let picky = PickyDestination()
    let tracker = Tracker(registry: TestRegistry(), destinations: [picky])
    // Unrestricted, so routed to `picky`, which wants Home's events only.
    tracker.trackControl(of: DetailScreen.self, handler: TestRegistry.Handlers.onBuy)
    tracker.trackManual(screen: "HomeScreen")
    tracker.flush()
    #expect(picky.inner.events.map(\.screen) == ["HomeScreen"])
    #expect(tracker.statistics["picky"]?.notApplicable == 1)
    #expect(tracker.statistics["picky"]?.delivered == 1)
  }

  static let quickRetry = RetryPolicy(initial: 0.001, maximum: 0.01)

  @Test func aThrowingDestinationIsRetriedInOrderAndLosesNothing() {
    let flaky = FlakyDestination(id: "firebase", failures: 7)
    let failures = InMemoryDestination(id: "failures-seen")
    let tracker = Tracker(
      registry: TestRegistry(), destinations: [flaky], retry: Self.quickRetry,
      onDeliveryFailure: { event, _, destination in
        failures.receive(
          TrackingEvent(
            id: event.id + "@" + destination, source: .manual, screen: nil, properties: [:], timestamp: event.timestamp, messageID: event.messageID))
      })
    for number in 0..<20 { tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["n": .int(number)]) }
    #expect(tracker.flush(timeout: TimeLimits.seconds(30)))
    #expect(flaky.inner.events.map { $0.properties["n"] } == (0..<20).map { .int($0) }, "every event, once, in order")
    #expect(failures.events.count == 7)
    #expect(failures.events.allSatisfy { $0.id == "CTRL_HOME_FAV@firebase" })
    let statistics = tracker.statistics["firebase"]
    #expect(statistics?.failedAttempts == 7)
    #expect(statistics?.delivered == 20)
    #expect(statistics?.balances == true)
  }

  @Test func aDestinationThatAlwaysThrowsBreaksNobodyElseAndKeepsItsEvents() {
    let broken = FlakyDestination(id: "mixpanel", failures: .max)
    let good = InMemoryDestination(id: "firebase")
    let tracker = Tracker(registry: TestRegistry(), destinations: [broken, good], retry: Self.quickRetry)
    for _ in 0..<50 { tracker.trackPage(of: HomeScreen.self, .enter) }
    #expect(tracker.waitUntil(timeout: Self.patience) { tracker.statistics["firebase"]?.delivered == 50 }, "\(tracker.statistics)")
    #expect(tracker.waitUntil(timeout: Self.patience) { (tracker.statistics["mixpanel"]?.failedAttempts ?? 0) >= 3 }, "\(tracker.statistics)")
    // Nothing of mixpanel's can be delivered now: flush says so at once (no time to wait out).
    #expect(!tracker.flush(timeout: 0), "flush reports what it could not finish")
    let statistics = tracker.statistics["mixpanel"]
    #expect(statistics?.delivered == 0)
    #expect(statistics?.queued == 50, "nothing is dropped for failing")
    #expect(statistics?.balances == true)
    #expect(good.events.count == 50)
  }

  @Test func aBlockedDestinationHoldsUpNobody() {
    let blocked = BlockedDestination(id: "mixpanel")
    let fast = InMemoryDestination(id: "firebase")
    let tracker = Tracker(registry: TestRegistry(), destinations: [blocked, fast])
    // If tracking waited for the blocked destination, this loop would never end.
    for _ in 0..<100 { tracker.trackPage(of: HomeScreen.self, .enter) }
    #expect(tracker.waitUntil(timeout: Self.patience) { fast.events.count == 100 }, "\(tracker.statistics)")
    blocked.entered.wait()  // a delivery has really reached the blocked destination
    #expect(blocked.inner.events.isEmpty)
    #expect(!tracker.flush(timeout: 0), "flush reports what it could not finish")
    blocked.release.signal()
    #expect(tracker.flush())
    #expect(blocked.inner.events.count == 100)
    #expect(tracker.statistics.values.allSatisfy { $0.balances })
  }

  /// Events from one thread arrive in order, whatever other threads do at the same time.
  @Test func eventsFromOneThreadKeepTheirOrder() {
    let destination = InMemoryDestination(id: "mixpanel")
    let tracker = Tracker(registry: TestRegistry(), destinations: [destination])
    let threads = 8
    let perThread = 2_000
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      for number in 0..<perThread {
        tracker.track(TestRegistry.EventID.manualOnly, properties: ["thread": .int(thread), "n": .int(number)])
      }
    }
    #expect(tracker.flush(timeout: TimeLimits.seconds(30)))
    let events = destination.events
    #expect(events.count == threads * perThread)
    for thread in 0..<threads {
      let numbers = events.filter { $0.properties["thread"] == .int(thread) }.compactMap { event -> Int? in
        if case .int(let number)? = event.properties["n"] { return number }
        return nil
      }
      #expect(numbers == Array(0..<perThread), "thread \(thread) out of order")
    }
    #expect(Set(events.map(\.messageID)).count == events.count)
  }

  @Test func eventsTrackedByHandUseTheirIDsRouting() {
    let firebase = InMemoryDestination(id: "firebase")
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let tracker = Tracker(registry: TestRegistry(), destinations: [firebase, mixpanel])
    tracker.track(TestRegistry.EventID.manualOnly, screen: "Checkout", properties: ["step": .int(2)])
    tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["source": .string("widget")])
    tracker.flush()
    #expect(firebase.events.map(\.id) == ["CTRL_HOME_FAV"])
    #expect(firebase.events.first?.properties["source"] == .string("widget"), "properties given by hand win")
    #expect(mixpanel.events.map(\.id) == ["MANUAL_ONLY", "CTRL_HOME_FAV"])
    #expect(mixpanel.events.first?.source == .manual)
    #expect(mixpanel.events.first?.screen == "Checkout")
  }

  /// The Objective-C path: a hooked handler reports by its object's type and the handler's ID (an object
  /// whose type is no screen reports nothing); a page by the view controller's type name
  /// (module-qualified, as `String(reflecting:)` gives it).
  @Test func objectiveCHandlersAndPages() {
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = Tracker(registry: TestRegistry(), destinations: [firebase])
    tracker.trackControl(of: HomeScreen.self, handler: TestRegistry.Handlers.onFav) { _ in nil }
    tracker.trackControl(of: String.self, handler: TestRegistry.Handlers.onFav) { _ in nil }
    tracker.trackPage(screenNamed: "Shop.HomeScreen", .leave)
    tracker.trackPage(screenNamed: "Shop.List<Swift.Int>", .enter)
    tracker.flush()
    #expect(firebase.events.map(\.id) == ["CTRL_HOME_FAV", "PAGE_HOME_LEAVE"])
    #expect(firebase.events.first?.handler == "onFav(_:)")
  }

  @Test func loggingDestinationWritesOneLinePerEvent() {
    let lines = InMemoryDestination(id: "lines")
    let logging = LoggingDestination(id: "firebase") { line in
      lines.receive(TrackingEvent(id: line, source: .manual, screen: nil, properties: [:], timestamp: Date(), messageID: UUID()))
    }
    let tracker = Tracker(registry: TestRegistry(), destinations: [logging])
    tracker.trackControl(of: HomeScreen.self, handler: TestRegistry.Handlers.onFav)
    tracker.trackPage(of: HomeScreen.self, .enter)
    tracker.flush()
    #expect(
      lines.events.map(\.id) == [
        "[firebase] CTRL_HOME_FAV HomeScreen.onFav(_:) {source: home}",
        "[firebase] PAGE_HOME_ENTER HomeScreen enter",
      ])
  }
}

/// The entry points generated interceptors call. They use the one installed tracker, which
/// `Interception.withTracker` lends to one test at a time.
@Suite struct InterceptionTests {
  @Test func interceptedCallsReportToTheInstalledTracker() {
    let firebase = InMemoryDestination(id: "firebase")
    let home = HomeScreen()
    let tracker = Tracker(registry: TestRegistry(), destinations: [firebase])
    Interception.withTracker(tracker) {
      interceptedCalls(home)
      #expect(Interception.tracker === tracker)
    }
    tracker.flush()
    #expect(
      firebase.events.map(\.id) == ["PAGE_HOME_ENTER", "CTRL_HOME_FAV", "CTRL_DETAIL_BUY", "PAGE_CART_ENTER", "CTRL_HOME_FAV", "PAGE_HOME_LEAVE"])
  }

  func interceptedCalls(_ home: HomeScreen) {
    Interception.beginPage(home, .enter).end()
    Interception.beginControl(home, TestRegistry.Handlers.onFav).end()
    let detail: DetailScreen = GiftDetailScreen()
    Interception.beginControl(detail, TestRegistry.Handlers.onBuy).end()  // the dynamic type counts
    Interception.beginPage(CartView(), .enter).end()  // value types are screens too (dynamic replacement)
    Interception.beginControl(object: home, TestRegistry.Handlers.onFav) { _ in nil }.end()  // a hooked Objective-C handler
    Interception.page(className: "App.HomeScreen", .leave)
  }

  /// What generated replacements of a method and of its override do when the override calls `super`:
  /// the inner scope, for the same object and handler, reports nothing.
  @Test func nestedInterceptionsOfOneCallReportOnce() throws {
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = Tracker(registry: TestRegistry(), destinations: [firebase])
    Interception.withTracker(tracker) { nestedCalls() }
    tracker.flush()
    #expect(
      firebase.events.map(\.id) == [
        "CTRL_HOME_FAV", "CTRL_HOME_FAV", "CTRL_HOME_FAV", "CTRL_HOME_FAV", "CTRL_HOME_FAV", "PAGE_HOME_ENTER", "PAGE_CART_ENTER",
        "PAGE_CART_ENTER",
      ])
    // Nothing installed: nothing reported, and ending is harmless. In a turn of its own: outside one, the
    // call would report to whatever tracker a test running in parallel has installed (found by CI's
    // ThreadSanitizer run, where `interceptedCallsReportToTheInstalledTracker` got a second CTRL_HOME_FAV).
    Interception.withTracker(nil) {
      #expect(Interception.tracker == nil)
      Interception.beginControl(HomeScreen(), TestRegistry.Handlers.onFav).end()
    }
    #expect(Interception.tracker == nil)
    tracker.flush()
    #expect(firebase.events.count == 8, "the call made with no tracker installed reported nothing")
  }

  func nestedCalls() {
    let home = HomeScreen()
    func call(_ screen: HomeScreen, _ handler: HandlerID, inside body: () -> Void = {}) {
      let scope = Interception.beginControl(screen, handler)
      defer { scope.end() }
      body()
    }
    // An override calling super: same object, same handler.
    call(home, TestRegistry.Handlers.onFav) { call(home, TestRegistry.Handlers.onFav) }
    // A handler that calls another handler: both report (onShare goes to mixpanel only).
    call(home, TestRegistry.Handlers.onFav) { call(home, TestRegistry.Handlers.onShare) }
    // Another object of the same screen inside: both report.
    call(home, TestRegistry.Handlers.onFav) { call(HomeScreen(), TestRegistry.Handlers.onFav) }
    // After a scope ends, the same call reports again.
    call(home, TestRegistry.Handlers.onFav)
    // Page events nest the same way.
    let outer = Interception.beginPage(home, .enter)
    let inner = Interception.beginPage(home, .enter)
    inner.end()
    outer.end()
    // Value types have no identity and cannot override: every call reports.
    let first = Interception.beginPage(CartView(), .enter)
    let second = Interception.beginPage(CartView(), .enter)
    second.end()
    first.end()
  }
}
