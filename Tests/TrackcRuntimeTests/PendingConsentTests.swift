import Foundation
import Testing

@testable @_spi(Generated) import TrackcRuntime

/// Consent that waits (`default: pending`): until the person's first answer, events for the category's
/// destinations are journaled and held, not sent and not dropped; a grant sends them, a refusal drops
/// and counts them (`consentDenied`); the plan bounds how many wait and for how long
/// (`consentPendingLimit`); a collector holds everything while a category is pending, and sends an event
/// past the limits without the pending destinations. Under kill -9: `PendingConsentCrashTests`.
@Suite struct PendingConsentTests {
  /// `TestRegistry`'s rules; firebase gated by `analytics` (granted until answered), mixpanel by `ads`,
  /// which waits for the first answer.
  struct PendingRegistry: TestRegistryRules {
    var base = TestRegistry()
    var limits = PendingConsentLimits.default
    func applicationRule(_ event: ApplicationEvent) -> EventRule? { base.applicationRule(event) }
    func consentCategory(ofDestination id: String) -> String? {
      switch id {
      case "firebase": return "analytics"
      case "mixpanel": return "ads"
      default: return nil
      }
    }
    var consentDefaults: [String: Bool] { ["analytics": true, "ads": false] }
    var consentGatedDestinations: [String] { ["firebase", "mixpanel"] }
    var pendingConsentCategories: Set<String> { ["ads"] }
    var pendingConsentLimits: PendingConsentLimits { limits }
    /// Each destination's own `pending_hours`.
    var hours: [String: Double] = [:]
    func pendingConsentHours(ofDestination id: String) -> Double? { hours[id] }
  }

  static let quickRetry = RetryPolicy(initial: 0.001, maximum: 0.005)

  func fav(_ tracker: Tracker, _ number: Int) {
    tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["n": .int(number)])  // firebase and mixpanel
  }

  /// Held while pending (firebase, granted, has them all; mixpanel none, all queued), sent on the grant,
  /// in order; from then on nothing waits.
  @Test func eventsWaitForTheFirstAnswerAndGoOnAGrant() throws {
    let firebase = InMemoryDestination(id: "firebase")
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let tracker = Tracker(registry: PendingRegistry(), destinations: [firebase, mixpanel], retry: Self.quickRetry)
    #expect(tracker.pendingConsent == ["ads"])
    #expect(tracker.consent == ["analytics": true, "ads": false])
    for number in 0..<5 { fav(tracker, number) }
    #expect(tracker.waitUntil(timeout: TrackerTests.patience) { firebase.events.count == 5 })
    // Its lane had as long as firebase's, and holds: nothing handed over, everything queued.
    #expect(mixpanel.events.isEmpty)
    #expect(tracker.statistics["mixpanel"]?.queued == 5 && tracker.statistics["mixpanel"]?.dropped == 0)
    tracker.setConsent("ads", granted: true)
    #expect(tracker.pendingConsent.isEmpty)
    fav(tracker, 5)
    #expect(tracker.flush())
    #expect(JournalTests.numbers(mixpanel.events) == [0, 1, 2, 3, 4, 5])
    #expect(tracker.statistics["mixpanel"]?.balances == true)
  }

  /// Refused: what waited is dropped and counted as `consentDenied`, and nothing more is routed there; a
  /// later grant lets through what is tracked from then on, never what waited.
  @Test func aRefusalDropsWhatWaitedAndCountsIt() throws {
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let tracker = Tracker(registry: PendingRegistry(), destinations: [mixpanel], retry: Self.quickRetry)
    for number in 0..<4 { fav(tracker, number) }
    tracker.setConsent("ads", granted: false)
    #expect(tracker.flush())
    #expect(mixpanel.events.isEmpty)
    fav(tracker, 4)  // refused: not routed
    tracker.setConsent("ads", granted: true)
    fav(tracker, 5)
    #expect(tracker.flush())
    #expect(JournalTests.numbers(mixpanel.events) == [5])
    let statistics = try #require(tracker.statistics["mixpanel"])
    #expect(statistics.droppedByReason == [.consentDenied: 4] && statistics.balances, "\(statistics)")
  }

  /// A collector stands for several destinations, and an event goes to it once, with all of them (a
  /// second copy would be dropped as a duplicate of its message ID): it holds every event for a pending
  /// category's destination (one for every destination included) while the category is pending, and
  /// delivers meanwhile what is for no pending destination. Granted, each held event goes with every
  /// destination it is for; refused, narrowed to the others, or dropped (counted) when it was for the
  /// refused ones alone.
  @Test(arguments: [true, false])
  func aCollectorHoldsWhatIsForAPendingCategoryUntilTheAnswer(granted: Bool) throws {
    let collector = ConsentTests.GatedDoor(id: "collector", role: .collector)
    collector.opened()
    let tracker = Tracker(registry: PendingRegistry(), destinations: [collector], retry: Self.quickRetry)
    fav(tracker, 0)  // firebase and mixpanel
    tracker.track(TestRegistry.EventID.manualOnly, properties: ["n": .int(1)])  // mixpanel alone
    tracker.trackPage(of: HomeScreen.self, .leave)  // firebase alone: not held
    tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(3)])  // every destination: held
    #expect(tracker.waitUntil(timeout: TrackerTests.patience) { collector.inner.events.count == 1 }, "\(tracker.statistics)")
    #expect(collector.inner.events.map(\.id) == ["PAGE_HOME_LEAVE"])
    #expect(tracker.statistics["collector"]?.queued == 3)
    tracker.setConsent("ads", granted: granted)
    #expect(tracker.flush())
    let events = collector.inner.events
    #expect(events.map(\.id) == ["PAGE_HOME_LEAVE", "CTRL_HOME_FAV"] + (granted ? ["MANUAL_ONLY"] : []) + ["CTRL_DETAIL_BUY"])
    if granted {
      #expect(events.map(\.forwardedTo) == [["firebase"], ["firebase", "mixpanel"], ["mixpanel"], nil])
      #expect(events.last?.withheldFrom == [])
    } else {
      #expect(events.map(\.forwardedTo) == [["firebase"], ["firebase"], nil])
      #expect(events.last?.withheldFrom == ["mixpanel"])
      #expect(tracker.statistics["collector"]?.droppedByReason == [.consentDenied: 1])
    }
    #expect(tracker.statistics["collector"]?.balances == true)
  }

  /// An event for no pending destination is not held behind one that waits: with one collector and
  /// `ads` pending, what is for firebase alone (granted) arrives while mixpanel's wait, and an
  /// in-process destination no category gates gets everything at once.
  @Test func ungatedDestinationsAreDeliveredWhileOthersWait() throws {
    let collector = InMemoryDestination(id: "collector")
    let open = InMemoryDestination(id: "open")
    let tracker = Tracker(registry: PendingRegistry(), destinations: [RoleCollector(collector), open], retry: Self.quickRetry)
    for number in 0..<3 {
      fav(tracker, number)  // firebase and mixpanel: waits
      tracker.trackPage(of: HomeScreen.self, .leave)  // firebase alone: goes
      tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(number)])  // open in process, and all through the collector
    }
    #expect(tracker.waitUntil(timeout: TrackerTests.patience) { collector.events.count == 3 && open.events.count == 3 }, "\(tracker.statistics)")
    #expect(collector.events.allSatisfy { $0.id == "PAGE_HOME_LEAVE" })
    tracker.setConsent("ads", granted: true)
    #expect(tracker.flush())
    #expect(collector.events.count == 9 && tracker.statistics["collector"]?.balances == true)
  }

  /// A destination's own limit (`pending_hours`) where it differs from the plan's: mixpanel's is shorter,
  /// so its events stop waiting (dropped, counted) while the plan's limit would still hold them; and a
  /// collector waits no longer than the shortest of the pending destinations it stands for.
  @Test func aDestinationsOwnLimitCountsForIt() throws {
    var registry = PendingRegistry()
    registry.limits = PendingConsentLimits(events: 1000, seconds: 3600)
    registry.hours = ["mixpanel": 0.2 / 3600]
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let collector = InMemoryDestination(id: "collector")
    let tracker = Tracker(registry: registry, destinations: [mixpanel, RoleCollector(collector)], retry: Self.quickRetry)
    tracker.track(TestRegistry.EventID.manualOnly, properties: ["n": .int(0)])  // mixpanel, in process
    tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(1)])  // the collector too: waits for mixpanel
    #expect(
      tracker.waitUntil(timeout: TrackerTests.patience) {
        tracker.statistics["mixpanel"]?.droppedByReason[.consentPendingLimit] == 2 && collector.events.count == 1
      }, "\(tracker.statistics)")
    #expect(mixpanel.events.isEmpty)
    #expect(collector.events.first?.withheldFrom == ["mixpanel"], "sent on without the destination it waited for")
    #expect(tracker.pendingConsent == ["ads"])
  }

  /// At most `events` wait: past that the oldest go without the pending destination; for the lane of a
  /// destination of the category that is nothing (dropped, counted as `consentPendingLimit`), for a
  /// collector the others it forwards to. The newest wait on, and go on the grant.
  @Test func theOldestPastTheCountLimitGoWithoutThePendingDestination() throws {
    var registry = PendingRegistry()
    registry.limits = PendingConsentLimits(events: 3, seconds: 3600)
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let inProcess = Tracker(registry: registry, destinations: [mixpanel], retry: Self.quickRetry)
    let collector = InMemoryDestination(id: "collector")
    let forwarding = Tracker(registry: registry, destinations: [RoleCollector(collector)], retry: Self.quickRetry)
    for number in 0..<8 {
      fav(inProcess, number)
      fav(forwarding, number)
    }
    #expect(
      inProcess.waitUntil(timeout: TrackerTests.patience) { inProcess.statistics["mixpanel"]?.droppedByReason[.consentPendingLimit] == 5 },
      "\(inProcess.statistics)")
    #expect(forwarding.waitUntil(timeout: TrackerTests.patience) { collector.events.count == 5 }, "\(forwarding.statistics)")
    // The collector sent the five oldest on for firebase alone; it holds the newest three.
    #expect(JournalTests.numbers(collector.events) == [0, 1, 2, 3, 4])
    #expect(collector.events.allSatisfy { $0.forwardedTo == ["firebase"] })
    #expect(mixpanel.events.isEmpty)
    inProcess.setConsent("ads", granted: true)
    forwarding.setConsent("ads", granted: true)
    #expect(inProcess.flush() && forwarding.flush())
    #expect(JournalTests.numbers(mixpanel.events) == [5, 6, 7])
    #expect(JournalTests.numbers(collector.events) == [0, 1, 2, 3, 4, 5, 6, 7])
    #expect(collector.events.suffix(3).allSatisfy { $0.forwardedTo == ["firebase", "mixpanel"] }, "\(collector.events.map(\.forwardedTo))")
    #expect(inProcess.statistics.values.allSatisfy { $0.balances } && forwarding.statistics.values.allSatisfy { $0.balances })
  }

  /// Nothing waits longer than `seconds` after it was tracked.
  @Test func nothingWaitsPastTheAgeLimit() throws {
    var registry = PendingRegistry()
    registry.limits = PendingConsentLimits(events: 1000, seconds: 0.2)
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let tracker = Tracker(registry: registry, destinations: [mixpanel], retry: Self.quickRetry)
    for number in 0..<3 { fav(tracker, number) }
    #expect(
      tracker.waitUntil(timeout: TrackerTests.patience) { tracker.statistics["mixpanel"]?.droppedByReason[.consentPendingLimit] == 3 },
      "\(tracker.statistics)")
    #expect(mixpanel.events.isEmpty)
    #expect(tracker.pendingConsent == ["ads"], "the category still waits for its answer")
  }

  /// What waits is in the journal: a restart (a new process) still holds it, then delivers it on the
  /// grant; the pending state itself is kept too (no answer yet).
  @Test func whatWaitsSurvivesARestart() throws {
    let directory = try TemporaryDirectory()
    let journal = JournalConfiguration(storage: .directory(directory.url))
    do {
      let firebase = InMemoryDestination(id: "firebase")
      let tracker = Tracker(
        registry: PendingRegistry(), destinations: [firebase, InMemoryDestination(id: "mixpanel")], journal: journal, retry: Self.quickRetry)
      for number in 0..<3 { fav(tracker, number) }
      #expect(tracker.waitUntil(timeout: TrackerTests.patience) { firebase.events.count == 3 })
    }
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let tracker = Tracker(
      registry: PendingRegistry(), destinations: [InMemoryDestination(id: "firebase"), mixpanel], journal: journal, retry: Self.quickRetry)
    #expect(tracker.pendingConsent == ["ads"])
    #expect(tracker.waitUntil(timeout: TrackerTests.patience) { tracker.statistics["mixpanel"]?.recovered == 3 })
    #expect(mixpanel.events.isEmpty)
    tracker.setConsent("ads", granted: true)
    #expect(tracker.flush())
    #expect(JournalTests.numbers(mixpanel.events) == [0, 1, 2])
  }

  /// The application events tracked at launch, before any dialog can be shown, wait like any other and
  /// reach a destination granted later.
  @Test func theApplicationEventsAtLaunchWaitToo() throws {
    var registry = PendingRegistry()
    registry.base.applicationEvents = [.installed, .opened]
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let tracker = Tracker(registry: registry, destinations: [mixpanel], retry: Self.quickRetry)
    tracker.applicationDidLaunch()
    #expect(tracker.waitUntil(timeout: TrackerTests.patience) { tracker.statistics["mixpanel"]?.queued == 2 })
    #expect(mixpanel.events.isEmpty)
    tracker.setConsent("ads", granted: true)
    #expect(tracker.flush())
    #expect(mixpanel.events.map(\.id) == ["Application Installed", "Application Opened"])
  }
}

/// An in-memory destination in the collector's role (what `HTTPCollectorDestination` is).
final class RoleCollector: TrackingDestination, @unchecked Sendable {
  let inner: InMemoryDestination
  var id: String { inner.id }
  var role: DestinationRole { .collector }
  init(_ inner: InMemoryDestination) { self.inner = inner }
  func receive(_ event: TrackingEvent) throws { inner.receive(event) }
}
