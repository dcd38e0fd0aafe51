import Foundation
import Testing
import TrackcCollector
import TrackcTestSupport

@_spi(Generated) @testable import TrackcRuntime

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Segment's consent management reads the person's answers on each call
/// (`context.consent.categoryPreferences`, under the workspace's category names) and a
/// `Segment Consent Preference Updated` call when they change: without them it forwards without
/// enforcing consent. trackc stamps every call it sends a collector, sends the update, and the project's
/// collector (on 127.0.0.1) checks both (`missing-consent`).
@Suite struct ConsentStampTests {
  typealias Registry = IdentityConsentTests.Registry

  static func preferences(_ call: ReceivedEvent) -> [String: Bool]? { call.categoryPreferences }

  /// Every call carries the answers as they stand for it, by the workspace's names (`ads` is
  /// `Advertising`); a change sends the update with the new answers, and an answer that changes
  /// nothing sends none.
  @Test func everyCallIsStampedAndAChangeSendsTheUpdate() async throws {
    let collector = try await IdentityConsentTests.collector()
    let tracker = Tracker(registry: Registry(), destinations: [try DeliveryHarness.destination(collector)], retry: DeliveryHarness.retry)
    tracker.identify(userID: "user-1", traits: ["email": .string(IdentityConsentTests.email)])
    tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(0)])
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    tracker.setConsent("ads", granted: true)
    tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(1)])
    tracker.setConsent("ads", granted: true)  // no change: no update
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    tracker.setConsent(["ads": false, "analytics": false])
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    let received = collector.received
    #expect(received.map(\.event) == ["", "CTRL_DETAIL_BUY", Tracker.consentUpdatedEvent, "CTRL_DETAIL_BUY", Tracker.consentUpdatedEvent])
    #expect(
      received.map(Self.preferences) == [
        ["analytics": true, "Advertising": false], ["analytics": true, "Advertising": false], ["analytics": true, "Advertising": true],
        ["analytics": true, "Advertising": true], ["analytics": false, "Advertising": false],
      ])
    let update = received[2]
    #expect(update.type == .track && update.json.contains(#""consent":{"categoryPreferences":{"Advertising":true,"analytics":true}}"#))
    #expect(collector.violations.isEmpty, "\(collector.violations)")
    await collector.stop()
  }

  /// What the collector says of calls without the stamp, or with a category missing: a violation each,
  /// for the calls of a trackc that stamps its plan (`context.trackingPlan`: this release on) and for a
  /// consent preference update from any client; an earlier trackc's calls and another client's ordinary
  /// calls are not asked for it.
  @Test func theCollectorChecksTheStamp() async throws {
    let plan = CollectorPlan(
      events: ["CTRL_DETAIL_BUY": .init(routing: .unrestricted)], destinations: ["firebase", "mixpanel"],
      consentCategories: ["analytics", "Advertising"])
    var unstamped = ReceivedEvent(event: "CTRL_DETAIL_BUY", messageID: "m1", timestamp: "t", library: "trackc")
    #expect(plan.violations(of: unstamped).isEmpty, "an earlier trackc, which stamps neither")
    unstamped.planHash = "fnv1a64:00000000000000aa"
    #expect(plan.violations(of: unstamped).map(\.rule) == [.missingConsent])
    unstamped.categoryPreferences = ["analytics": true]
    let partial = plan.violations(of: unstamped)
    #expect(partial.map(\.rule) == [.missingConsent] && partial.first?.message.contains("'Advertising'") == true, "\(partial)")
    unstamped.categoryPreferences = ["analytics": true, "Advertising": false]
    #expect(plan.violations(of: unstamped).isEmpty)
    var identify = ReceivedEvent(type: .identify, event: "", messageID: "m2", timestamp: "t", library: "trackc")
    identify.planHash = "fnv1a64:00000000000000aa"
    #expect(plan.consentViolations(of: identify).map(\.rule) == [.missingConsent])
    identify.categoryPreferences = ["analytics": false, "Advertising": false]
    #expect(plan.consentViolations(of: identify).isEmpty)
    let update = ReceivedEvent(event: CollectorPlan.consentUpdatedEvent, messageID: "m3", timestamp: "t", library: "analytics-swift")
    #expect(plan.violations(of: update).map(\.rule) == [.missingConsent], "not an unknown event: checked by its stamp")
    let other = ReceivedEvent(event: "CTRL_DETAIL_BUY", messageID: "m4", timestamp: "t", library: "analytics-swift")
    #expect(plan.violations(of: other).isEmpty)

    // Through the server: a body without the consent stamp is recorded with the violation.
    let collector = try await DeliveryHarness.start { $0.plan = plan }
    var request = URLRequest(url: collector.baseURL.appendingPathComponent("v1/batch"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(
      #"{"batch":[{"type":"identify","userId":"u","messageId":"m5","context":{"library":{"name":"trackc"},"trackingPlan":{"hash":"fnv1a64:00000000000000aa"}}}]}"#
        .utf8)
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect(collector.violations.map(\.rule) == [.missingConsent])
    await collector.stop()
  }
}
