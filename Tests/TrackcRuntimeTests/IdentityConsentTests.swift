import Foundation
import Testing
import TrackcCollector
import TrackcTestSupport

@_spi(Generated) @testable import TrackcRuntime

/// Identify and alias calls obey consent as events do: an identify carrying an email, with the `ads`
/// category refused, never reaches the destination `ads` gates (mixpanel, `Mixpanel` on the wire), whether
/// through one collector lane (Segment's: the call goes with `"integrations":{"All":true,"Mixpanel":false}`,
/// and so does every event for every destination, whose `context.traits` carry the email too) or through
/// a lane per destination (mixpanel's lane gets nothing), before and after a pending answer. The collector
/// is the project's, on 127.0.0.1.
@Suite struct IdentityConsentTests {
  /// `TestRegistry`'s rules, firebase gated by `analytics` (granted until answered), mixpanel by `ads`
  /// (refused until answered, or pending), mixpanel named `Mixpanel` on the wire.
  struct Registry: TestRegistryRules {
    var base = TestRegistry()
    var pending: Set<String> = []
    func consentCategory(ofDestination id: String) -> String? {
      switch id {
      case "firebase": return "analytics"
      case "mixpanel": return "ads"
      default: return nil
      }
    }
    var consentDefaults: [String: Bool] { ["analytics": true, "ads": false] }
    var consentGatedDestinations: [String] { ["firebase", "mixpanel"] }
    var pendingConsentCategories: Set<String> { pending }
    func wireName(ofDestination id: String) -> String? { id == "mixpanel" ? "Mixpanel" : nil }
    /// The workspace's names: `ads` is Segment's `Advertising`; `analytics` is the same in both.
    func consentWireName(ofCategory category: String) -> String? { category == "ads" ? "Advertising" : nil }
  }

  static let email = "ada@example.com"

  static func collector() async throws -> Collector {
    try await DeliveryHarness.start {
      $0.plan = CollectorPlan(
        events: ["CTRL_DETAIL_BUY": .init(routing: .unrestricted)], destinations: ["firebase", "mixpanel"],
        wireNames: ["mixpanel": "Mixpanel"], consentCategories: ["analytics", "Advertising"])
    }
  }

  /// Identify with an email, alias, and an event for every destination (which carries the traits).
  static func identifyAliasAndTrack(_ tracker: Tracker) {
    tracker.identify(userID: "user-1", traits: ["email": .string(email)])
    tracker.alias("user-2")
    tracker.track(UnrestrictedEvent.detailBuy, screen: "DetailScreen", properties: ["n": .int(0)])
  }

  /// The calls the collector got, but for the consent preference updates `setConsent` sends
  /// (`ConsentStampTests`).
  static func calls(_ collector: Collector) -> [ReceivedEvent] {
    collector.received.filter { $0.event != Tracker.consentUpdatedEvent }
  }

  /// Every call the collector got that carries the email (an identify's traits, or `context.traits`).
  static func carryingTheEmail(_ collector: Collector) -> [ReceivedEvent] {
    collector.received.filter { $0.json.contains(email) }
  }

  /// Refused from the start: the identify, the alias and the event go to every destination but Mixpanel.
  @Test func aRefusedDestinationGetsNoIdentifyThroughACollector() async throws {
    let collector = try await Self.collector()
    let tracker = Tracker(registry: Registry(), destinations: [try DeliveryHarness.destination(collector)], retry: DeliveryHarness.retry)
    Self.identifyAliasAndTrack(tracker)
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    let received = collector.received
    #expect(received.map(\.type) == [.identify, .alias, .track])
    for call in received {
      #expect(call.withheldFrom == ["Mixpanel"], "\(call.json)")
      #expect(call.forwardedTo == ["firebase"], "\(call.json)")
      #expect(call.json.contains(#""integrations":{"All":true,"Mixpanel":false}"#), "\(call.json)")
    }
    #expect(Self.carryingTheEmail(collector).count == 3, "the identify's traits, and the context.traits of the alias and the event")
    #expect(collector.violations.isEmpty, "\(collector.violations)")
    await collector.stop()
  }

  /// Granted when the identify was made, revoked while it waited (the collector down): it goes without
  /// Mixpanel all the same; granted throughout, it goes to every destination (no `integrations`).
  @Test func aRevocationWhileTheIdentifyWaitsWithholdsIt() async throws {
    let collector = try await Self.collector()
    var failing = TrackcCollector.CollectorConfiguration.Faults()
    failing.failStatus = 503
    try collector.setFaults(failing)
    let tracker = Tracker(registry: Registry(), destinations: [try DeliveryHarness.destination(collector)], retry: DeliveryHarness.retry)
    tracker.setConsent("ads", granted: true)
    Self.identifyAliasAndTrack(tracker)
    tracker.setConsent("ads", granted: false)
    tracker.identify(userID: "user-2", traits: ["plan": .string("pro")])
    tracker.setConsent("ads", granted: true)
    tracker.identify(userID: "user-2", traits: ["seats": .int(3)])
    try collector.setFaults(.init())
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    let received = Self.calls(collector)
    #expect(received.map(\.type) == [.identify, .alias, .track, .identify, .identify])
    #expect(received.map(\.withheldFrom) == [["Mixpanel"], ["Mixpanel"], ["Mixpanel"], ["Mixpanel"], []])
    #expect(received.last?.destinations == nil && received.last?.json.contains("integrations") == false)
    #expect(
      Self.carryingTheEmail(collector).filter { $0.event != Tracker.consentUpdatedEvent }.dropLast().allSatisfy { $0.withheldFrom == ["Mixpanel"] },
      "all but the last, granted")
    await collector.stop()
  }

  /// `ads` pending: the collector holds the identify; refused, it goes without Mixpanel; granted, to
  /// every destination.
  @Test(arguments: [false, true])
  func aHeldIdentifyGoesAsThePendingAnswerSays(granted: Bool) async throws {
    let collector = try await Self.collector()
    let registry = Registry(pending: ["ads"])
    let tracker = Tracker(registry: registry, destinations: [try DeliveryHarness.destination(collector)], retry: DeliveryHarness.retry)
    Self.identifyAliasAndTrack(tracker)
    #expect(await tracker.waitUntil(timeout: TrackerTests.patience) { tracker.statistics["collector"]?.queued == 3 })
    #expect(collector.received.isEmpty, "held while ads is pending")
    tracker.setConsent("ads", granted: granted)
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    let received = Self.calls(collector)
    #expect(received.map(\.type) == [.identify, .alias, .track])
    #expect(received.allSatisfy { $0.withheldFrom == (granted ? [] : ["Mixpanel"]) }, "\(received.map(\.json))")
    #expect(received.allSatisfy { $0.forwardedTo == (granted ? nil : ["firebase"]) })
    #expect(tracker.statistics["collector"]?.balances == true && tracker.statistics["collector"]?.dropped == 0)
    await collector.stop()
  }

  /// A lane per destination beside the collector: mixpanel's lane (refused, or refused at its pending
  /// answer) gets nothing, so no trait of the person; firebase's gets the event with the email. The
  /// collector is told to leave out both: firebase is delivered in process, mixpanel refused.
  @Test(arguments: [false, true])
  func aRefusedDestinationsOwnLaneGetsNoTraits(pending: Bool) async throws {
    let collector = try await Self.collector()
    let firebase = InMemoryDestination(id: "firebase")
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let tracker = Tracker(
      registry: Registry(pending: pending ? ["ads"] : []), destinations: [try DeliveryHarness.destination(collector), firebase, mixpanel],
      retry: DeliveryHarness.retry)
    Self.identifyAliasAndTrack(tracker)
    tracker.trackControl(of: HomeScreen.self, handler: TestRegistry.Handlers.onFav)  // firebase and mixpanel
    if pending {
      #expect(await tracker.waitUntil(timeout: TrackerTests.patience) { tracker.statistics["mixpanel"]?.queued == 2 })
      #expect(mixpanel.events.isEmpty)
      tracker.setConsent("ads", granted: false)
    }
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    #expect(mixpanel.events.isEmpty)
    #expect(firebase.events.map(\.id) == ["CTRL_DETAIL_BUY", "CTRL_HOME_FAV"])
    #expect(firebase.events.allSatisfy { $0.identity.traits["email"] == .string(Self.email) })
    let received = Self.calls(collector)
    #expect(received.map(\.type) == [.identify, .alias, .track])
    #expect(received.allSatisfy { Set($0.withheldFrom) == ["firebase", "Mixpanel"] && $0.forwardedTo == [] }, "\(received.map(\.json))")
    if pending {
      #expect(tracker.statistics["mixpanel"]?.droppedByReason == [.consentDenied: 2])
    }
    await collector.stop()
  }
}
