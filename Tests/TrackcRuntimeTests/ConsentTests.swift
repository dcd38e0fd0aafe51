import Foundation
import Testing

@testable @_spi(Generated) import TrackcRuntime

/// Consent at run time: a destination gated by a category gets events only while it is granted; the
/// plan's defaults hold until the person answers; revoking drops what is queued (counted) and nothing
/// tracked before is handed over once `setConsent` returns, even after the category is granted again;
/// a collector's forwarding is narrowed the same way; answers survive a restart. (Under kill -9:
/// `ConsentCrashTests`.)
@Suite struct ConsentTests {
  /// `TestRegistry`'s rules, with firebase gated by `analytics` (granted until answered) and mixpanel by
  /// `ads` (denied until answered), as `trackc generate` writes them from a plan with `privacy.consent`.
  struct ConsentRegistry: TestRegistryRules {
    let base = TestRegistry()
    func consentCategory(ofDestination id: String) -> String? {
      switch id {
      case "firebase": return "analytics"
      case "mixpanel": return "ads"
      default: return nil
      }
    }
    var consentDefaults: [String: Bool] { ["analytics": true, "ads": false] }
    var consentGatedDestinations: [String] { ["firebase", "mixpanel"] }
  }

  /// Refuses everything until opened (a destination that is down), then keeps what it gets.
  final class GatedDoor: TrackingDestination, @unchecked Sendable {
    struct Closed: Error {}
    let id: String
    let role: DestinationRole
    let inner: InMemoryDestination
    private let lock = NSLock()
    private var open = false
    init(id: String, role: DestinationRole = .planDestination) {
      self.id = id
      self.role = role
      inner = InMemoryDestination(id: id)
    }
    func opened() {
      lock.withLock { open = true }
    }
    func receive(_ event: TrackingEvent) throws {
      guard lock.withLock({ open }) else { throw Closed() }
      inner.receive(event)
    }
  }

  static let quickRetry = RetryPolicy(initial: 0.001, maximum: 0.005)

  func fav(_ tracker: Tracker, _ number: Int) {
    tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["n": .int(number)])
  }

  @Test func thePlansDefaultsHoldUntilThePersonAnswers() throws {
    let firebase = InMemoryDestination(id: "firebase")
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let tracker = Tracker(registry: ConsentRegistry(), destinations: [firebase, mixpanel])
    #expect(tracker.consent == ["analytics": true, "ads": false])
    // Each delivered before the next answer (an answer that revokes drops what is still queued).
    fav(tracker, 0)
    #expect(tracker.flush())
    tracker.setConsent("ads", granted: true)
    fav(tracker, 1)
    #expect(tracker.flush())
    tracker.setConsent(["analytics": false])
    fav(tracker, 2)
    #expect(tracker.flush())
    #expect(JournalTests.numbers(firebase.events) == [0, 1])
    #expect(JournalTests.numbers(mixpanel.events) == [1, 2])
    #expect(tracker.consent == ["analytics": false, "ads": true])
    // Nothing was queued when it was revoked, so nothing was dropped: the later events were not routed.
    #expect(tracker.statistics["firebase"]?.dropped == 0 && tracker.statistics["firebase"]?.balances == true)
  }

  @Test func revokingDropsWhatIsQueuedAndCountsIt() throws {
    let mixpanel = GatedDoor(id: "mixpanel")
    let tracker = Tracker(registry: ConsentRegistry(), destinations: [mixpanel], retry: Self.quickRetry)
    tracker.setConsent("ads", granted: true)
    for number in 0..<5 { fav(tracker, number) }
    tracker.setConsent("ads", granted: false)
    mixpanel.opened()
    #expect(tracker.flush())
    #expect(mixpanel.inner.events.isEmpty)
    let statistics = try #require(tracker.statistics["mixpanel"])
    #expect(statistics.droppedByReason[.consentRevoked] == 5 && statistics.balances, "\(statistics)")
  }

  /// Granting again lets through what is tracked from then on, never what was tracked before the
  /// revocation.
  @Test func grantingAgainDoesNotBringBackWhatWasRevoked() throws {
    let mixpanel = GatedDoor(id: "mixpanel")
    let tracker = Tracker(registry: ConsentRegistry(), destinations: [mixpanel], retry: Self.quickRetry)
    tracker.setConsent("ads", granted: true)
    for number in 0..<3 { fav(tracker, number) }
    tracker.setConsent("ads", granted: false)
    tracker.setConsent("ads", granted: true)
    for number in 3..<5 { fav(tracker, number) }
    mixpanel.opened()
    #expect(tracker.flush())
    #expect(JournalTests.numbers(mixpanel.inner.events) == [3, 4])
    #expect(tracker.statistics["mixpanel"]?.droppedByReason[.consentRevoked] == 3)
  }

  /// Once `setConsent` returns, nothing tracked before it is handed over: a hand-over in progress
  /// (the destination is inside `receive`) finishes before the revocation returns, and the next event
  /// is dropped.
  @Test func aRevocationWaitsForTheHandOverInProgress() throws {
    let mixpanel = TrackerTests.BlockedDestination(id: "mixpanel")
    let tracker = Tracker(registry: ConsentRegistry(), destinations: [mixpanel])
    tracker.setConsent("ads", granted: true)
    fav(tracker, 0)
    fav(tracker, 1)
    mixpanel.entered.wait()  // the lane is handing event 0 over
    let revoked = DispatchSemaphore(value: 0)
    let receivedWhenRevoked = Box()
    Thread {
      tracker.setConsent("ads", granted: false)
      receivedWhenRevoked.value = mixpanel.inner.events.count
      revoked.signal()
    }.start()
    // The revocation is recorded (and waits for the hand-over); only then does the destination finish.
    // (`setConsent` records the answer, stamped into the journal, before it waits for the hand-over.)
    #expect(tracker.waitUntil(timeout: TrackerTests.patience) { tracker.consent["ads"] == false })
    mixpanel.release.signal()
    revoked.wait()
    #expect(receivedWhenRevoked.value == 1, "the revocation returned only once event 0 was handed over")
    #expect(tracker.flush())
    #expect(JournalTests.numbers(mixpanel.inner.events) == [0])
    #expect(tracker.statistics["mixpanel"]?.droppedByReason[.consentRevoked] == 1)
  }

  final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0
    var value: Int {
      get { lock.withLock { stored } }
      set { lock.withLock { stored = newValue } }
    }
  }

  /// A collector forwards each event to the plan destinations it is for: consent narrows that list, and
  /// an event left for none is not sent.
  @Test func aCollectorsForwardingIsNarrowedByConsent() throws {
    let collector = GatedDoor(id: "collector", role: .collector)
    let tracker = Tracker(registry: ConsentRegistry(), destinations: [collector], retry: Self.quickRetry)
    tracker.setConsent("ads", granted: true)
    fav(tracker, 0)  // for firebase and mixpanel
    tracker.track(TestRegistry.EventID.manualOnly, properties: ["n": .int(1)])  // for mixpanel only
    tracker.setConsent("ads", granted: false)
    fav(tracker, 2)
    tracker.track(TestRegistry.EventID.manualOnly, properties: ["n": .int(3)])  // for no one consented: not routed
    collector.opened()
    #expect(tracker.flush())
    let events = collector.inner.events
    #expect(JournalTests.numbers(events) == [0, 2])
    #expect(events.map(\.forwardedTo) == [["firebase"], ["firebase"]])
    let statistics = try #require(tracker.statistics["collector"])
    #expect(statistics.droppedByReason[.consentRevoked] == 1 && statistics.balances, "\(statistics)")
  }

  @Test func answersSurviveARestartAndStillDropWhatWasRevoked() throws {
    let directory = try TemporaryDirectory()
    let journal = JournalConfiguration(storage: .directory(directory.url))
    do {
      let tracker = Tracker(
        registry: ConsentRegistry(), destinations: [JournalTests.UnreachableDestination(id: "mixpanel")], journal: journal,
        retry: JournalTests.slowRetry)
      tracker.setConsent("ads", granted: true)
      for number in 0..<4 { fav(tracker, number) }
      tracker.setConsent("ads", granted: false)
      // The failing destination's backoff is cut short: the revocation drops the four at once. (What a
      // process killed before that leaves queued is dropped by the next one: `ConsentCrashTests`.)
      #expect(
        tracker.waitUntil(timeout: TrackerTests.patience) { tracker.statistics["mixpanel"]?.droppedByReason[.consentRevoked] == 4 },
        "\(tracker.statistics)")
    }
    do {
      // The next launch: the answers are read back, and nothing tracked before the revocation comes back.
      let mixpanel = InMemoryDestination(id: "mixpanel")
      let tracker = Tracker(registry: ConsentRegistry(), destinations: [mixpanel], journal: journal, retry: Self.quickRetry)
      #expect(tracker.consent == ["analytics": true, "ads": false])
      #expect(tracker.flush())
      #expect(mixpanel.events.isEmpty)
      let statistics = try #require(tracker.statistics["mixpanel"])
      #expect(statistics.recovered == 0 && statistics.balances, "\(statistics)")
      tracker.setConsent("ads", granted: true)
      fav(tracker, 4)
      #expect(tracker.flush())
      #expect(JournalTests.numbers(mixpanel.events) == [4])
    }
    do {
      let tracker = Tracker(registry: ConsentRegistry(), destinations: [InMemoryDestination(id: "mixpanel")], journal: journal)
      #expect(tracker.consent == ["analytics": true, "ads": true])
    }
  }

  /// Identity changes keep the consent in force (they write a new snapshot too).
  @Test func identifyKeepsTheConsentStamp() throws {
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let tracker = Tracker(registry: ConsentRegistry(), destinations: [mixpanel])
    tracker.setConsent("ads", granted: true)
    tracker.identify(userID: "user-1")
    fav(tracker, 0)
    tracker.reset()
    fav(tracker, 1)
    #expect(tracker.flush())
    #expect(JournalTests.numbers(mixpanel.events) == [0, 1])
  }

  @Test func theStateFileAndTheSnapshotRecordReadBackTheConsent() throws {
    var state = StateFile.State(identity: TrackingIdentity(anonymousID: "a"))
    state.consent.apply(["ads": true, "analytics": false, "odd, name=1": true], defaults: ["analytics": true])
    #expect(state.consent.categories["analytics"] == ConsentAnswers.Answer(granted: false, revocations: 1))
    #expect(StateFile.decode(StateFile.encode(state)) == state)
    // A pending category refused at its first answer (what waited for it is then `consentDenied`).
    state.consent.apply(["marketing": false], defaults: ["marketing": false], pending: ["marketing"])
    #expect(state.consent.categories["marketing"] == ConsentAnswers.Answer(granted: false, revocations: 1, refusedWhilePending: true))
    #expect(StateFile.decode(StateFile.encode(state)) == state)
    let snapshot = EventSnapshot(
      identity: state.identity, context: TrackingContext(), consent: ConsentStamp(granted: ["ads": 0, "odd, name=1": 2]))
    let size = SnapshotCoding.encodedSize(snapshot, number: 3)
    var bytes = [UInt8](repeating: 0, count: size)
    let written = bytes.withUnsafeMutableBytes { SnapshotCoding.encode(snapshot, number: 3, into: $0.baseAddress!) }
    #expect(written == size)
    let decoded = try #require(bytes.withUnsafeBytes { SnapshotCoding.decode($0) })
    #expect(decoded.number == 3 && decoded.snapshot == snapshot)
  }
}
