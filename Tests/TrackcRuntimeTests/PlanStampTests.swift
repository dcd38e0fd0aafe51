import Foundation
import Testing
import TrackcCollector
import TrackcTestSupport

@_spi(Generated) @testable import TrackcRuntime

/// Which plan built an event: the registry's plan version and content hash (`TrackingRegistry.plan`) are
/// on every call a collector gets (`context.trackingPlan`), journaled with the snapshot (so an event
/// queued by the previous release goes out with that release's plan), and the project's collector, on
/// 127.0.0.1, flags a call built from another plan than the one it checks (`other-plan`).
@Suite struct PlanStampTests {
  struct Registry: TestRegistryRules {
    var base = TestRegistry()
    var stamp: PlanStamp?
    var plan: PlanStamp? { stamp }
  }

  static let current = PlanStamp(version: "2026.11", hash: "fnv1a64:00000000000000aa")
  static let previous = PlanStamp(version: "2026.10", hash: "fnv1a64:00000000000000bb")

  @Test func everyCallCarriesThePlanAndTheCollectorFlagsAnother() async throws {
    let collector = try await DeliveryHarness.start {
      var plan = CollectorPlan(events: ["CTRL_DETAIL_BUY": .init(routing: .unrestricted)], destinations: nil)
      plan.planVersion = Self.current.version
      plan.planHash = Self.current.hash
      $0.plan = plan
    }
    // The previous release queued an event and an identify, and never delivered them (the collector down).
    let directory = try TemporaryDirectory()
    let journal = JournalConfiguration(storage: .directory(directory.url))
    do {
      var failing = TrackcCollector.CollectorConfiguration.Faults()
      failing.failStatus = 503
      try collector.setFaults(failing)
      let tracker = Tracker(
        registry: Registry(stamp: Self.previous), destinations: [try DeliveryHarness.destination(collector)], journal: journal,
        retry: DeliveryHarness.retry)
      tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(0)])
      tracker.identify(userID: "user-1")
    }
    try collector.setFaults(.init())
    let tracker = Tracker(
      registry: Registry(stamp: Self.current), destinations: [try DeliveryHarness.destination(collector)], journal: journal,
      retry: DeliveryHarness.retry)
    tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(1)])
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    let received = collector.received
    #expect(received.map(\.planHash) == [Self.previous.hash, Self.previous.hash, Self.current.hash])
    #expect(received.map(\.planVersion) == ["2026.10", "2026.10", "2026.11"])
    #expect(received.last?.json.contains(#""trackingPlan":{"version":"2026.11","hash":"fnv1a64:00000000000000aa"}"#) == true)
    // The two the previous plan built are flagged; the current one is not.
    #expect(collector.violations.map(\.rule) == [.otherPlan, .otherPlan], "\(collector.violations)")
    #expect(collector.violations.first?.message.contains("version '2026.10'") == true)
    await collector.stop()
  }

  /// The snapshot record keeps the plan, with and without consent fields before it, and an older record
  /// (no plan fields) reads as none.
  @Test func theSnapshotRecordKeepsThePlan() throws {
    for consent in [ConsentStamp(), ConsentStamp(granted: ["ads": 2])] {
      for plan in [nil, Self.current, PlanStamp(version: nil, hash: "fnv1a64:0000000000000001")] {
        let snapshot = EventSnapshot(identity: TrackingIdentity(anonymousID: "a"), context: TrackingContext(), consent: consent, plan: plan)
        let size = SnapshotCoding.encodedSize(snapshot, number: 1)
        var bytes = [UInt8](repeating: 0, count: size)
        let written = bytes.withUnsafeMutableBytes { SnapshotCoding.encode(snapshot, number: 1, into: $0.baseAddress!) }
        #expect(written == size)
        let decoded = bytes.withUnsafeBytes { SnapshotCoding.decode($0) }
        #expect(decoded?.snapshot == snapshot, "\(consent) \(String(describing: plan))")
      }
    }
  }
}
