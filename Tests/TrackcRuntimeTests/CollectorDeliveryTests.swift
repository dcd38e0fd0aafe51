// Runs against the real collector (`TrackcCollector`): compiled once the test target depends on it,
// which it does from the merge of the collector into main on.
#if canImport(TrackcCollector)
  import Foundation
  import Testing
  import TrackcCollector

  @testable import TrackcRuntime

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// `HTTPCollectorDestination` against the real collector (`TrackcCollector`, in-process on 127.0.0.1,
  /// an ephemeral port): the wire format, and each case of the failure policy, injected by the collector's
  /// fault settings. Each test has a pool of its own, so no channel is shared between tests.
  @Suite struct CollectorDeliveryTests {
    static func start(_ change: (inout TrackcCollector.CollectorConfiguration) -> Void = { _ in }) async throws -> Collector {
      var configuration = TrackcCollector.CollectorConfiguration()
      configuration.port = 0
      change(&configuration)
      return try await Collector.start(configuration)
    }

    static func destination(
      _ collector: Collector, id: String = "collector", pool: CollectorChannelPool = CollectorChannelPool(),
      _ adjust: (CollectorChannelConfiguration.Builder) -> CollectorChannelConfiguration.Builder = { $0 }
    ) throws -> HTTPCollectorDestination {
      let builder = CollectorChannelConfiguration.builder().endpoint(collector.baseURL).batch(events: 25, seconds: 0.05)
        .retry(RetryPolicy(initial: 0.01, maximum: 0.2)).anonymousID("install-1")
      return HTTPCollectorDestination(id: id, configuration: try adjust(builder).build(), pool: pool)
    }

    static func tracker(_ destinations: [any TrackingDestination], drops: InMemoryDestination? = nil) -> Tracker {
      Tracker(
        registry: TestRegistry(), destinations: destinations, retry: TrackerTests.quickRetry,
        onDrop: { events, reason, _ in
          for event in events { drops?.receive(CollectorClientTests.event(reason.rawValue, properties: event.properties)) }
        })
    }

    static func track(_ count: Int, _ tracker: Tracker, poison: Int? = nil, poisonProperties: [String: PropertyValue] = [:]) {
      for number in 0..<count {
        let properties: [String: PropertyValue] = number == poison ? poisonProperties.merging(["n": .int(number)]) { a, _ in a } : ["n": .int(number)]
        tracker.track(UnrestrictedEvent.detailBuy, screen: "DetailScreen", properties: properties)
      }
    }

    /// The numbers of the events the collector recorded, in arrival order.
    static func numbers(_ collector: Collector, destination: String = "collector") -> [Int] {
      collector.received.filter { $0.destination == destination }.compactMap { event in
        if case .number(let value, _)? = event.properties["n"] { return Int(value) }
        return nil
      }
    }

    final class StateLog: @unchecked Sendable {
      private let lock = NSLock()
      private var states: [ChannelState] = []
      func append(_ state: ChannelState) {
        lock.lock()
        states.append(state)
        lock.unlock()
      }
      var all: [ChannelState] {
        lock.lock()
        defer { lock.unlock() }
        return states
      }
    }

    @Test func everyEventArrivesOnceInTheWireFormat() async throws {
      let collector = try await Self.start()
      let destination = try Self.destination(collector)
      let states = StateLog()
      destination.channel.observe { states.append($0) }
      let tracker = Self.tracker([destination])
      Self.track(200, tracker)
      #expect(tracker.flush(timeout: 30))
      #expect(Self.numbers(collector) == Array(0..<200), "every event, once, in order")
      let first = try #require(collector.received.first)
      #expect(first.event == "CTRL_DETAIL_BUY")
      #expect(first.anonymousID == "install-1")
      #expect(first.screen == "DetailScreen")
      #expect(first.source == "manual")
      #expect(first.messageID.count == 36 && first.messageID == first.messageID.lowercased())
      #expect(first.timestamp.hasSuffix("Z"))
      #expect(collector.statistics.duplicates == 0)
      #expect(collector.statistics.rejectedByStatus.isEmpty)
      let statistics = try #require(tracker.statistics["collector"])
      #expect(statistics.delivered == 200)
      #expect(statistics.balances)
      #expect(destination.channel.state == .connected)
      #expect(states.all == [.connected])
      await collector.stop()
    }

    @Test func serverErrorsAndDroppedConnectionsAreRetriedUntilDelivered() async throws {
      let collector = try await Self.start {
        $0.faults.failStatus = 500
        $0.faults.failureRate = 0.4
        $0.faults.dropRate = 0.2
        $0.faults.seed = 7
      }
      // A dropped connection is noticed when the request times out (the collector reads the request and
      // closes nothing in a hurry): a short timeout keeps the test short.
      let destination = try Self.destination(collector) { $0.requestTimeout(2) }
      let states = StateLog()
      destination.channel.observe { states.append($0) }
      let tracker = Self.tracker([destination])
      Self.track(150, tracker)
      #expect(tracker.flush(timeout: 60))
      #expect(Set(Self.numbers(collector)) == Set(0..<150))
      #expect(Self.numbers(collector).count == 150, "nothing recorded twice: failed attempts were not recorded")
      let statistics = try #require(tracker.statistics["collector"])
      #expect(statistics.failedAttempts > 0)
      #expect(statistics.dropped == 0)
      #expect(statistics.balances)
      #expect(states.all.contains(.disconnected) && states.all.contains(.reconnecting) && states.all.last == .connected)
      await collector.stop()
    }

    /// Records what the keepers were asked, and decides nothing.
    final class RecordingKeeper: ChannelKeeper, @unchecked Sendable {
      private let lock = NSLock()
      private var contexts: [KeeperContext] = []
      func decide(_ context: KeeperContext) -> KeeperDecision? {
        lock.lock()
        contexts.append(context)
        lock.unlock()
        return nil
      }
      var seen: [KeeperContext] {
        lock.lock()
        defer { lock.unlock() }
        return contexts
      }
    }

    @Test func retryAfterOn429IsHonoured() async throws {
      let collector = try await Self.start {
        $0.faults.failStatus = 429
        $0.faults.failureRate = 0.5
        $0.faults.retryAfterSeconds = 1
        $0.faults.seed = 3
      }
      let keeper = RecordingKeeper()
      let destination = try Self.destination(collector) { $0.keeper(keeper) }
      let tracker = Self.tracker([destination])
      Self.track(60, tracker)
      #expect(tracker.flush(timeout: 60))
      #expect(Set(Self.numbers(collector)) == Set(0..<60))
      #expect(collector.statistics.injectedFailures > 0)
      // After a 429 the keepers saw the collector's Retry-After, a second ahead, and the chain held the upload.
      let held = keeper.seen.filter { context in context.retryAfter.map { $0.timeIntervalSince(context.now) > 0.5 } ?? false }
      #expect(!held.isEmpty)
      await collector.stop()
    }

    @Test func a400IsolatesTheBadEventAndDeliversItsNeighbours() async throws {
      let collector = try await Self.start {
        $0.plan = CollectorPlan(
          events: [
            "CTRL_DETAIL_BUY": .init(
              routing: .unrestricted,
              properties: ["n": [.number], "quantity": [.number], "express": [.boolean], "price": [.number], "tag": [.number]],
              requiredProperties: ["n"])
          ], destinations: nil)
        $0.rejectViolations = true
      }
      let destination = try Self.destination(collector)
      let drops = InMemoryDestination(id: "drops")
      let tracker = Self.tracker([destination], drops: drops)
      Self.track(40, tracker, poison: 13, poisonProperties: ["tag": .string("not a number")])
      #expect(tracker.flush(timeout: 30))
      #expect(Self.numbers(collector) == Array(0..<40).filter { $0 != 13 }, "its neighbours arrive, in order")
      #expect(drops.events.map(\.id) == ["rejected"])
      #expect(JournalTests.numbers(drops.events) == [13])
      #expect(collector.statistics.rejectedByStatus[400, default: 0] > 1, "the batch, then its halves")
      #expect(tracker.statistics["collector"]?.droppedByReason == [.rejected: 1])
      #expect(tracker.statistics["collector"]?.balances == true)
      await collector.stop()
    }

    @Test func a413IsolatesTheEventTooLarge() async throws {
      let collector = try await Self.start { $0.limits.maxEventBytes = 2048 }
      let destination = try Self.destination(collector)
      let tracker = Self.tracker([destination])
      Self.track(30, tracker, poison: 7, poisonProperties: ["blob": .string(String(repeating: "x", count: 4000))])
      #expect(tracker.flush(timeout: 30))
      #expect(Self.numbers(collector) == Array(0..<30).filter { $0 != 7 })
      #expect(tracker.statistics["collector"]?.droppedByReason == [.tooLarge: 1])
      #expect(collector.statistics.rejectedByStatus[413, default: 0] > 0)
      await collector.stop()
    }

    @Test func anotherClientErrorDropsTheBatchWithACallbackAndTheQueueMovesOn() async throws {
      let collector = try await Self.start { $0.writeKey = "secret" }
      let destination = try Self.destination(collector) { $0.writeKey("wrong") }
      let drops = InMemoryDestination(id: "drops")
      let tracker = Self.tracker([destination], drops: drops)
      Self.track(60, tracker)
      #expect(tracker.flush(timeout: 30), "a poison batch never blocks the queue")
      #expect(collector.received.isEmpty)
      #expect(drops.events.count == 60)
      #expect(drops.events.allSatisfy { $0.id == "clientError 401" })
      #expect(tracker.statistics["collector"]?.droppedByReason == [.clientError(401): 60])
      #expect(tracker.statistics["collector"]?.balances == true)
      await collector.stop()
    }

    @Test func theRightWriteKeyIsSent() async throws {
      let collector = try await Self.start { $0.writeKey = "secret" }
      let destination = try Self.destination(collector) { $0.writeKey("secret") }
      let tracker = Self.tracker([destination])
      Self.track(10, tracker)
      #expect(tracker.flush(timeout: 30))
      #expect(Self.numbers(collector) == Array(0..<10))
      await collector.stop()
    }

    @Test func offlineHoldsAndReconnectingSendsInOrder() async throws {
      let collector = try await Self.start()
      let destination = try Self.destination(collector)
      destination.channel.networkAvailabilityChanged(false)
      let tracker = Self.tracker([destination])
      Self.track(80, tracker)
      #expect(!tracker.flush(timeout: 0.3), "nothing goes while offline")
      #expect(collector.statistics.requests == 0)
      #expect(tracker.statistics["collector"]?.queued == 80, "the events wait in the journal")
      destination.channel.networkAvailabilityChanged(true)
      #expect(tracker.flush(timeout: 30))
      #expect(Self.numbers(collector) == Array(0..<80), "first in, first out")
      await collector.stop()
    }

    @Test func destinationsOfOneCollectorShareOneChannelAndUploadLoop() async throws {
      let collector = try await Self.start()
      let pool = CollectorChannelPool()
      let first = try Self.destination(collector, id: "collector", pool: pool)
      let second = try Self.destination(collector, id: "warehouse", pool: pool)
      #expect(first.channel === second.channel)
      let tracker = Self.tracker([first, second])
      Self.track(50, tracker)
      #expect(tracker.flush(timeout: 30))
      #expect(Self.numbers(collector, destination: "collector") == Array(0..<50))
      #expect(Self.numbers(collector, destination: "warehouse") == Array(0..<50))
      #expect(first.channel.uploadsSent == collector.statistics.requests)
      #expect(pool.count == 1)
      await collector.stop()
    }

    @Test func recordedThenFailedBatchesAreDeduplicatedAtTheCollector() async throws {
      let collector = try await Self.start {
        $0.faults.acceptThenFailRate = 0.4
        $0.faults.seed = 11
      }
      let destination = try Self.destination(collector)
      let tracker = Self.tracker([destination])
      Self.track(120, tracker)
      #expect(tracker.flush(timeout: 60))
      #expect(Self.numbers(collector).sorted() == Array(0..<120), "exactly once after deduplication")
      #expect(collector.statistics.duplicates > 0, "the same message IDs came again")
      await collector.stop()
    }

    @Test func aReleasedChannelKeepsTheEventsInTheJournal() async throws {
      let collector = try await Self.start()
      let destination = try Self.destination(collector)
      try destination.channel.release()
      let tracker = Self.tracker([destination])
      Self.track(10, tracker)
      #expect(!tracker.flush(timeout: 0.3))
      #expect(tracker.statistics["collector"]?.queued == 10)
      #expect(collector.statistics.requests == 0)
      await collector.stop()
    }

    @Test func remoteConfigurationFromTheCollector() async throws {
      let collector = try await Self.start {
        $0.remoteConfiguration = .document(Array(#"{"version": 1, "destinations": {"mixpanel": {"enabled": false}}}"#.utf8))
      }
      let directory = try TemporaryDirectory()
      let remote = RemoteDestinationConfiguration(
        url: collector.remoteConfigurationURL, cacheFile: directory.url.appendingPathComponent("remote.json"))
      #expect(CollectorClientTests.refresh(remote))
      #expect(!remote.isEnabled("mixpanel"))
      #expect(remote.isEnabled("firebase"))
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
#endif
