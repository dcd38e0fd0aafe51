import Foundation
import Testing
import TrackcCollector

@_spi(Generated) @testable import TrackcRuntime

/// Sessions as Amplitude's SDKs count them: an ID (when the session started, in milliseconds since 1970)
/// on every call (`context.sessionId`) and in the `integrations` entry of Amplitude's destination
/// (`{"session_id": …}`), a new one when the app comes back after more than the timeout in the background
/// (`session_end`, then `session_start`, to Amplitude alone), and the same one after a relaunch within it.
/// Time is the test's clock, moved by hand; the collector is the project's, on 127.0.0.1.
@Suite struct SessionTests {
  /// `TestRegistry`'s rules, with an Amplitude destination (`Amplitude` on the wire) that counts sessions.
  struct Registry: TestRegistryRules {
    var base = TestRegistry()
    var sessionDestinations: [String] { ["amplitude"] }
    func wireName(ofDestination id: String) -> String? {
      switch id {
      case "amplitude": return "Amplitude"
      case "mixpanel": return "Mixpanel"
      default: return nil
      }
    }
  }

  /// A clock the test moves.
  final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var now: Date

    init(_ start: Date) { now = start }

    func advance(_ seconds: TimeInterval) { lock.withLock { now += seconds } }

    var read: @Sendable () -> Date { { [self] in lock.withLock { now } } }

    var milliseconds: Int64 { Tracker.milliseconds(read()) }
  }

  static let start = Date(timeIntervalSince1970: 1_800_000_000.125)

  static func options(_ call: ReceivedEvent) -> String? { call.integrationOptions["Amplitude"] }

  static func sessionOption(_ id: Int64) -> String { #"{"session_id":\#(id)}"# }

  static func tracker(_ collector: Collector, clock: Clock, journal: JournalConfiguration = .inMemory) throws -> Tracker {
    Tracker(
      registry: Registry(), destinations: [try DeliveryHarness.destination(collector)], journal: journal, retry: DeliveryHarness.retry,
      clock: clock.read)
  }

  static func background(_ tracker: Tracker) {
    tracker.applicationDidEnterBackground(within: 0) { _ in }
  }

  /// Every call carries the session ID, and Amplitude's entry in `integrations` carries it as its
  /// options (an event for every destination says `"All": true` with it; an event for Mixpanel alone
  /// does not name Amplitude); back within the timeout the session goes on, after it a new one starts,
  /// Amplitude told so by `session_end` (the old ID, dated when the app went away) and `session_start`.
  @Test func everyCallCarriesTheSessionAndAmplitudeGetsItsID() async throws {
    let collector = try await DeliveryHarness.start()
    let clock = Clock(Self.start)
    let tracker = try Self.tracker(collector, clock: clock)
    let first = clock.milliseconds
    #expect(tracker.sessionID == first)
    tracker.identify(userID: "user-1")
    tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(0)])
    tracker.track(TestRegistry.EventID.manualOnly)
    // Away for the timeout exactly: the same session.
    Self.background(tracker)
    clock.advance(Defaults.sessionTimeout)
    tracker.applicationWillEnterForeground()
    #expect(tracker.sessionID == first)
    tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(1)])
    // Away a second longer than the timeout: a new session.
    Self.background(tracker)
    let away = clock.milliseconds
    clock.advance(Defaults.sessionTimeout + 1)
    tracker.applicationWillEnterForeground()
    let second = clock.milliseconds
    #expect(tracker.sessionID == second && second != first)
    tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(2)])
    #expect(await tracker.flush(timeout: 30))

    let received = collector.received
    #expect(
      received.map(\.event) == [
        Tracker.sessionStartEvent, "", "CTRL_DETAIL_BUY", "MANUAL_ONLY", "CTRL_DETAIL_BUY", Tracker.sessionEndEvent, Tracker.sessionStartEvent,
        "CTRL_DETAIL_BUY",
      ])
    #expect(received.map(\.sessionID) == [first, first, first, first, first, first, second, second])
    #expect(
      received.map(Self.options) == [
        Self.sessionOption(first), Self.sessionOption(first), Self.sessionOption(first), nil, Self.sessionOption(first),
        Self.sessionOption(first), Self.sessionOption(second), Self.sessionOption(second),
      ])
    // The session calls go to Amplitude alone; the rest to every destination, or to Mixpanel alone.
    #expect(received[0].json.contains(#""integrations":{"All":false,"Amplitude":{"session_id":\#(first)}}"#), "\(received[0].json)")
    #expect(received[2].json.contains(#""integrations":{"All":true,"Amplitude":{"session_id":\#(first)}}"#), "\(received[2].json)")
    #expect(received[3].json.contains(#""integrations":{"All":false,"Mixpanel":true}"#), "\(received[3].json)")
    #expect(received[3].json.contains(#""sessionId":\#(first)"#))
    #expect(received.map(\.destinations) == [["Amplitude"], nil, nil, ["Mixpanel"], nil, ["Amplitude"], ["Amplitude"], nil])
    // session_end is dated when the app went away; session_start when the new session began.
    #expect(received[5].timestamp == Self.iso(away) && received[6].timestamp == Self.iso(second))
    // The collector shows the options and the session on the call's line.
    let line = CollectorRecord.accepted(received[2]).textLines.first ?? ""
    #expect(line.contains(#"Amplitude {"session_id":\#(first)}  session \#(first)"#), "\(line)")
    await collector.stop()
  }

  /// The session is kept with the identity in the journal's directory: a relaunch within the timeout
  /// goes on with it (no new `session_start`), a relaunch after it starts a new one; a plan without a
  /// destination that counts sessions still stamps every call, and sends no session calls.
  @Test func theSessionIsKeptAcrossALaunch() async throws {
    let collector = try await DeliveryHarness.start()
    let directory = try TemporaryDirectory()
    let journal = JournalConfiguration(storage: .directory(directory.url))
    let clock = Clock(Self.start)
    let first = clock.milliseconds
    do {
      let tracker = try Self.tracker(collector, clock: clock, journal: journal)
      tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(0)])
      Self.background(tracker)
      #expect(await tracker.flush(timeout: 30))
    }
    clock.advance(Defaults.sessionTimeout - 1)
    do {
      let tracker = try Self.tracker(collector, clock: clock, journal: journal)
      #expect(tracker.sessionID == first)
      tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(1)])
      Self.background(tracker)
      #expect(await tracker.flush(timeout: 30))
    }
    clock.advance(Defaults.sessionTimeout + 1)
    let second = clock.milliseconds
    do {
      let tracker = try Self.tracker(collector, clock: clock, journal: journal)
      #expect(tracker.sessionID == second)
      tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(2)])
      #expect(await tracker.flush(timeout: 30))
    }
    #expect(
      collector.received.map(\.event) == [
        Tracker.sessionStartEvent, "CTRL_DETAIL_BUY", "CTRL_DETAIL_BUY", Tracker.sessionEndEvent, Tracker.sessionStartEvent, "CTRL_DETAIL_BUY",
      ])
    #expect(collector.received.map(\.sessionID) == [first, first, first, first, second, second])

    // Without an Amplitude destination: the ID on every call, no session calls, no options.
    let plain = try await DeliveryHarness.start()
    let tracker = Tracker(
      registry: TestRegistry(), destinations: [try DeliveryHarness.destination(plain)], retry: DeliveryHarness.retry, clock: clock.read)
    tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(3)])
    #expect(await tracker.flush(timeout: 30))
    #expect(plain.received.map(\.event) == ["CTRL_DETAIL_BUY"])
    #expect(plain.received.map(\.sessionID) == [second] && plain.received.first?.integrationOptions == [:])
    await plain.stop()
    await collector.stop()
  }

  /// The snapshot record keeps the session after the context, consent and plan fields (with and without
  /// each), and a record without it reads as none; the state file keeps it after the consent.
  @Test func theRecordsKeepTheSession() throws {
    for consent in [ConsentStamp(), ConsentStamp(granted: ["ads": 2])] {
      for plan in [nil, PlanStamp(version: "1", hash: "fnv1a64:00000000000000aa")] {
        for session in [nil, Int64(1_800_000_000_125)] {
          let snapshot = EventSnapshot(
            identity: TrackingIdentity(anonymousID: "a"), context: TrackingContext(), consent: consent, plan: plan, session: session)
          var bytes = [UInt8](repeating: 0, count: SnapshotCoding.encodedSize(snapshot, number: 1))
          _ = bytes.withUnsafeMutableBytes { SnapshotCoding.encode(snapshot, number: 1, into: $0.baseAddress!) }
          let decoded = bytes.withUnsafeBytes { SnapshotCoding.decode($0) }
          #expect(decoded?.snapshot == snapshot && decoded?.snapshot.session == session, "\(consent) \(String(describing: plan))")
        }
      }
    }
    var state = StateFile.State(identity: TrackingIdentity(anonymousID: "a"), launched: true)
    state.consent.categories["ads"] = ConsentAnswers.Answer(granted: true, revocations: 1, refusedWhilePending: false)
    #expect(StateFile.decode(StateFile.encode(state)) == state)
    state.session = StateFile.Session(id: 1_800_000_000_123, lastActive: 1_800_000_100_000)
    #expect(StateFile.decode(StateFile.encode(state)) == state)
  }

  /// Remote configuration that switches destinations off and on while the app runs.
  final class Switches: DestinationConfiguration, @unchecked Sendable {
    private let lock = NSLock()
    private var off: Set<String>

    init(off: Set<String>) { self.off = off }

    func set(off: Set<String>) { lock.withLock { self.off = off } }

    func isEnabled(_ destinationID: String) -> Bool { lock.withLock { !off.contains(destinationID) } }

    var disabledDestinations: [String] { lock.withLock { off.sorted() } }
  }

  /// A plan destination remote configuration switched off is left out of the calls meant for every
  /// destination (`"Amplitude": false`, and no session options for it), gets no session calls, and is
  /// back once switched on; a switched-off collector is not named.
  @Test func aDestinationSwitchedOffRemotelyIsLeftOutOfCallsForEveryDestination() async throws {
    let collector = try await DeliveryHarness.start()
    let clock = Clock(Self.start)
    let switches = Switches(off: ["amplitude"])
    let tracker = Tracker(
      registry: Registry(), destinations: [try DeliveryHarness.destination(collector)], configuration: switches,
      retry: DeliveryHarness.retry, clock: clock.read)
    tracker.identify(userID: "user-1", traits: ["email": .string("ada@example.com")])
    tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(0)])
    #expect(await tracker.flush(timeout: 30))
    switches.set(off: [])
    tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(1)])
    #expect(await tracker.flush(timeout: 30))
    let received = collector.received
    #expect(received.map(\.event) == ["", "CTRL_DETAIL_BUY", "CTRL_DETAIL_BUY"], "no session_start while Amplitude is off")
    #expect(received.map(\.withheldFrom) == [["Amplitude"], ["Amplitude"], []])
    #expect(received.map(Self.options) == [nil, nil, Self.sessionOption(clock.milliseconds)])
    #expect(received[0].json.contains(#""integrations":{"All":true,"Amplitude":false}"#), "\(received[0].json)")
    await collector.stop()
  }

  static func iso(_ milliseconds: Int64) -> String {
    var out: [UInt8] = []
    BatchJSON.timestamp(Date(timeIntervalSince1970: Double(milliseconds) / 1000), into: &out)
    return String(decoding: out.dropFirst().dropLast(), as: UTF8.self)
  }
}
