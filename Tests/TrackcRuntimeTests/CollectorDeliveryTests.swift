import Foundation
import Testing
import TrackcCollector
import TrackcTestSupport

@_spi(Generated) @testable import TrackcRuntime

/// `HTTPCollectorDestination` against the real collector (in-process on 127.0.0.1, an ephemeral port):
/// the wire format, identity and context fixed when `track()` returns, routing told as `integrations`,
/// the split on 400 and 413 and the drop on another 4xx, the write key, and remote configuration. The
/// faults of the network are `FaultMatrixTests`'.
@Suite struct CollectorDeliveryTests {
  @Test func everyEventArrivesOnceInTheWireFormat() async throws {
    let collector = try await DeliveryHarness.start()
    let destination = try DeliveryHarness.destination(collector)
    let tracker = DeliveryHarness.tracker([destination])
    DeliveryHarness.track(0..<200, tracker)
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    #expect(DeliveryHarness.numbers(collector) == Array(0..<200), "every event, once, in order")
    let first = try #require(collector.received.first)
    #expect(first.type == .track && first.event == "CTRL_DETAIL_BUY")
    #expect(first.anonymousID == tracker.identity.anonymousID)
    #expect(first.screen == "DetailScreen" && first.source == "manual" && first.library == "trackc")
    #expect(first.messageID.count == 36 && first.messageID == first.messageID.lowercased())
    #expect(first.timestamp.hasSuffix("Z"))
    #expect(first.destinations == nil, "unrestricted routing names no destination")
    #expect(collector.statistics.duplicates == 0)
    #expect(collector.statistics.rejectedByStatus.isEmpty)
    #expect(destination.requestsSent == collector.statistics.requests)
    DeliveryHarness.expectNothingLost(tracker, collector, count: 200, "wire format")
    await collector.stop()
  }

  /// A collector (or a proxy) that needs a length answers 411 to a body without one. Every upload carries
  /// `Content-Length`, the ones URLSession sends again after a connection closed without an answer
  /// included: the collector takes every batch, and the only failures are the closed connections, each
  /// one retry (never the 30 s request timeout: the flush gets less).
  @Test func aCollectorThatNeedsALengthReceivesEveryBatch() async throws {
    let collector = try await DeliveryHarness.start {
      $0.faults.requireContentLength = true
      $0.faults.dropRate = 0.3
      $0.faults.seed = 3
    }
    let destination = try DeliveryHarness.destination(collector)
    let tracker = DeliveryHarness.tracker([destination])
    DeliveryHarness.track(0..<200, tracker)
    #expect(await tracker.flush(timeout: TimeLimits.seconds(20)), "\(tracker.statistics)")
    DeliveryHarness.expectNothingLost(tracker, collector, count: 200, "length required")
    // No request went without its length. (On Linux, URLSession sends a request again on a fresh
    // connection after a reused one closed without an answer, and the destination cancels that second
    // send, which cannot carry the body again: the collector may see it cut short and refuse it as
    // not valid HTTP, a 400 no client reads. The batch goes again.)
    #expect(collector.statistics.rejectedByStatus[411] == nil, "a request went without Content-Length: \(collector.statistics.rejectedByStatus)")
    #expect(Set(collector.statistics.rejectedByStatus.keys).isSubset(of: [400]), "\(collector.statistics.rejectedByStatus)")
    let statistics = tracker.statistics["collector"] ?? DestinationStatistics()
    #expect(Set(statistics.failuresByReason.keys) == [.network], "\(statistics.failuresByReason)")
    #expect(collector.statistics.droppedConnections > 0, "some connections were closed without an answer")
    await collector.stop()
  }

  /// Routing restricted by the plan goes as Segment's `integrations`; a destination the app delivers in
  /// process is not forwarded; page enter events go as screen calls.
  @Test func routingIsToldAsIntegrationsAndPagesAsScreens() async throws {
    let collector = try await DeliveryHarness.start {
      $0.plan = CollectorPlan(
        events: [
          "PAGE_HOME_ENTER": .init(routing: .only(["firebase", "mixpanel"])), "CTRL_HOME_SHARE": .init(routing: .only(["mixpanel"])),
          "PAGE_HOME_LEAVE": .init(routing: .only(["firebase"])),
        ], destinations: ["firebase", "mixpanel"], screens: ["HomeScreen": "PAGE_HOME_ENTER"])
    }
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = DeliveryHarness.tracker([try DeliveryHarness.destination(collector), firebase])
    tracker.trackPage(of: HomeScreen.self, .enter)  // firebase (in process) + mixpanel (forwarded)
    tracker.trackControl(of: HomeScreen.self, handler: TestRegistry.Handlers.onShare)  // mixpanel
    tracker.trackPage(of: HomeScreen.self, .leave)  // firebase only: not for the collector
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    let received = collector.received
    #expect(received.map(\.type) == [.screen, .track])
    #expect(received[0].name == "HomeScreen" && received[0].event == "PAGE_HOME_ENTER" && received[0].phase == "enter")
    #expect(received[0].destinations == ["mixpanel"])
    #expect(received[1].event == "CTRL_HOME_SHARE" && received[1].destinations == ["mixpanel"])
    #expect(collector.violations.isEmpty, "\(collector.violations)")
    #expect(firebase.events.map(\.id) == ["PAGE_HOME_ENTER", "PAGE_HOME_LEAVE"])
    await collector.stop()
  }

  /// The plan's destinations go to the collector by their wire names (`wire_name`: Segment's catalogue
  /// names, which Segment matches exactly), in `integrations`; a destination without one by its ID. The
  /// collector, given the plan, takes them as the plan's destinations and says it would forward there.
  @Test func integrationsCarryTheWireNames() async throws {
    let collector = try await DeliveryHarness.start {
      $0.plan = CollectorPlan(
        events: ["PAGE_HOME_ENTER": .init(routing: .only(["firebase", "mixpanel"])), "CTRL_HOME_SHARE": .init(routing: .only(["mixpanel"]))],
        destinations: ["firebase", "mixpanel"], screens: ["HomeScreen": "PAGE_HOME_ENTER"], wireNames: ["mixpanel": "Mixpanel"])
    }
    var registry = TestRegistry()
    registry.wireNames = ["mixpanel": "Mixpanel"]
    let tracker = Tracker(registry: registry, destinations: [try DeliveryHarness.destination(collector)], retry: DeliveryHarness.retry)
    tracker.trackPage(of: HomeScreen.self, .enter)  // firebase and mixpanel
    tracker.trackControl(of: HomeScreen.self, handler: TestRegistry.Handlers.onShare)  // mixpanel
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    let received = collector.received
    #expect(received.map { $0.destinations.map(Set.init) } == [["firebase", "Mixpanel"], ["Mixpanel"]])
    #expect(received.map { $0.forwardedTo.map(Set.init) } == [["firebase", "Mixpanel"], ["Mixpanel"]])
    #expect(collector.violations.isEmpty, "\(collector.violations)")
    await collector.stop()
  }

  /// What identifies an event is fixed when `track()` returns: events queued while the collector was
  /// down go out under the identity they were tracked with, whatever `identify` and `reset` did since.
  @Test func identityIsStampedWhenTrackReturns() async throws {
    let collector = try await DeliveryHarness.start { $0.faults.failStatus = 503 }
    let tracker = DeliveryHarness.tracker([try DeliveryHarness.destination(collector)])
    let anonymous = tracker.identity.anonymousID
    DeliveryHarness.track(0..<3, tracker)
    tracker.identify(userID: "user-42", traits: ["plan": .string("pro")])
    DeliveryHarness.track(3..<6, tracker)
    tracker.identify(userID: "user-42", traits: ["seats": .int(3)])
    tracker.alias("user-43")
    DeliveryHarness.track(6..<9, tracker)
    tracker.reset()
    let next = tracker.identity.anonymousID
    DeliveryHarness.track(9..<12, tracker)
    #expect(next != anonymous && tracker.identity.userID == nil && tracker.identity.traits.isEmpty)
    try collector.setFaults(.init())
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    let received = collector.received
    #expect(
      received.map(\.type) == Array(repeating: .track, count: 3) + [.identify] + Array(repeating: .track, count: 3) + [.identify, .alias]
        + Array(repeating: .track, count: 6))
    let tracks = received.filter { $0.type == .track }
    #expect(tracks.map(DeliveryHarness.number) == Array(0..<12))
    #expect(tracks[0..<3].allSatisfy { $0.anonymousID == anonymous && $0.userID == nil })
    #expect(tracks[3..<6].allSatisfy { $0.anonymousID == anonymous && $0.userID == "user-42" })
    #expect(tracks[6..<9].allSatisfy { $0.anonymousID == anonymous && $0.userID == "user-43" })
    #expect(tracks[9..<12].allSatisfy { $0.anonymousID == next && $0.userID == nil })
    let identify = received.filter { $0.type == .identify }
    #expect(identify.map(\.userID) == ["user-42", "user-42"])
    #expect(identify.map { $0.traits["plan"]?.description } == ["pro", nil])
    let context = try Self.object(tracks[6].json)["context"] as? [String: Any]
    #expect((context?["traits"] as? [String: Any])?["plan"] as? String == "pro", "traits of one user merge")
    #expect((context?["traits"] as? [String: Any])?["seats"] as? Int == 3)
    let alias = try #require(received.first { $0.type == .alias })
    #expect(alias.previousID == "user-42" && alias.userID == "user-43")
    await collector.stop()
  }

  /// Events queued by one process and uploaded by the next carry the first one's identity; the next
  /// process starts with the identity the first left.
  @Test func identityOutlivesTheProcessThatTracked() async throws {
    let directory = try TemporaryDirectory()
    let journal = JournalConfiguration.directory(directory.url)
    let collector = try await DeliveryHarness.start { $0.faults.failStatus = 503 }
    var first: Tracker? = DeliveryHarness.tracker([try DeliveryHarness.destination(collector)], journal: journal)
    first!.identify(userID: "user-1")
    let anonymous = first!.identity.anonymousID
    DeliveryHarness.track(0..<50, first!)
    first = nil
    try collector.setFaults(.init())
    let second = DeliveryHarness.tracker([try DeliveryHarness.destination(collector)], journal: journal)
    #expect(second.identity == TrackingIdentity(anonymousID: anonymous, userID: "user-1"), "the identity is kept")
    second.reset()
    DeliveryHarness.track(50..<60, second)
    #expect(await second.flush(timeout: TimeLimits.seconds(30)))
    let tracks = collector.received.filter { $0.type == .track }
    #expect(Set(tracks.compactMap(DeliveryHarness.number)) == Set(0..<60))
    #expect(tracks.filter { (DeliveryHarness.number($0) ?? 0) < 50 }.allSatisfy { $0.anonymousID == anonymous && $0.userID == "user-1" })
    #expect(tracks.filter { (DeliveryHarness.number($0) ?? 0) >= 50 }.allSatisfy { $0.anonymousID != anonymous && $0.userID == nil })
    await collector.stop()
  }

  /// Every event carries the context of its process: on Linux the machine and system from uname, the
  /// locale and time zone, the library.
  @Test func eventsCarryTheContext() async throws {
    let collector = try await DeliveryHarness.start()
    let tracker = DeliveryHarness.tracker([try DeliveryHarness.destination(collector)])
    DeliveryHarness.track(0..<1, tracker)
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    let event = try #require(collector.received.first)
    let context = try #require(try Self.object(event.json)["context"] as? [String: Any])
    let system = ProcessInfo.processInfo
    var name = utsname()
    uname(&name)
    let machine = withUnsafeBytes(of: name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    #expect((context["device"] as? [String: String])?["model"] == machine)
    #if os(Linux)
      #expect((context["os"] as? [String: String])?["name"] == "Linux")
      #expect(((context["os"] as? [String: String])?["version"] ?? "").isEmpty == false)
    #endif
    #expect((context["app"] as? [String: String])?["name"] == system.processName)
    #expect(context["timezone"] as? String == TimeZone.current.identifier)
    #expect((context["locale"] as? String)?.isEmpty == false)
    #expect((context["library"] as? [String: String])?["name"] == "trackc")
    await collector.stop()
  }

  static func object(_ json: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
  }

  @Test func a400IsolatesTheBadEventAndDeliversItsNeighbours() async throws {
    let collector = try await DeliveryHarness.start {
      $0.plan = CollectorPlan(
        events: [
          "CTRL_DETAIL_BUY": .init(
            routing: .unrestricted,
            properties: ["n": [.number], "quantity": [.number], "express": [.boolean], "price": [.number], "tag": [.number]],
            requiredProperties: ["n"])
        ], destinations: nil)
      $0.rejectViolations = true
    }
    let drops = InMemoryDestination(id: "drops")
    let tracker = DeliveryHarness.tracker([try DeliveryHarness.destination(collector)], drops: drops)
    DeliveryHarness.track(0..<40, tracker, poison: 13, poisonProperties: ["tag": .string("not a number")])
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    #expect(DeliveryHarness.numbers(collector) == Array(0..<40).filter { $0 != 13 }, "its neighbours arrive, in order")
    #expect(drops.events.map(\.id) == ["rejected"])
    #expect(JournalTests.numbers(drops.events) == [13])
    #expect(collector.statistics.rejectedByStatus[400, default: 0] > 1, "the batch, then its halves")
    #expect(tracker.statistics["collector"]?.droppedByReason == [.rejected: 1])
    #expect(tracker.statistics["collector"]?.balances == true)
    await collector.stop()
  }

  @Test func a413IsolatesTheEventTooLarge() async throws {
    let collector = try await DeliveryHarness.start { $0.limits.maxEventBytes = 4096 }
    let tracker = DeliveryHarness.tracker([try DeliveryHarness.destination(collector)])
    DeliveryHarness.track(0..<30, tracker, poison: 7, poisonProperties: ["blob": .string(String(repeating: "x", count: 6000))])
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    #expect(DeliveryHarness.numbers(collector) == Array(0..<30).filter { $0 != 7 })
    #expect(tracker.statistics["collector"]?.droppedByReason == [.tooLarge: 1])
    #expect(collector.statistics.rejectedByStatus[413, default: 0] > 0)
    await collector.stop()
  }

  @Test func aBatchOverTheBodyLimitIsSplitBeforeItIsSent() async throws {
    let collector = try await DeliveryHarness.start()
    let destination = try HTTPCollectorDestination(
      endpoint: collector.baseURL, batch: BatchLimits(maximumEvents: 50, maximumBytes: 8_000, maximumAge: 0.02))
    let tracker = DeliveryHarness.tracker([destination])
    DeliveryHarness.track(0..<50, tracker)
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    #expect(DeliveryHarness.numbers(collector) == Array(0..<50))
    #expect(collector.statistics.rejectedByStatus.isEmpty, "nothing over the limit was sent")
    #expect(collector.statistics.requests > 1)
    await collector.stop()
  }

  @Test func anotherClientErrorDropsTheBatchWithACallbackAndTheQueueMovesOn() async throws {
    let collector = try await DeliveryHarness.start { $0.writeKey = "secret" }
    let drops = InMemoryDestination(id: "drops")
    let tracker = DeliveryHarness.tracker([try DeliveryHarness.destination(collector, writeKey: "wrong")], drops: drops)
    DeliveryHarness.track(0..<60, tracker)
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)), "a poison batch never blocks the queue")
    #expect(collector.received.isEmpty)
    #expect(drops.events.count == 60)
    #expect(drops.events.allSatisfy { $0.id == "clientError 401" })
    #expect(tracker.statistics["collector"]?.droppedByReason == [.clientError(401): 60])
    #expect(tracker.statistics["collector"]?.balances == true)
    await collector.stop()
  }

  @Test func theRightWriteKeyIsSent() async throws {
    let collector = try await DeliveryHarness.start { $0.writeKey = "secret" }
    let tracker = DeliveryHarness.tracker([try DeliveryHarness.destination(collector, writeKey: "secret")])
    DeliveryHarness.track(0..<10, tracker)
    #expect(await tracker.flush(timeout: TimeLimits.seconds(30)))
    #expect(DeliveryHarness.numbers(collector) == Array(0..<10))
    await collector.stop()
  }

  @Test func remoteConfigurationFromTheCollector() async throws {
    let collector = try await DeliveryHarness.start {
      $0.remoteConfiguration = .document(Array(#"{"version": 1, "destinations": {"mixpanel": {"enabled": false}}}"#.utf8))
    }
    let directory = try TemporaryDirectory()
    let remote = RemoteDestinationConfiguration(
      url: collector.remoteConfigurationURL, cacheFile: directory.url.appendingPathComponent("remote.json"))
    #expect(CollectorClientTests.refresh(remote))
    #expect(!remote.isEnabled("mixpanel"))
    #expect(remote.isEnabled("firebase"))
    #expect(remote.disabledDestinations == ["mixpanel"], "what a call for every destination leaves out")
    collector.setRemoteConfiguration(.document(Array("{not json".utf8)))
    #expect(!CollectorClientTests.refresh(remote))
    #expect(!remote.isEnabled("mixpanel"), "the last good document stays")
    collector.setRemoteConfiguration(nil)
    #expect(!CollectorClientTests.refresh(remote), "404")
    #expect(remote.statistics.badDocuments == 1)
    #expect(remote.statistics.fetchFailures == 1)
    await collector.stop()
  }
}
