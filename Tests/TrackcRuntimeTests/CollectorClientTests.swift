import Foundation
import Testing

@_spi(Generated) @testable import TrackcRuntime

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The collector client without a server: the endpoint, the upload body (every call type, the
/// identity and context of each event's snapshot), gzip, the journal's record forms, `Retry-After`,
/// the status policy's table, and the batch failure policy as the delivery lane applies it (statuses
/// answered by a scripted destination through the real status mapping).
@Suite struct CollectorClientTests {
  static let collector = URL(string: "http://127.0.0.1:9")!

  // MARK: Endpoint

  @Test func theEndpointMustBeHTTPAndABaseURLGetsTheBatchPath() throws {
    #expect(throws: HTTPCollectorDestination.InvalidEndpoint(url: "ftp://example.com/v1/batch")) {
      try HTTPCollectorDestination(endpoint: URL(string: "ftp://example.com/v1/batch")!)
    }
    #expect(throws: HTTPCollectorDestination.InvalidEndpoint(url: "file:///tmp/x")) {
      try HTTPCollectorDestination(endpoint: URL(string: "file:///tmp/x")!)
    }
    let built = try HTTPCollectorDestination(endpoint: Self.collector, writeKey: "key", batch: BatchLimits(maximumEvents: 7, maximumAge: 2))
    #expect(built.endpoint.absoluteString == "http://127.0.0.1:9/v1/batch", "a base URL gets the batch path")
    #expect(built.batchLimits == BatchLimits(maximumEvents: 7, maximumBytes: Defaults.batchBytes, maximumAge: 2))
    #expect(built.role == .collector && built.id == "collector")
    let explicit = try HTTPCollectorDestination(endpoint: URL(string: "https://collector.example/custom/batch")!)
    #expect(explicit.endpoint.path == "/custom/batch")
  }

  // MARK: Body

  static let hostile = [
    "plain", "quote \" and backslash \\", "controls \u{0}\u{1}\u{1F}\n\r\t", "emoji 🚀 and é", "</script>", "\u{2028}\u{2029}", "",
  ]

  static let identity = TrackingIdentity(anonymousID: "anon-1", userID: "user-9", traits: ["plan": .string("pro"), "age": .int(40)])
  static let context = TrackingContext(
    app: .init(name: "Shop", version: "2.1", build: "210", namespace: "com.example.shop"),
    device: .init(model: "x86_64", manufacturer: nil, type: "linux"), os: .init(name: "Linux", version: "6.1"), locale: "en-GB",
    timezone: "Europe/Paris", screen: .init(width: 390, height: 844, density: 3))

  static func event(
    _ id: String, properties: [String: PropertyValue], source: TrackingEvent.Source = .manual, screen: String? = nil,
    identity: TrackingIdentity = CollectorClientTests.identity, forwardedTo: [String]? = nil
  ) -> TrackingEvent {
    TrackingEvent(
      id: id, source: source, screen: screen, properties: properties, timestamp: Date(timeIntervalSince1970: 1_795_428_000.123), messageID: UUID(),
      identity: identity, context: context, forwardedTo: forwardedTo)
  }

  static func decodedBatch(_ events: [TrackingEvent]) throws -> [[String: Any]] {
    let body = BatchJSON.body(events, sentAt: Date())
    let root = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    #expect(root["sentAt"] is String)
    return try #require(root["batch"] as? [[String: Any]])
  }

  @Test func theBodyIsValidJSONWhateverTheStrings() throws {
    var events: [TrackingEvent] = []
    for (index, text) in Self.hostile.enumerated() {
      events.append(
        Self.event(
          text, properties: [text: .string(text), "n": .int(-index), "x": .double(.nan), "y": .double(-1e-300), "b": .bool(true)],
          source: index % 2 == 0 ? .control(handler: text) : .page(.leave), screen: text,
          identity: TrackingIdentity(anonymousID: text, userID: text, traits: [text: .string(text)]), forwardedTo: [text, "mixpanel"]))
    }
    let batch = try Self.decodedBatch(events)
    #expect(batch.count == events.count)
    for (index, item) in batch.enumerated() {
      #expect(item["type"] as? String == "track")
      #expect(item["event"] as? String == Self.hostile[index])
      let properties = try #require(item["properties"] as? [String: Any])
      #expect(properties[Self.hostile[index]] as? String == Self.hostile[index])
      #expect(properties["x"] is NSNull, "NaN is null")
      #expect(item["messageId"] as? String == events[index].messageID.uuidString.lowercased())
      #expect(item["timestamp"] as? String == "2026-11-23T10:00:00.123Z")
      #expect(item["anonymousId"] as? String == Self.hostile[index])
      #expect(item["userId"] as? String == Self.hostile[index])
      #expect(item["integrations"] as? [String: Bool] == ["All": false, Self.hostile[index]: true, "mixpanel": true])
      let context = try #require(item["context"] as? [String: Any])
      let trackc = try #require(context["trackc"] as? [String: Any])
      #expect(trackc["screen"] as? String == Self.hostile[index])
      #expect(trackc["source"] as? String == (index % 2 == 0 ? "control" : "page"))
      #expect((context["traits"] as? [String: Any])?[Self.hostile[index]] as? String == Self.hostile[index])
      #expect((context["library"] as? [String: Any])?["name"] as? String == "trackc")
    }
  }

  /// What Segment-compatible tools read: a page's enter event as a screen call, the others as track
  /// calls, identify and alias calls, the identity and the context of each event's snapshot.
  @Test func everyCallCarriesItsIdentityAndContext() throws {
    let batch = try Self.decodedBatch([
      Self.event("PAGE_HOME_ENTER", properties: ["tab": .string("feed")], source: .page(.enter), screen: "HomeViewController"),
      Self.event("PAGE_HOME_LEAVE", properties: [:], source: .page(.leave), screen: "HomeViewController"),
      Self.event("", properties: ["plan": .string("pro")], source: .identify),
      Self.event("", properties: [:], source: .alias(previousID: "anon-1"), identity: TrackingIdentity(anonymousID: "anon-1", userID: "user-9")),
      Self.event("CTRL_BUY", properties: [:], identity: TrackingIdentity(anonymousID: "anon-2")),
    ])
    #expect(batch.map { $0["type"] as? String } == ["screen", "track", "identify", "alias", "track"])
    #expect(batch[0]["name"] as? String == "HomeViewController")
    #expect(batch[0]["event"] == nil)
    #expect((batch[0]["properties"] as? [String: String]) == ["tab": "feed"])
    let screenContext = try #require(batch[0]["context"] as? [String: Any])
    #expect(
      (screenContext["trackc"] as? [String: String]) == [
        "event": "PAGE_HOME_ENTER", "source": "page", "phase": "enter", "screen": "HomeViewController",
      ])
    #expect(batch[1]["event"] as? String == "PAGE_HOME_LEAVE", "a leave event stays a track call")
    #expect((batch[2]["traits"] as? [String: String]) == ["plan": "pro"])
    #expect(batch[2]["userId"] as? String == "user-9")
    #expect(batch[3]["previousId"] as? String == "anon-1" && batch[3]["userId"] as? String == "user-9")
    #expect(batch[4]["userId"] == nil && batch[4]["anonymousId"] as? String == "anon-2")
    let context = try #require(batch[4]["context"] as? [String: Any])
    #expect((context["app"] as? [String: String]) == ["name": "Shop", "version": "2.1", "build": "210", "namespace": "com.example.shop"])
    #expect((context["device"] as? [String: String]) == ["model": "x86_64", "type": "linux"])
    #expect((context["os"] as? [String: String]) == ["name": "Linux", "version": "6.1"])
    #expect(context["locale"] as? String == "en-GB" && context["timezone"] as? String == "Europe/Paris")
    #expect((context["screen"] as? [String: Double]) == ["width": 390, "height": 844, "density": 3])
    #expect((context["library"] as? [String: String]) == ["name": "trackc", "version": TrackingContext.libraryVersion])
    #expect(batch[4]["integrations"] == nil, "no integrations: every destination")
  }

  /// An event with a `wire_name` goes by it (its ID in `context.trackc.event`); an enter page event goes
  /// as a screen call named after its screen or its wire name, or as a track call with `call: track`.
  @Test func eventsGoByTheirWireNamesAndCalls() throws {
    func event(_ id: String, _ source: TrackingEvent.Source, wireName: String?, asTrack: Bool = false) -> TrackingEvent {
      TrackingEvent(
        id: id, source: source, screen: "HomeViewController", properties: [:], timestamp: Date(timeIntervalSince1970: 1_795_428_000),
        messageID: UUID(), snapshot: EventSnapshot(identity: Self.identity, context: Self.context), forwardedTo: nil, wireName: wireName,
        sendsEnterAsTrack: asTrack)
    }
    let batch = try Self.decodedBatch([
      event("CTRL_CHECKOUT", .control(handler: "checkout(_:)"), wireName: "Checkout Tapped"),
      event("CTRL_FAV", .control(handler: "fav(_:)"), wireName: nil),
      event("PAGE_HOME_ENTER", .page(.enter), wireName: nil),
      event("PAGE_HOME_ENTER", .page(.enter), wireName: "Home"),
      event("PAGE_HOME_ENTER", .page(.enter), wireName: "Home Viewed", asTrack: true),
      event("PAGE_HOME_ENTER", .page(.enter), wireName: nil, asTrack: true),
      event("PAGE_HOME_LEAVE", .page(.leave), wireName: "Home Left"),
      event("MANUAL", .manual, wireName: "Refund Requested"),
    ])
    func trackc(_ call: [String: Any]) -> [String: Any] { (call["context"] as? [String: Any])?["trackc"] as? [String: Any] ?? [:] }
    let seen = batch.map { call -> String in
      let name = (call["event"] ?? call["name"]) as? String ?? "?"
      return "\(call["type"] as? String ?? "?") \(name) \(trackc(call)["event"] as? String ?? "-")"
    }
    #expect(
      seen == [
        "track Checkout Tapped CTRL_CHECKOUT", "track CTRL_FAV -", "screen HomeViewController PAGE_HOME_ENTER", "screen Home PAGE_HOME_ENTER",
        "track Home Viewed PAGE_HOME_ENTER", "track PAGE_HOME_ENTER -", "track Home Left PAGE_HOME_LEAVE", "track Refund Requested MANUAL",
      ])
  }

  @Test func timestampsAgreeWithFoundation() {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    formatter.timeZone = TimeZone(identifier: "UTC")
    var generator = SeededGenerator(seed: 4)
    for _ in 0..<2_000 {
      let milliseconds = Int64.random(in: -2_000_000_000_000...4_000_000_000_000, using: &generator)
      let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
      var ours: [UInt8] = []
      BatchJSON.timestamp(date, into: &ours)
      #expect(String(decoding: ours, as: UTF8.self) == "\"" + formatter.string(from: date) + "\"")
    }
  }

  @Test func gzipRoundTrips() throws {
    let body = BatchJSON.body((0..<300).map { Self.event("E\($0)", properties: ["n": .int($0)]) }, sentAt: Date())
    let compressed = try #require(Gzip.compress(body))
    #expect(compressed.count < body.count / 4)
    #expect(compressed.prefix(2) == [0x1F, 0x8B], "a gzip header")
    #expect(Gzip.decompress(compressed) == body)
  }

  // MARK: The journal's record forms

  @Test func recordsRoundTripAndGarbageNeverDecodesIntoACrash() throws {
    var generator = SeededGenerator(seed: 21)
    let sources: [TrackingEvent.Source] = [.page(.enter), .page(.leave), .control(handler: "onFav(_:)"), .manual, .identify, .alias(previousID: "p")]
    let snapshots: [EventSnapshot?] = [EventSnapshot(identity: Self.identity, context: Self.context), nil, .unknown]
    for round in 0..<500 {
      let text = Self.hostile[round % Self.hostile.count] + String(round)
      var properties: [String: PropertyValue] = [text: .string(text), "i": .int(Int.random(in: .min ... .max, using: &generator))]
      properties["d"] = .double(Double(bitPattern: generator.next()))
      properties["b"] = .bool(round % 2 == 0)
      let source = sources[round % sources.count]
      let draft = EventCoding.Draft(
        eventID: text, source: source, screen: round % 3 == 0 ? nil : text, properties: properties,
        forwardedTo: round % 4 == 0 ? nil : [text, "b"], wireName: round % 5 == 0 ? nil : text + " on the wire",
        sendsEnterAsTrack: round % 7 == 0)
      let snapshot = round % 2 == 0 ? 0 : 2
      let size = EventCoding.encodedSize(draft, snapshot: snapshot)
      var buffer = [UInt8](repeating: 0, count: size)
      let id = MessageIDGenerator().id(milliseconds: 1_795_428_000_123, sequence: UInt64(round))
      let written = buffer.withUnsafeMutableBytes {
        EventCoding.encode(draft, destinations: 5, messageID: id, microseconds: 1_795_428_000_123_456, snapshot: snapshot, into: $0.baseAddress!)
      }
      #expect(written == size)
      let event = try #require(buffer.withUnsafeBytes { EventCoding.decode($0, snapshots: snapshots) })
      #expect(event.source == draft.source && event.screen == draft.screen && event.forwardedTo == draft.forwardedTo)
      #expect(event.wireName == draft.wireName && event.sendsEnterAsTrack == draft.sendsEnterAsTrack)
      switch source {
      case .identify, .alias: #expect(event.id.isEmpty)
      default: #expect(event.id == draft.eventID)
      }
      #expect(event.snapshot === snapshots[snapshot]!)
      #expect(event.properties.count == properties.count)
      #expect(event.properties["i"] == properties["i"] && event.properties[text] == properties[text] && event.properties["b"] == properties["b"])
      guard case .double(let original)? = properties["d"], case .double(let decoded)? = event.properties["d"] else {
        Issue.record("the double came back as \(String(describing: event.properties["d"]))")
        continue
      }
      #expect(original.bitPattern == decoded.bitPattern)
      #expect(event.messageID.uuid.6 >> 4 == 7 && event.messageID.uuid.8 >> 6 == 2, "UUIDv7, RFC variant")
      #expect(buffer.withUnsafeBytes { EventCoding.destinations(of: $0) } == 5)
      #expect(buffer.withUnsafeBytes { EventCoding.decode($0, snapshots: [nil, nil, nil]) } == nil, "a snapshot that is missing: not decoded")
      // Every prefix and a flipped byte: nil or an event, never a crash.
      for cut in stride(from: 0, to: size, by: max(1, size / 16)) {
        _ = buffer.withUnsafeBytes { EventCoding.decode(UnsafeRawBufferPointer(rebasing: $0[0..<cut]), snapshots: snapshots) }
      }
      var flipped = buffer
      flipped[Int.random(in: 0..<size, using: &generator)] ^= 0xFF
      _ = flipped.withUnsafeBytes { EventCoding.decode($0, snapshots: snapshots) }
    }
    for _ in 0..<5_000 {
      let garbage = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
      _ = garbage.withUnsafeBytes { EventCoding.decode($0, snapshots: snapshots) }
      _ = garbage.withUnsafeBytes { SnapshotCoding.decode($0) }
    }
  }

  @Test func snapshotsRoundTrip() throws {
    for identity in [Self.identity, TrackingIdentity(anonymousID: "a"), TrackingIdentity(anonymousID: "\u{0}é", userID: "🚀")] {
      for context in [Self.context, TrackingContext(), TrackingContext.current] {
        let snapshot = EventSnapshot(identity: identity, context: context)
        let size = SnapshotCoding.encodedSize(snapshot, number: 7)
        var buffer = [UInt8](repeating: 0, count: size)
        #expect(buffer.withUnsafeMutableBytes { SnapshotCoding.encode(snapshot, number: 7, into: $0.baseAddress!) } == size)
        #expect(buffer.withUnsafeBytes { SnapshotCoding.isSnapshot($0) })
        let decoded = try #require(buffer.withUnsafeBytes { SnapshotCoding.decode($0) })
        #expect(decoded.number == 7)
        #expect(decoded.snapshot == snapshot)
        #expect(decoded.snapshot.wire == snapshot.wire)
      }
    }
  }

  @Test func messageIDsAreUniqueAndOrderedByTime() {
    let generator = MessageIDGenerator()
    var seen = Set<UUID>()
    for sequence in 0..<10_000 { seen.insert(UUID(uuid: generator.id(milliseconds: 1_795_428_000_000, sequence: UInt64(sequence)))) }
    #expect(seen.count == 10_000)
    let earlier = UUID(uuid: generator.id(milliseconds: 1_795_428_000_000, sequence: 1)).uuidString
    let later = UUID(uuid: generator.id(milliseconds: 1_795_428_000_001, sequence: 0)).uuidString
    #expect(earlier < later, "the time comes first")
  }

  @Test func retryAfterReadsSecondsAndHTTPDates() throws {
    let now = Date(timeIntervalSince1970: 1_795_428_000)
    #expect(Uploader.retryAfter("7", now: now) == 7)
    #expect(Uploader.retryAfter(" 2.5 ", now: now) == 2.5)
    #expect(Uploader.retryAfter("nonsense", now: now) == nil)
    #expect(Uploader.retryAfter("Mon, 23 Nov 2026 10:01:00 GMT", now: now) == 60)
    #expect(Uploader.retryAfter("Mon, 23 Nov 2026 09:59:00 GMT", now: now) == 0, "a date past is now")
  }

  // MARK: The status policy

  /// Every status lands on the row the table names, and the docs show this very table.
  @Test func theStatusPolicyIsOneTableInTheCodeAndTheDocs() throws {
    for status in 100..<700 {
      let action = StatusPolicy.action(status: status)
      switch status {
      case 200..<300: #expect(action == .delivered)
      case 300..<400: #expect(action == .retry(.redirect))
      case 400: #expect(action == .split(.rejected))
      case 408: #expect(action == .retry(.requestTimeout))
      case 410: #expect(action == .retry(.gone))
      case 411: #expect(action == .retry(.lengthRequired))
      case 413: #expect(action == .split(.tooLarge))
      case 429: #expect(action == .retry(.rateLimited))
      case 460: #expect(action == .retry(.clientClosedRequest))
      case 401..<500: #expect(action == .drop)
      case 500..<600: #expect(action == .retry(.serverError))
      default: #expect(action == .retry(.unexpectedStatus))
      }
    }
    #expect(StatusPolicy.outcome(status: 429, retryAfter: 7) == .retry(after: 7, reason: .rateLimited))
    #expect(StatusPolicy.outcome(status: 503, retryAfter: 86_400) == .retry(after: 3600, reason: .serverError), "at most an hour")
    #expect(StatusPolicy.outcome(status: 422, retryAfter: nil) == .drop(.clientError(422)))
    #expect(StatusPolicy.outcome(status: 411, retryAfter: nil) == .retry(after: nil, reason: .lengthRequired), "a length asked for is never a drop")
    let docs = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("docs/wire-format.md"), encoding: .utf8)
    #expect(docs.contains(StatusPolicy.markdown), "docs/wire-format.md shows StatusPolicy.markdown as it is:\n\(StatusPolicy.markdown)")
  }

  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  // MARK: The failure policy, as the lane applies it

  /// Answers each batch with the status `answer` gives, through the HTTP destination's status policy.
  final class ScriptedCollector: BatchTrackingDestination, @unchecked Sendable {
    let id = "collector"
    let batchLimits: BatchLimits
    let answer: @Sendable ([TrackingEvent]) -> Int?
    let received = InMemoryDestination(id: "received")
    private let lock = NSLock()
    private(set) var batchSizes: [Int] = []
    /// Each batch offered, by the events' numbers (`n`).
    private(set) var offered: [[Int]] = []

    /// `answer` gives a status, or nil for no answer (a network failure).
    init(batch: Int = 8, answer: @escaping @Sendable ([TrackingEvent]) -> Int?) {
      batchLimits = BatchLimits(maximumEvents: batch, maximumBytes: 1 << 20, maximumAge: 0.01)
      self.answer = answer
    }

    func deliver(_ batch: [TrackingEvent], completion: @escaping @Sendable (BatchOutcome) -> Void) {
      lock.lock()
      batchSizes.append(batch.count)
      offered.append(JournalTests.numbers(batch))
      lock.unlock()
      guard let status = answer(batch) else { return completion(.retry(after: nil, reason: .network)) }
      if (200..<300).contains(status) { batch.forEach(received.receive) }
      completion(StatusPolicy.outcome(status: status, retryAfter: nil))
    }
  }

  static func tracked(_ count: Int, into destination: any TrackingDestination, drops: InMemoryDestination? = nil) -> Tracker {
    let tracker = Tracker(
      registry: TestRegistry(), destinations: [destination], retry: TrackerTests.quickRetry,
      onDrop: { events, reason, _ in
        for event in events { drops?.receive(CollectorClientTests.event(reason.rawValue, properties: event.properties)) }
      })
    for number in 0..<count { tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(number)]) }
    return tracker
  }

  static func isPoison(_ event: TrackingEvent) -> Bool { event.properties["n"] == .int(13) }

  @Test func a400SplitsTheBatchToIsolateTheBadEvent() throws {
    let collector = ScriptedCollector { batch in batch.contains(where: CollectorClientTests.isPoison) ? 400 : 200 }
    let drops = InMemoryDestination(id: "drops")
    let tracker = Self.tracked(40, into: collector, drops: drops)
    #expect(tracker.flush(timeout: 30))
    #expect(JournalTests.numbers(collector.received.events) == Array(0..<40).filter { $0 != 13 }, "its neighbours are delivered, in order")
    #expect(drops.events.map(\.id) == ["rejected"])
    #expect(JournalTests.numbers(drops.events) == [13])
    let statistics = try #require(tracker.statistics["collector"])
    #expect(statistics.droppedByReason == [.rejected: 1])
    #expect(statistics.delivered == 39)
    #expect(statistics.balances)
  }

  @Test func a413SplitsAndDropsASingleEventAsTooLarge() throws {
    let collector = ScriptedCollector { batch in batch.count > 2 || batch.contains(where: CollectorClientTests.isPoison) ? 413 : 200 }
    let tracker = Self.tracked(20, into: collector)
    #expect(tracker.flush(timeout: 30))
    #expect(JournalTests.numbers(collector.received.events) == Array(0..<20).filter { $0 != 13 })
    #expect(tracker.statistics["collector"]?.droppedByReason == [.tooLarge: 1])
    #expect(tracker.statistics["collector"]?.balances == true)
  }

  /// Unlike a 400, which splits the batch to find the event refused, another 4xx drops the whole batch
  /// as it was offered, once: the batch holding the poison event is not offered again, whole or in part.
  @Test func anotherClientErrorDropsTheWholeBatchAndTheQueueMovesOn() throws {
    // The first answer waits until all twenty are tracked, so that the batch holding 13 is a full one:
    // five events, whichever the first batch was.
    let tracked = DispatchSemaphore(value: 0)
    let collector = ScriptedCollector(batch: 5) { batch in
      tracked.wait()
      tracked.signal()
      return batch.contains(where: CollectorClientTests.isPoison) ? 422 : 200
    }
    let drops = InMemoryDestination(id: "drops")
    let tracker = Self.tracked(20, into: collector, drops: drops)
    tracked.signal()
    #expect(tracker.flush(timeout: 30))
    let dropped = JournalTests.numbers(drops.events)
    let poisoned = collector.offered.filter { $0.contains(13) }
    #expect(poisoned.count == 1, "the batch holding 13 is offered once, never split: \(collector.offered)")
    #expect(dropped == poisoned.first && dropped.count == 5, "the whole batch is dropped: \(dropped), offered \(collector.offered)")
    #expect(Set(dropped).isDisjoint(with: JournalTests.numbers(collector.received.events)))
    #expect(dropped.count + collector.received.events.count == 20)
    #expect(tracker.statistics["collector"]?.droppedByReason == [.clientError(422): dropped.count])
    #expect(drops.events.allSatisfy { $0.id == "clientError 422" })
    #expect(tracker.statistics["collector"]?.balances == true)
  }

  @Test func retriedAnswersAreRetriedNeverDroppedAndCountedByReason() throws {
    let failures = Counter()
    let statuses: [Int?] = [503, nil, 408, 302, 410, 429, 460, 500]
    let collector = ScriptedCollector { _ in
      let attempt = failures.next()
      return attempt < statuses.count ? statuses[attempt] : 200
    }
    let tracker = Self.tracked(30, into: collector)
    #expect(tracker.flush(timeout: 30))
    #expect(JournalTests.numbers(collector.received.events) == Array(0..<30))
    let statistics = try #require(tracker.statistics["collector"])
    #expect(statistics.failedAttempts == statuses.count)
    #expect(
      statistics.failuresByReason == [
        .serverError: 2, .network: 1, .requestTimeout: 1, .redirect: 1, .gone: 1, .rateLimited: 1, .clientClosedRequest: 1,
      ])
    #expect(statistics.dropped == 0)
    #expect(statistics.balances)
  }

  /// Memory depends on the batch size, never the backlog: the lane never offers more than a batch.
  @Test func aFailingCollectorIsOfferedOneBatchAtATime() throws {
    let failures = Counter()
    let collector = ScriptedCollector(batch: 16) { _ in failures.next() < 50 ? nil : 200 }
    let tracker = Self.tracked(500, into: collector)
    #expect(tracker.flush(timeout: 60))
    #expect(collector.batchSizes.allSatisfy { $0 <= 16 })
    #expect(JournalTests.numbers(collector.received.events) == Array(0..<500))
  }

  // MARK: Remote configuration

  @Test func remoteConfigurationAppliesAGoodDocumentAndKeepsItThroughBadOnes() throws {
    let directory = try TemporaryDirectory()
    let served = directory.url.appendingPathComponent("config.json")
    let cache = directory.url.appendingPathComponent("cache.json")
    try Data(
      #"{"version": 1, "destinations": {"firebase": {"enabled": true}, "mixpanel": {"enabled": false, "sampling": 0.5}}, "events": {"CTRL_HOME_FAV": {"sampling": 0.1}}, "future": [1]}"#
        .utf8
    ).write(to: served)
    let remote = RemoteDestinationConfiguration(url: served, cacheFile: cache, fallback: FixedDestinationConfiguration(enabled: ["other"]))
    #expect(!remote.isEnabled("firebase"), "before any document: the fallback")
    #expect(Self.refresh(remote))
    #expect(remote.isEnabled("firebase"))
    #expect(!remote.isEnabled("mixpanel"))
    #expect(remote.isEnabled("other"), "a destination the document does not name follows the fallback")
    #expect(remote.samplingRate(eventID: "CTRL_HOME_FAV", destinationID: "mixpanel") == 0.05)
    #expect(remote.samplingRate(eventID: "PAGE_HOME_ENTER", destinationID: "firebase") == 1)
    #expect(FileManager.default.fileExists(atPath: cache.path), "cached")

    for bad in [
      "not json", #"{"destinations": {}}"#, #"{"version": 1, "destinations": {"firebase": {"enabled": "yes"}}}"#,
      #"{"version": 1, "events": {"E": {"sampling": 2}}}"#, #"{"version": 1, "destinations": []}"#, #"[1]"#,
    ] {
      try Data(bad.utf8).write(to: served)
      #expect(!Self.refresh(remote), "\(bad)")
      #expect(remote.isEnabled("firebase") && !remote.isEnabled("mixpanel"), "the last good document stays")
    }
    try FileManager.default.removeItem(at: served)
    #expect(!Self.refresh(remote))
    let statistics = remote.statistics
    #expect(statistics.badDocuments == 6)
    #expect(statistics.fetchFailures == 1)
    #expect(statistics.applied == 1)
    #expect(statistics.source == .network)

    // The next process starts from the cache.
    let next = RemoteDestinationConfiguration(url: served, cacheFile: cache)
    #expect(next.waitUntil(timeout: TrackerTests.patience) { $0.source == .cache }, "\(next.statistics)")
    #expect(!next.isEnabled("mixpanel"))
  }

  @Test func samplingKeepsAShareOfEvents() {
    struct Half: DestinationConfiguration {
      func isEnabled(_ destinationID: String) -> Bool { true }
      func samplingRate(eventID: String, destinationID: String) -> Double { destinationID == "mixpanel" ? 0.5 : 0 }
    }
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = Tracker(registry: TestRegistry(), destinations: [mixpanel, firebase], configuration: Half())
    for _ in 0..<2_000 { tracker.track(TestRegistry.EventID.ctrlHomeFav) }
    #expect(tracker.flush())
    #expect(firebase.events.isEmpty)
    // 2,000 draws at 0.5: a standard deviation of about 22, so this is 5.4 of them either side (a false
    // failure about once in ten million runs), and a rate off by a tenth (0.45) fails.
    #expect((880...1120).contains(mixpanel.events.count), "\(mixpanel.events.count)")
    #expect(tracker.statistics["mixpanel"]?.accepted == mixpanel.events.count, "sampled-out events are not accepted")
  }

  static func refresh(_ remote: RemoteDestinationConfiguration) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let result = Counter()
    remote.refresh { applied in
      if applied { _ = result.next() }
      done.signal()
    }
    done.wait()
    return result.value == 1
  }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  /// The count before this call.
  func next() -> Int {
    lock.lock()
    defer { lock.unlock() }
    count += 1
    return count - 1
  }

  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
}
