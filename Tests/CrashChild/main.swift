import Foundation
@_spi(Generated) import TrackcRuntime

// The child of the crash test (`CrashTests`): tracks numbered events into a journal as fast as it
// can and reports each acknowledged number (track() returned) on standard output, 8 bytes each, until
// the parent kills it with SIGKILL. Its destination is the receiving side: it appends each event it is
// given to a file (`<number> <messageId>` per line, with write(2), so the line is the kernel's before
// `receive` returns, like a collector's 2xx), and may kill its own process right after, before the
// cursor moves: the kill that makes duplicates.
//
//     trackc-crash-child track JOURNAL RECEIVED FIRST [SELF_KILL_RATE]   (as fast as it can)
//     trackc-crash-child paced JOURNAL RECEIVED FIRST [SELF_KILL_RATE]   (an event every 200 µs, so that
//                                                  delivery catches up and the backlog stays bounded)
//     trackc-crash-child drain JOURNAL RECEIVED      (delivers what is left, then exits 0)
//     trackc-crash-child consent JOURNAL DIRECTORY FIRST [BEFORE_REVOKING]   (`ConsentCrashTests`, below)
//     trackc-crash-child consent-drain JOURNAL DIRECTORY
//     trackc-crash-child pending JOURNAL DIRECTORY FIRST COUNT   (`PendingConsentCrashTests`, below)
//     trackc-crash-child pending-answer JOURNAL DIRECTORY grant|deny
//
// In the consent modes, events go to two destinations: `open`, which no consent category gates, and
// `gated`, gated by the category `ads` (granted until answered), a slow receiver so that a backlog
// builds. A run grants `ads` (writing `GRANT <next number>` into gated.txt first), tracks BEFORE_REVOKING
// events (a few hundred to a few thousand, at random when not given), revokes `ads` (writing `REVOKED <next number>` once the call returned), then
// tracks on until killed. Each destination writes `<number> <messageId>` lines into DIRECTORY/<id>.txt.
//
// With RECEIVED an http:// URL, the destination is `HTTPCollectorDestination` uploading to that
// collector, and SELF_KILL_RATE is per upload answered 2xx: the kill comes before the cursor moves.
//
// `TRACKC_CRASH_KILL=<after> <microseconds>` in the environment is the moment of the parent's kill, which
// the child carries out itself: SIGKILL from a timer of its own, started once `after` has happened
// (`first`: the first event acknowledged; `revoked`: the revocation returned, in the consent mode).

enum CrashTestID: String, TrackingEventID { case crash = "CRASH_TEST" }

/// Starts the kill timer if `TRACKC_CRASH_KILL` names `moment`. The SIGKILL comes from another thread at
/// a moment unrelated to the main thread's work, so it falls anywhere in its cycle of tracking, appending
/// to the journal and acknowledging. (Kills the parent sent as it read the Nth acknowledgement never
/// landed mid-append, 0 of 52, against about 1 in 8 of timed ones: on two cores, the reading wakes
/// when the child writes, and the kill finds the child where that write left it.)
func startKillTimer(after moment: String) {
  guard let setting = ProcessInfo.processInfo.environment["TRACKC_CRASH_KILL"]?.split(separator: " "), setting.count == 2,
    setting[0] == moment, let microseconds = Int(setting[1])
  else { return }
  DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(microseconds)) { _ = kill(getpid(), SIGKILL) }
}

/// One event, for every destination; in the consent modes (`consent`), for `open` and `gated`, `gated`
/// gated by `ads`.
struct Registry: TrackingRegistry {
  static let rule = EventRule(eventID: "CRASH_TEST", routing: .unrestricted)
  static let consentRule = EventRule(eventID: "CRASH_TEST", routing: .only(["open", "gated"]))
  typealias ID = CrashTestID
  var consent = false
  func screen(named name: String) -> ScreenID? { nil }
  func handler(named name: String) -> HandlerID? { nil }
  func pageRule(screen: ScreenID, phase: PagePhase) -> EventRule? { nil }
  func controlRule(screen: ScreenID, handler: HandlerID) -> EventRule? { nil }
  func rule(eventID: String) -> EventRule? { eventID == Self.rule.eventID ? (consent ? Self.consentRule : Self.rule) : nil }
  func name(of screen: ScreenID) -> String { "" }
  func name(of handler: HandlerID) -> String { "" }
  func consentCategory(ofDestination id: String) -> String? { consent && id == "gated" ? "ads" : nil }
  var consentDefaults: [String: Bool] { consent ? ["ads": true] : [:] }
  var consentGatedDestinations: [String] { consent ? ["gated"] : [] }
}

final class FileReceiver: TrackingDestination, @unchecked Sendable {
  let id = "collector"
  let descriptor: Int32
  let selfKillRate: Double

  init(path: String, selfKillRate: Double) {
    descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    self.selfKillRate = selfKillRate
    // A kill in the middle of a write(2) that crosses a page can leave part of a line (the event was then
    // not received: its cursor never moved, so it comes again). End that fragment before appending.
    var last: UInt8 = 0
    let size = lseek(descriptor, 0, SEEK_END)
    if size > 0 && pread(descriptor, &last, 1, size - 1) == 1 && last != UInt8(ascii: "\n") {
      _ = "\n".withCString { write(descriptor, $0, 1) }
    }
  }

  func receive(_ event: TrackingEvent) throws {
    guard case .int(let number)? = event.properties["n"] else { return }
    let line = Array("\(number) \(event.messageID.uuidString)\n".utf8)
    _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    if selfKillRate > 0 && Double.random(in: 0..<1) < selfKillRate {
      _ = "self-kill\n".withCString { write(2, $0, 10) }
      kill(getpid(), SIGKILL)
    }
  }
}

/// The HTTP destination, killing its process right after a 2xx now and then.
final class KillAfterUpload: BatchTrackingDestination, @unchecked Sendable {
  let inner: HTTPCollectorDestination
  let selfKillRate: Double
  var id: String { inner.id }
  var batchLimits: BatchLimits { inner.batchLimits }

  var role: DestinationRole { inner.role }

  init(collector: URL, selfKillRate: Double) {
    inner = try! HTTPCollectorDestination(endpoint: collector, batch: BatchLimits(maximumEvents: 200, maximumAge: 0.02))
    self.selfKillRate = selfKillRate
  }

  func deliver(_ batch: [TrackingEvent], completion: @escaping @Sendable (BatchOutcome) -> Void) {
    let rate = selfKillRate
    inner.deliver(batch) { outcome in
      if outcome == .delivered && rate > 0 && Double.random(in: 0..<1) < rate {
        _ = "self-kill\n".withCString { write(2, $0, 10) }
        kill(getpid(), SIGKILL)
      }
      completion(outcome)
    }
  }
}

/// Writes each event it receives into its file, as `FileReceiver` does, slowly enough (`delay`
/// microseconds an event) that what is tracked waits for it.
final class NamedFileReceiver: TrackingDestination, @unchecked Sendable {
  let id: String
  let file: FileReceiver
  let delay: UInt32
  init(id: String, path: String, delay: UInt32) {
    self.id = id
    file = FileReceiver(path: path, selfKillRate: 0)
    self.delay = delay
  }
  func receive(_ event: TrackingEvent) throws {
    // Not a wait: the time this destination takes per event (a slow destination).
    if delay > 0 { usleep(delay) }
    try file.receive(event)
  }
  /// A line of its own in the file (`GRANT 12`), between the events' lines.
  func mark(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(file.descriptor, $0.baseAddress, $0.count) }
  }
}

/// The pending modes' plan: `ads` waits for the first answer (`default: pending`) and gates `gated` (a
/// lane of its own) and `relay` (forwarded by the collector); `open` is gated by nothing. Each launch
/// tracks Application Opened (and the first, Application Installed) for `gated` and `relay`.
struct PendingRegistry: TrackingRegistry {
  static let rule = EventRule(eventID: "CRASH_TEST", routing: .only(["open", "gated", "relay"]))
  static let installed = EventRule(eventID: "APP_INSTALLED", routing: .only(["gated", "relay"]))
  static let opened = EventRule(eventID: "APP_OPENED", routing: .only(["gated", "relay"]))
  func screen(named name: String) -> ScreenID? { nil }
  func handler(named name: String) -> HandlerID? { nil }
  func pageRule(screen: ScreenID, phase: PagePhase) -> EventRule? { nil }
  func controlRule(screen: ScreenID, handler: HandlerID) -> EventRule? { nil }
  func rule(eventID: String) -> EventRule? { eventID == Self.rule.eventID ? Self.rule : nil }
  func name(of screen: ScreenID) -> String { "" }
  func name(of handler: HandlerID) -> String { "" }
  func consentCategory(ofDestination id: String) -> String? { id == "gated" || id == "relay" ? "ads" : nil }
  var consentGatedDestinations: [String] { ["gated", "relay"] }
  var consentDefaults: [String: Bool] { ["ads": false] }
  var pendingConsentCategories: Set<String> { ["ads"] }
  /// Far from what a run tracks: the limits have tests of their own (`PendingConsentTests`).
  var pendingConsentLimits: PendingConsentLimits { PendingConsentLimits(events: 10_000_000, seconds: 86_400) }
  func applicationRule(_ event: ApplicationEvent) -> EventRule? {
    switch event {
    case .installed: return Self.installed
    case .opened: return Self.opened
    default: return nil
    }
  }
}

/// Writes `<event ID> <n, or -1> <messageId> <forwarded to, or ->` for each event it is given, with
/// write(2); as a plan destination or as the collector.
final class EventLog: TrackingDestination, @unchecked Sendable {
  let id: String
  let role: DestinationRole
  let descriptor: Int32
  init(id: String, role: DestinationRole = .planDestination, path: String) {
    self.id = id
    self.role = role
    descriptor = FileReceiver(path: path, selfKillRate: 0).descriptor
  }
  func receive(_ event: TrackingEvent) throws {
    var number = -1
    if case .int(let value)? = event.properties["n"] { number = value }
    let line = Array("\(event.id) \(number) \(event.messageID.uuidString) \(event.forwardedTo?.joined(separator: ",") ?? "-")\n".utf8)
    _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  }
  func mark(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  }
}

let arguments = CommandLine.arguments
if arguments.count >= 5, arguments[1].hasPrefix("pending") {
  // A launch as an app's: the tracker built by hand, installed with the lifecycle (Application Opened
  // now, held for `ads` like any other event), then COUNT numbered events, then idle until killed; or,
  // with `pending-answer`, the person's first answer, then everything delivered or dropped.
  let journal = JournalConfiguration.directory(URL(fileURLWithPath: arguments[2]))
  let directory = arguments[3]
  let open = EventLog(id: "open", path: directory + "/open.txt")
  let gated = EventLog(id: "gated", path: directory + "/gated.txt")
  let collector = EventLog(id: "collector", role: .collector, path: directory + "/collector.txt")
  let tracker = Tracker(
    registry: PendingRegistry(), destinations: [open, gated, collector], journal: journal, retry: RetryPolicy(initial: 0.001, maximum: 0.01))
  Trackc.install(tracker)
  if arguments[1] == "pending-answer" {
    let grant = arguments[4] == "grant"
    gated.mark("ANSWER")
    collector.mark("ANSWER")
    let pendingBefore = tracker.pendingConsent
    tracker.setConsent("ads", granted: grant)
    let drained = tracker.flush(timeout: 120)
    let statistics = tracker.statistics
    let balanced = statistics.values.allSatisfy(\.balances)
    print(
      "drained=\(drained) balanced=\(balanced) pendingBefore=\(pendingBefore.sorted()) pendingAfter=\(tracker.pendingConsent.sorted()) "
        + statistics.keys.sorted().map {
          let dropped = statistics[$0]!.droppedByReason.map { "\($0.key.rawValue)=\($0.value)" }.sorted().joined(separator: ",")
          return "\($0): \(statistics[$0]!.recovered) recovered, \(statistics[$0]!.delivered) delivered, dropped [\(dropped)]"
        }.joined(separator: "; "))
    exit(drained && balanced && pendingBefore == ["ads"] && tracker.pendingConsent.isEmpty ? 0 : 1)
  }
  var number = Int(arguments[4]) ?? 0
  let count = arguments.count > 5 ? Int(arguments[5]) ?? 500 : 500
  for _ in 0..<count {
    tracker.track(CrashTestID.crash, properties: ["n": .int(number)])
    var acknowledged = UInt64(number).littleEndian
    guard withUnsafeBytes(of: &acknowledged, { write(1, $0.baseAddress, 8) }) == 8 else { exit(3) }
    number += 1
  }
  // Not a wait: idle until the parent kills the process (what waits is in the journal, not here).
  while true { pause() }
}
if arguments.count >= 4, arguments[1].hasPrefix("consent") {
  let journal = JournalConfiguration.directory(URL(fileURLWithPath: arguments[2]))
  let directory = arguments[3]
  let gated = NamedFileReceiver(id: "gated", path: directory + "/gated.txt", delay: 50)
  let open = NamedFileReceiver(id: "open", path: directory + "/open.txt", delay: 0)
  let tracker = Tracker(
    registry: Registry(consent: true), destinations: [open, gated], journal: journal, retry: RetryPolicy(initial: 0.001, maximum: 0.01))
  if arguments[1] == "consent-drain" {
    let drained = tracker.flush(timeout: 120)
    let statistics = tracker.statistics
    let balanced = statistics.values.allSatisfy(\.balances)
    print(
      "drained=\(drained) balanced=\(balanced) consent=\(tracker.consent) "
        + statistics.keys.sorted().map { "\($0): \(statistics[$0]!.delivered) delivered, \(statistics[$0]!.droppedByReason) dropped" }
        .joined(separator: "; "))
    exit(drained && balanced ? 0 : 1)
  }
  var number = Int(arguments.count > 4 ? arguments[4] : "0") ?? 0
  func track() {
    tracker.track(CrashTestID.crash, properties: ["n": .int(number)])
    var acknowledged = UInt64(number).littleEndian
    guard withUnsafeBytes(of: &acknowledged, { write(1, $0.baseAddress, 8) }) == 8 else { exit(3) }
    number += 1
  }
  let beforeRevoking = arguments.count > 5 ? Int(arguments[5]) ?? 200 : Int.random(in: 200...3_000)
  gated.mark("GRANT \(number)")
  tracker.setConsent("ads", granted: true)
  track()
  startKillTimer(after: "first")
  for _ in 1..<max(1, beforeRevoking) { track() }
  tracker.setConsent("ads", granted: false)
  gated.mark("REVOKED \(number)")
  startKillTimer(after: "revoked")
  while true { track() }
}
guard arguments.count >= 4 else {
  FileHandle.standardError.write(Data("usage: trackc-crash-child track|paced|drain JOURNAL RECEIVED [FIRST [SELF_KILL_RATE]]\n".utf8))
  exit(2)
}
let journal = JournalConfiguration.directory(URL(fileURLWithPath: arguments[2]))
let selfKillRate = arguments.count > 5 ? Double(arguments[5]) ?? 0 : 0
let receiver: any TrackingDestination =
  arguments[3].hasPrefix("http://")
  ? KillAfterUpload(collector: URL(string: arguments[3])!, selfKillRate: selfKillRate)
  : FileReceiver(path: arguments[3], selfKillRate: selfKillRate)
let tracker = Tracker(registry: Registry(), destinations: [receiver], journal: journal, retry: RetryPolicy(initial: 0.001, maximum: 0.01))

switch arguments[1] {
case "drain":
  let drained = tracker.flush(timeout: 120)
  let statistics = tracker.statistics["collector"] ?? DestinationStatistics()
  print(
    "drained=\(drained) recovered=\(statistics.recovered) delivered=\(statistics.delivered) dropped=\(statistics.dropped) "
      + "cutTails=\(tracker.journalStatistics.cutTails) quarantined=\(tracker.journalStatistics.quarantinedSegments)")
  exit(drained && statistics.balances && statistics.dropped == 0 ? 0 : 1)
default:
  let paced = arguments[1] == "paced"
  var number = Int(arguments.count > 4 ? arguments[4] : "0") ?? 0
  let first = number
  while true {
    tracker.track(Registry.ID.crash, properties: ["n": .int(number)])
    var acknowledged = UInt64(number).littleEndian
    guard withUnsafeBytes(of: &acknowledged, { write(1, $0.baseAddress, 8) }) == 8 else { exit(3) }
    if number == first { startKillTimer(after: "first") }
    number += 1
    // Not a wait: the pace of a self-killing child's tracking (200 µs an event), so that delivery keeps up.
    if paced { usleep(200) }
  }
}
