import Foundation
import Testing

@testable import TrackcRuntime

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The collector client without a server: the configuration builder, the upload body, gzip, the
/// channel's state machine and keeper chain, the pool, and the batch failure policy as the delivery
/// lane applies it (statuses answered by a scripted destination through the real status mapping).
@Suite struct CollectorClientTests {
  static let collector = URL(string: "http://127.0.0.1:9")!

  // MARK: Builder

  @Test func theBuilderRejectsMisuseWhenBuilt() throws {
    #expect(throws: CollectorChannelConfigurationError.missingEndpoint) { try CollectorChannelConfiguration.builder().build() }
    #expect(throws: CollectorChannelConfigurationError.notHTTP("ftp://example.com/v1/batch")) {
      try CollectorChannelConfiguration.builder().endpoint(URL(string: "ftp://example.com/v1/batch")!).build()
    }
    #expect(throws: CollectorChannelConfigurationError.notHTTP("file:///tmp/x")) {
      try CollectorChannelConfiguration.builder().endpoint(URL(string: "file:///tmp/x")!).build()
    }
    #expect(throws: CollectorChannelConfigurationError.zeroBatchSize) {
      try CollectorChannelConfiguration.builder().endpoint(Self.collector).batch(events: 0).build()
    }
    #expect(throws: CollectorChannelConfigurationError.byteLimitTooSmall) {
      try CollectorChannelConfiguration.builder().endpoint(Self.collector).maximumBodyBytes(10).build()
    }
    let built = try CollectorChannelConfiguration.builder().endpoint(Self.collector).writeKey("key").batch(events: 7, seconds: 2).build()
    #expect(built.endpoint.absoluteString == "http://127.0.0.1:9/v1/batch", "a base URL gets the batch path")
    #expect(built.batchLimits == BatchLimits(maximumEvents: 7, maximumBytes: 128 * 1024, maximumAge: 2))
    let explicit = try CollectorChannelConfiguration.builder().endpoint(URL(string: "https://collector.example/custom/batch")!).build()
    #expect(explicit.endpoint.path == "/custom/batch")
  }

  // MARK: Body

  static let hostile = [
    "plain", "quote \" and backslash \\", "controls \u{0}\u{1}\u{1F}\n\r\t", "emoji 🚀 and é", "</script>", "\u{2028}\u{2029}", "",
  ]

  static func event(_ id: String, properties: [String: PropertyValue], source: TrackingEvent.Source = .manual, screen: String? = nil)
    -> TrackingEvent
  {
    TrackingEvent(
      id: id, source: source, screen: screen, properties: properties, timestamp: Date(timeIntervalSince1970: 1_795_428_000.123), messageID: UUID())
  }

  @Test func theBodyIsValidJSONWhateverTheStrings() throws {
    var events: [TrackingEvent] = []
    for (index, text) in Self.hostile.enumerated() {
      events.append(
        Self.event(
          text, properties: [text: .string(text), "n": .int(-index), "x": .double(.nan), "y": .double(-1e-300), "b": .bool(true)],
          source: index % 2 == 0 ? .control(handler: text) : .page(.leave), screen: text))
    }
    let body = BatchJSON.body(events, context: BatchJSON.Context(destination: "collector\"\n", anonymousID: "anon"), sentAt: Date())
    let root = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    let batch = try #require(root["batch"] as? [[String: Any]])
    #expect(batch.count == events.count)
    for (index, item) in batch.enumerated() {
      #expect(item["type"] as? String == "track")
      #expect(item["event"] as? String == Self.hostile[index])
      let properties = try #require(item["properties"] as? [String: Any])
      #expect(properties[Self.hostile[index]] as? String == Self.hostile[index])
      #expect(properties["x"] is NSNull, "NaN is null")
      #expect(item["messageId"] as? String == events[index].messageID.uuidString.lowercased())
      #expect(item["timestamp"] as? String == "2026-11-23T10:00:00.123Z")
      #expect(item["anonymousId"] as? String == "anon")
      let context = try #require(item["context"] as? [String: Any])
      let trackc = try #require(context["trackc"] as? [String: Any])
      #expect(trackc["destination"] as? String == "collector\"\n")
      #expect(trackc["screen"] as? String == Self.hostile[index])
      #expect(trackc["source"] as? String == (index % 2 == 0 ? "control" : "page"))
      #expect((context["library"] as? [String: Any])?["name"] as? String == "trackc")
    }
    #expect(root["sentAt"] is String)
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
    let body = BatchJSON.body(
      (0..<300).map { Self.event("E\($0)", properties: ["n": .int($0)]) }, context: .init(destination: "c", anonymousID: "a"), sentAt: Date())
    let compressed = try #require(Gzip.compress(body))
    #expect(compressed.count < body.count / 4)
    #expect(compressed.prefix(2) == [0x1F, 0x8B], "a gzip header")
    #expect(Gzip.decompress(compressed) == body)
  }

  // MARK: The journal's record form

  @Test func recordsRoundTripAndGarbageNeverDecodesIntoACrash() throws {
    var generator = SeededGenerator(seed: 21)
    let sources: [TrackingEvent.Source] = [.page(.enter), .page(.leave), .control(handler: "onFav(_:)"), .manual]
    for round in 0..<500 {
      let text = Self.hostile[round % Self.hostile.count] + String(round)
      var properties: [String: PropertyValue] = [text: .string(text), "i": .int(Int.random(in: .min ... .max, using: &generator))]
      properties["d"] = .double(Double(bitPattern: generator.next()))
      properties["b"] = .bool(round % 2 == 0)
      let draft = EventCoding.Draft(eventID: text, source: sources[round % 4], screen: round % 3 == 0 ? nil : text, properties: properties)
      let size = EventCoding.encodedSize(draft)
      var buffer = [UInt8](repeating: 0, count: size)
      let id = MessageIDGenerator().id(milliseconds: 1_795_428_000_123, sequence: UInt64(round))
      let written = buffer.withUnsafeMutableBytes {
        EventCoding.encode(draft, destinations: 5, messageID: id, microseconds: 1_795_428_000_123_456, into: $0.baseAddress!)
      }
      #expect(written == size)
      let event = try #require(buffer.withUnsafeBytes { EventCoding.decode($0) })
      #expect(event.id == draft.eventID && event.source == draft.source && event.screen == draft.screen)
      #expect(event.properties.count == properties.count)
      #expect(event.properties["i"] == properties["i"] && event.properties[text] == properties[text] && event.properties["b"] == properties["b"])
      if case .double(let original)? = properties["d"], case .double(let decoded)? = event.properties["d"] {
        #expect(original.bitPattern == decoded.bitPattern)
      }
      #expect(event.messageID.uuid.6 >> 4 == 7 && event.messageID.uuid.8 >> 6 == 2, "UUIDv7, RFC variant")
      #expect(buffer.withUnsafeBytes { EventCoding.destinations(of: $0) } == 5)
      // Every prefix and a flipped byte: nil or an event, never a crash.
      for cut in stride(from: 0, to: size, by: max(1, size / 16)) {
        _ = buffer.withUnsafeBytes { EventCoding.decode(UnsafeRawBufferPointer(rebasing: $0[0..<cut])) }
      }
      var flipped = buffer
      flipped[Int.random(in: 0..<size, using: &generator)] ^= 0xFF
      _ = flipped.withUnsafeBytes { EventCoding.decode($0) }
    }
    for _ in 0..<5_000 {
      let garbage = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
      _ = garbage.withUnsafeBytes { EventCoding.decode($0) }
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
    func response(_ value: String) -> HTTPURLResponse {
      HTTPURLResponse(url: Self.collector, statusCode: 429, httpVersion: "HTTP/1.1", headerFields: ["Retry-After": value])!
    }
    #expect(CollectorChannel.retryAfter(response("7")) == 7)
    #expect(CollectorChannel.retryAfter(response("nonsense")) == nil)
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    let inAMinute = try #require(CollectorChannel.retryAfter(response(formatter.string(from: Date(timeIntervalSinceNow: 60)))))
    #expect((55...61).contains(inAMinute))
    #expect(CollectorChannel.retryAfter(response(formatter.string(from: Date(timeIntervalSinceNow: -60)))) == 0, "a date past is now")
  }

  // MARK: Channel

  @Test func theStateMachineAllowsExactlyTheSeedsTransitions() {
    let allowed: [ChannelState: Set<ChannelState>] = [
      .created: [.connected, .disconnected], .connected: [.disconnected], .disconnected: [.reconnecting, .released],
      .reconnecting: [.connected, .disconnected], .released: [],
    ]
    for from in ChannelState.allCases {
      for to in ChannelState.allCases {
        var machine = ChannelStateMachine()
        for step in Self.path(to: from) { try? machine.move(to: step) }
        #expect(machine.state == from)
        if allowed[from]!.contains(to) {
          #expect(throws: Never.self) { try machine.move(to: to) }
        } else {
          #expect(throws: ChannelError.illegalTransition(from: from, to: to)) { try machine.move(to: to) }
        }
      }
    }
  }

  static func path(to state: ChannelState) -> [ChannelState] {
    switch state {
    case .created: return []
    case .connected: return [.connected]
    case .disconnected: return [.disconnected]
    case .reconnecting: return [.disconnected, .reconnecting]
    case .released: return [.disconnected, .released]
    }
  }

  @Test func aReleasedChannelRefusesSendsAndCannotBeReleasedAgain() throws {
    let pool = CollectorChannelPool()
    let configuration = try CollectorChannelConfiguration.builder().endpoint(Self.collector).build()
    let channel = pool.channel(for: configuration)
    let seen = InMemoryDestination(id: "states")
    channel.observe { state in seen.receive(CollectorClientTests.event(state.rawValue, properties: [:])) }
    try channel.release()
    #expect(channel.state == .released)
    #expect(seen.events.map(\.id) == ["disconnected", "released"], "observers hear each transition")
    #expect(throws: ChannelError.released) { try channel.send(CollectorChannel.Upload(body: Data(), gzipped: false) { _ in }) }
    #expect(throws: ChannelError.illegalTransition(from: .released, to: .released)) { try channel.release() }
    #expect(pool.channel(for: configuration) !== channel, "the pool makes a new channel after a release")
  }

  @Test func destinationsOfOneEndpointShareAChannel() throws {
    let pool = CollectorChannelPool()
    let first = try CollectorChannelConfiguration.builder().endpoint(Self.collector).batch(events: 10).build()
    let second = try CollectorChannelConfiguration.builder().endpoint(URL(string: "http://127.0.0.1:9/v1/batch")!).build()
    let other = try CollectorChannelConfiguration.builder().endpoint(URL(string: "http://127.0.0.1:10")!).build()
    let a = HTTPCollectorDestination(id: "a", configuration: first, pool: pool)
    let b = HTTPCollectorDestination(id: "b", configuration: second, pool: pool)
    let c = HTTPCollectorDestination(id: "c", configuration: other, pool: pool)
    #expect(a.channel === b.channel)
    #expect(a.channel !== c.channel)
    #expect(pool.count == 2)
  }

  struct HoldEverything: ChannelKeeper {
    func decide(_ context: KeeperContext) -> KeeperDecision? { .hold }
  }

  @Test func theKeeperChainDecidesInOrder() {
    let now = Date()
    var context = KeeperContext(
      state: .connected, isOnline: true, isInBackground: false, consecutiveFailures: 0, retryAfter: nil, backoffUntil: nil, now: now,
      waitingUploads: 1)
    let chain = ChannelKeepers.defaults
    #expect(ChannelKeepers.decide(chain, context) == .send)
    context.isInBackground = true
    #expect(ChannelKeepers.decide(chain, context) == .flush)
    context.backoffUntil = now + 5
    #expect(ChannelKeepers.decide(chain, context) == .backOff(until: now + 5))
    context.retryAfter = now + 30
    #expect(ChannelKeepers.decide(chain, context) == .backOff(until: now + 30), "Retry-After comes before the backoff")
    context.isOnline = false
    #expect(ChannelKeepers.decide(chain, context) == .hold)
    context.isOnline = true
    context.retryAfter = now - 1
    context.backoffUntil = now - 1
    context.isInBackground = false
    #expect(ChannelKeepers.decide(chain, context) == .send, "past deadlines do not hold")
    #expect(ChannelKeepers.decide([HoldEverything()] + chain, context) == .hold, "an app's keeper goes first")
  }

  // MARK: The failure policy, as the lane applies it

  /// Answers each batch with the status `answer` gives, through the HTTP destination's status mapping.
  final class ScriptedCollector: BatchTrackingDestination, @unchecked Sendable {
    let id = "collector"
    let batchLimits: BatchLimits
    let answer: @Sendable ([TrackingEvent]) -> CollectorChannel.UploadResult
    let received = InMemoryDestination(id: "received")
    private let lock = NSLock()
    private(set) var batchSizes: [Int] = []

    init(batch: Int = 8, answer: @escaping @Sendable ([TrackingEvent]) -> CollectorChannel.UploadResult) {
      batchLimits = BatchLimits(maximumEvents: batch, maximumBytes: 1 << 20, maximumAge: 0.01)
      self.answer = answer
    }

    func deliver(_ batch: [TrackingEvent], completion: @escaping @Sendable (BatchOutcome) -> Void) {
      lock.lock()
      batchSizes.append(batch.count)
      lock.unlock()
      let result = answer(batch)
      if case .response(200..<300, _) = result { batch.forEach(received.receive) }
      completion(HTTPCollectorDestination.outcome(result))
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
    let collector = ScriptedCollector { batch in .response(status: batch.contains(where: CollectorClientTests.isPoison) ? 400 : 200, retryAfter: nil)
    }
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
    let collector = ScriptedCollector { batch in
      .response(status: batch.count > 2 || batch.contains(where: CollectorClientTests.isPoison) ? 413 : 200, retryAfter: nil)
    }
    let tracker = Self.tracked(20, into: collector)
    #expect(tracker.flush(timeout: 30))
    #expect(JournalTests.numbers(collector.received.events) == Array(0..<20).filter { $0 != 13 })
    #expect(tracker.statistics["collector"]?.droppedByReason == [.tooLarge: 1])
    #expect(tracker.statistics["collector"]?.balances == true)
  }

  @Test func anotherClientErrorDropsTheWholeBatchAndTheQueueMovesOn() throws {
    let collector = ScriptedCollector(batch: 5) { batch in
      .response(status: batch.contains(where: CollectorClientTests.isPoison) ? 422 : 200, retryAfter: nil)
    }
    let drops = InMemoryDestination(id: "drops")
    let tracker = Self.tracked(20, into: collector, drops: drops)
    #expect(tracker.flush(timeout: 30))
    let dropped = JournalTests.numbers(drops.events)
    #expect(dropped.contains(13))
    #expect(Set(dropped).isDisjoint(with: JournalTests.numbers(collector.received.events)))
    #expect(dropped.count + collector.received.events.count == 20)
    #expect(tracker.statistics["collector"]?.droppedByReason == [.clientError(422): dropped.count])
    #expect(drops.events.allSatisfy { $0.id == "clientError 422" })
    #expect(tracker.statistics["collector"]?.balances == true)
  }

  @Test func serverErrorsAndNetworkFailuresAreRetriedNeverDropped() throws {
    let failures = Counter()
    let collector = ScriptedCollector { _ in
      let attempt = failures.next()
      if attempt < 6 { return attempt % 2 == 0 ? .response(status: 503, retryAfter: nil) : .failed("connection refused") }
      return .response(status: 200, retryAfter: nil)
    }
    let tracker = Self.tracked(30, into: collector)
    #expect(tracker.flush(timeout: 30))
    #expect(JournalTests.numbers(collector.received.events) == Array(0..<30))
    let statistics = try #require(tracker.statistics["collector"])
    #expect(statistics.failedAttempts == 6)
    #expect(statistics.dropped == 0)
    #expect(statistics.balances)
  }

  /// Memory depends on the batch size, never the backlog: the lane never offers more than a batch.
  @Test func aFailingCollectorIsOfferedOneBatchAtATime() throws {
    let failures = Counter()
    let collector = ScriptedCollector(batch: 16) { _ in failures.next() < 50 ? .failed("down") : .response(status: 200, retryAfter: nil) }
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
    #expect(TrackerTests.waitUntil { next.statistics.source == .cache })
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
    #expect((700...1300).contains(mixpanel.events.count), "\(mixpanel.events.count)")
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
