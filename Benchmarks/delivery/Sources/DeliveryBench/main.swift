import CSQLite
import Foundation
import Histogram
@_spi(Generated) import TrackcRuntime

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The delivery benchmark. Each mode is one process (bench.sh runs them all), so that memory figures
// belong to one measurement:
//
//     DeliveryBench latency DIR        track() with the journal, beside write(2) and a SQLite WAL insert
//     DeliveryBench powerloss DIR      the power-loss setting: p50 alone, events/s with threads
//     DeliveryBench sustained DIR      events/s into the journal on one thread
//     DeliveryBench collector-down DIR peak memory while 1,000,000 events wait for a collector that is down
//     DeliveryBench backlog DIR        leaves 100,000 events queued in DIR
//     DeliveryBench open DIR           opens DIR (after `backlog`): time to track, time to validate
//     DeliveryBench endtoend DIR       events/s to the collector on 127.0.0.1 (`trackc collector` as a process: $TRACKC, or the root's release build)
//     DeliveryBench consent DIR        track() without consent categories, with categories answered, and with
//                                      one pending (its lane holding what it gets), in one process

final class HomeViewController {}

struct BenchRegistry: TrackingRegistry {
  static let favorite = HandlerID(rawValue: 0)
  static let rule = EventRule(
    eventID: "CTRL_HOME_FAV", routing: .unrestricted, properties: ["source": .string("home"), "position": .int(2)])
  func screen(named name: String) -> ScreenID? { name.hasSuffix("HomeViewController") ? ScreenID(rawValue: 0) : nil }
  func handler(named name: String) -> HandlerID? { name == "onFavBtnPressed(_:)" ? Self.favorite : nil }
  func pageRule(screen: ScreenID, phase: PagePhase) -> EventRule? { nil }
  func controlRule(screen: ScreenID, handler: HandlerID) -> EventRule? { Self.rule }
  func rule(eventID: String) -> EventRule? { eventID == Self.rule.eventID ? Self.rule : nil }
  func name(of screen: ScreenID) -> String { "HomeViewController" }
  func name(of handler: HandlerID) -> String { "onFavBtnPressed(_:)" }
}

/// Takes everything, does nothing.
final class Discard: TrackingDestination, @unchecked Sendable {
  let id: String
  init(id: String = "firebase") { self.id = id }
  func receive(_ event: TrackingEvent) {}
}

/// Takes nothing: events stay queued.
final class Unreachable: TrackingDestination, @unchecked Sendable {
  struct Down: Error {}
  let id = "collector"
  func receive(_ event: TrackingEvent) throws { throw Down() }
}

@inline(__always) func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func trackOnce(_ tracker: Tracker) {
  tracker.trackControl(of: HomeViewController.self, handler: BenchRegistry.favorite)
}

func newHistogram() -> Histogram<UInt64> {
  Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
}

func microseconds(_ nanoseconds: UInt64) -> String { String(format: "%.2f", Double(nanoseconds) / 1000) }

func report(_ name: String, _ histogram: Histogram<UInt64>) {
  let line = [50.0, 90, 99, 99.9].map { "p\($0 == 99.9 ? "99.9" : String(Int($0)))=\(microseconds(histogram.valueAtPercentile($0)))" }
  print("\(name): n=\(histogram.totalCount) " + line.joined(separator: " ") + " max=\(microseconds(histogram.max)) µs")
}

/// A coarse histogram to look at: counts per power-of-two bucket of nanoseconds.
func printBuckets(_ histogram: Histogram<UInt64>) {
  var low: UInt64 = 64
  while low < histogram.max * 2 && low < 1 << 36 {
    let count = histogram.count(within: low...(low * 2 - 1))
    if count > 0 {
      let share = Double(count) / Double(histogram.totalCount)
      let bar = String(repeating: "#", count: max(1, Int((share * 60).rounded(.up))))
      print(String(format: "    %8.2f–%-8.2f µs %9d %6.3f%% %@", Double(low) / 1000, Double(low * 2) / 1000, count, share * 100, bar))
    }
    low *= 2
  }
}

func journal(_ directory: String, maximumBytes: Int = 512 << 20, durability: Durability = .processDeath) -> JournalConfiguration {
  JournalConfiguration(storage: .directory(URL(fileURLWithPath: directory)), maximumBytes: maximumBytes, durability: durability)
}

func fresh(_ directory: String) -> String {
  try? FileManager.default.removeItem(atPath: directory)
  try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  return directory
}

/// The average record size in the journal's first segment (header + payload), to write the same bytes
/// with write(2) and SQLite.
func recordSize(in directory: String) -> Int {
  let segments = directory + "/segments"
  guard let name = try? FileManager.default.contentsOfDirectory(atPath: segments).sorted().first,
    let bytes = FileManager.default.contents(atPath: segments + "/" + name).map(Array.init)
  else { return 100 }
  let header = Int(bytes[6]) | Int(bytes[7]) << 8
  var offset = (header + 7) & ~7
  var count = 0
  let start = offset
  while offset + 8 <= bytes.count {
    let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    if length == 0 { break }
    offset += 8 + length
    count += 1
  }
  return count == 0 ? 100 : (offset - start) / count
}

func memory() -> [String: Int] {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return [:] }
  var values: [String: Int] = [:]
  for line in status.split(separator: "\n") {
    let parts = line.split(separator: ":")
    guard parts.count == 2 else { continue }
    let number = parts[1].split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
    if let number { values[String(parts[0])] = number }
  }
  return values
}

/// User and system CPU time of this process so far, in seconds.
func cpuSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

func megabytes(_ kilobytes: Int?) -> String { String(format: "%.1f MB", Double(kilobytes ?? 0) / 1024) }

// MARK: Modes

/// `BenchRegistry`'s event for firebase and mixpanel, gated by `analytics` and `ads`; `ads` waits for the
/// first answer when `pending`, as a plan with `default: pending` generates it.
struct ConsentBenchRegistry: TrackingRegistry {
  static let rule = EventRule(
    eventID: "CTRL_HOME_FAV", routing: .only(["firebase", "mixpanel"]), properties: ["source": .string("home"), "position": .int(2)])
  var categories = true
  var pending = false
  func screen(named name: String) -> ScreenID? { name.hasSuffix("HomeViewController") ? ScreenID(rawValue: 0) : nil }
  func handler(named name: String) -> HandlerID? { name == "onFavBtnPressed(_:)" ? BenchRegistry.favorite : nil }
  func pageRule(screen: ScreenID, phase: PagePhase) -> EventRule? { nil }
  func controlRule(screen: ScreenID, handler: HandlerID) -> EventRule? { Self.rule }
  func rule(eventID: String) -> EventRule? { eventID == Self.rule.eventID ? Self.rule : nil }
  func name(of screen: ScreenID) -> String { "HomeViewController" }
  func name(of handler: HandlerID) -> String { "onFavBtnPressed(_:)" }
  func consentCategory(ofDestination id: String) -> String? { categories ? (id == "firebase" ? "analytics" : "ads") : nil }
  var consentDefaults: [String: Bool] { categories ? ["analytics": true, "ads": true] : [:] }
  var pendingConsentCategories: Set<String> { pending ? ["ads"] : [] }
}

/// track()'s latency whatever consent says: no categories, categories answered (both granted), and
/// `ads` pending (mixpanel's lane holds; past the default limit of 10,000 events it lets the oldest go on
/// its own thread). Each in a fresh journal of its own, alternated over rounds.
func consentLatency(_ directory: String) {
  let count = 200_000
  let warmup = 20_000
  let cases: [(String, ConsentBenchRegistry)] = [
    ("no consent categories", ConsentBenchRegistry(categories: false)),
    ("categories answered (granted)", ConsentBenchRegistry()),
    ("a category pending (its lane holding)", ConsentBenchRegistry(pending: true)),
  ]
  var results = cases.map { _ in newHistogram() }
  for round in 0..<3 {
    for (index, (_, registry)) in cases.enumerated() {
      let tracker = Tracker(
        registry: registry, destinations: [Discard(id: "firebase"), Discard(id: "mixpanel")],
        journal: journal(fresh(directory + "/consent-\(round)-\(index)")))
      for _ in 0..<warmup { trackOnce(tracker) }
      for _ in 0..<count {
        let start = now()
        trackOnce(tracker)
        results[index].record(now() - start)
      }
      if !registry.pending { tracker.flush(timeout: 60) }
    }
  }
  for (index, (name, _)) in cases.enumerated() { report("track(), \(name)", results[index]) }
}

func latency(_ directory: String) {
  let count = 300_000
  let warmup = 20_000
  let tracker = Tracker(registry: BenchRegistry(), destinations: [Discard()], journal: journal(fresh(directory + "/journal")))
  for _ in 0..<warmup { trackOnce(tracker) }
  var tracked = newHistogram()
  for _ in 0..<count {
    let start = now()
    trackOnce(tracker)
    tracked.record(now() - start)
  }
  tracker.flush(timeout: 60)
  let size = recordSize(in: directory + "/journal")

  // The floor: the same bytes appended with write(2).
  let bytes = [UInt8](repeating: 0x5A, count: size)
  let path = fresh(directory + "/write") + "/log"
  let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
  var written = newHistogram()
  for index in 0..<(count + warmup) {
    let start = now()
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, size) }
    if index >= warmup { written.record(now() - start) }
  }
  close(descriptor)

  // The well-trodden alternative: one SQLite insert per event, WAL, synchronous=NORMAL.
  var database: OpaquePointer?
  sqlite3_open(fresh(directory + "/sqlite") + "/events.sqlite", &database)
  sqlite3_exec(database, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; CREATE TABLE events(id INTEGER PRIMARY KEY, body BLOB)", nil, nil, nil)
  var statement: OpaquePointer?
  sqlite3_prepare_v2(database, "INSERT INTO events(body) VALUES (?)", -1, &statement, nil)
  var inserted = newHistogram()
  let sqliteCount = 100_000
  for index in 0..<(sqliteCount + warmup / 4) {
    let start = now()
    _ = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, 1, $0.baseAddress, Int32(size), nil) }
    sqlite3_step(statement)
    sqlite3_reset(statement)
    if index >= warmup / 4 { inserted.record(now() - start) }
  }
  sqlite3_finalize(statement)
  sqlite3_close(database)

  print("record size: \(size) bytes (header included)")
  report("track() with the journal (kill -9 safe)", tracked)
  printBuckets(tracked)
  report("write(2) of the same bytes (floor)", written)
  printBuckets(written)
  report("SQLite WAL insert, synchronous=NORMAL", inserted)
  printBuckets(inserted)
  print(
    String(
      format: "ratios at p50: track/write(2) %.2f, SQLite/track %.1f",
      Double(tracked.median) / Double(max(1, written.median)), Double(inserted.median) / Double(max(1, tracked.median))))
}

func powerLoss(_ directory: String) {
  let window = 0.001
  do {
    let tracker = Tracker(
      registry: BenchRegistry(), destinations: [Discard()],
      journal: journal(fresh(directory + "/power1"), durability: .powerLoss(groupCommitInterval: window)))
    var histogram = newHistogram()
    for index in 0..<2_200 {
      let start = now()
      trackOnce(tracker)
      if index >= 200 { histogram.record(now() - start) }
    }
    report("power-loss setting, 1 thread (group commit \(window * 1000) ms)", histogram)
  }
  // The floor: the same bytes appended with write(2) and made durable with fdatasync(2), one by one.
  let bytes = [UInt8](repeating: 0x5A, count: 127)
  let descriptor = open(fresh(directory + "/fsync") + "/log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
  var synced = newHistogram()
  for index in 0..<1_100 {
    let start = now()
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, bytes.count) }
    fdatasync(descriptor)
    if index >= 100 { synced.record(now() - start) }
  }
  close(descriptor)
  report("write(2) + fdatasync(2) per event (floor)", synced)

  for threads in [1, 2, 4, 8, 16, 64] {
    let tracker = Tracker(
      registry: BenchRegistry(), destinations: [Discard()],
      journal: journal(fresh(directory + "/power\(threads)"), durability: .powerLoss(groupCommitInterval: window)))
    let seconds = 2.0
    let counter = Counter()
    let start = now()
    let deadline = start + UInt64(seconds * 1e9)
    let finished = DispatchGroup()
    for _ in 0..<threads {
      finished.enter()
      Thread {
        var mine = 0
        while now() < deadline {
          trackOnce(tracker)
          mine += 1
        }
        counter.add(mine)
        finished.leave()
      }.start()
    }
    finished.wait()
    let elapsed = Double(now() - start) / 1e9
    print(String(format: "power-loss setting, %2d threads: %9.0f events/s", threads, Double(counter.value) / elapsed))
  }
}

func sustained(_ directory: String) {
  let count = 2_000_000
  let tracker = Tracker(
    registry: BenchRegistry(), destinations: [Discard()], journal: journal(fresh(directory + "/sustained"), maximumBytes: 1 << 30))
  for _ in 0..<10_000 { trackOnce(tracker) }
  let start = now()
  for _ in 0..<count { trackOnce(tracker) }
  let elapsed = Double(now() - start) / 1e9
  print(String(format: "sustained into the journal, one thread: %.0f events/s (%d events in %.2f s)", Double(count) / elapsed, count, elapsed))
  let drainStart = now()
  tracker.flush(timeout: 120)
  print(String(format: "  delivered to an in-process destination meanwhile and after: all in %.2f s", Double(now() - start) / 1e9))
  _ = drainStart
}

func collectorDown(_ directory: String) {
  let before = memory()
  let collector = try! HTTPCollectorDestination(endpoint: URL(string: "http://127.0.0.1:1")!)
  let tracker = Tracker(registry: BenchRegistry(), destinations: [collector], journal: journal(fresh(directory + "/down"), maximumBytes: 1 << 30))
  let count = 1_000_000
  let start = now()
  for _ in 0..<count { trackOnce(tracker) }
  let elapsed = Double(now() - start) / 1e9
  Thread.sleep(forTimeInterval: 2)
  let after = memory()
  let statistics = tracker.statistics["collector"] ?? DestinationStatistics()
  print(
    "collector down, \(count) events tracked in \(String(format: "%.2f", elapsed)) s: queued \(statistics.queued), "
      + "failed uploads \(statistics.failedAttempts), journal \(tracker.journalStatistics.bytes / (1 << 20)) MB on disk"
  )
  print(
    "  peak RSS \(megabytes(after["VmHWM"])) (before: \(megabytes(before["VmHWM"]))); now RSS \(megabytes(after["VmRSS"])): "
      + "anonymous \(megabytes(after["RssAnon"])), file-backed \(megabytes(after["RssFile"]))")
}

func backlog(_ directory: String) {
  let count = 100_000
  let tracker = Tracker(
    registry: BenchRegistry(), destinations: [Unreachable()], journal: journal(fresh(directory + "/backlog")), retry: RetryPolicy(initial: 600))
  for _ in 0..<count { trackOnce(tracker) }
  print("left \(tracker.statistics["collector"]?.queued ?? 0) events queued in \(directory)/backlog")
}

func openBacklog(_ directory: String) {
  // As in an app, Foundation and threads are already up: a throwaway tracker warms them.
  _ = Tracker(registry: BenchRegistry(), destinations: [Discard()])
  let start = now()
  let tracker = Tracker(
    registry: BenchRegistry(), destinations: [Unreachable()], journal: journal(directory + "/backlog"), retry: RetryPolicy(initial: 600))
  let opened = now()
  trackOnce(tracker)
  let firstTrack = now()
  while !tracker.journalStatistics.recoveryFinished { usleep(100) }
  let validated = now()
  let queued = tracker.statistics["collector"]?.queued ?? 0
  print(
    "open a journal with \(queued - 1) queued events: init returned in \(microseconds(opened - start)) µs, first track() "
      + "\(microseconds(firstTrack - opened)) µs, backlog validated and counted in the background after \(String(format: "%.1f", Double(validated - start) / 1e6)) ms"
  )
}

/// End to end: track as fast as one thread can into the journal, while the lane uploads gzipped batches
/// of 500 to `trackc collector` (run as its own process on 127.0.0.1, as a developer runs it: `$TRACKC`, or
/// the root package's release build); the rate is the events the collector accepted over the time from the
/// first track() to the last one it printed.
func endToEnd(_ directory: String) throws {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  let trackc = ProcessInfo.processInfo.environment["TRACKC"] ?? root.appendingPathComponent(".build/release/trackc").path
  let collector = Process()
  collector.executableURL = URL(fileURLWithPath: trackc)
  collector.arguments = ["collector", "--port", "0", "--format", "json"]
  let output = Pipe()
  collector.standardOutput = output
  try collector.run()
  let accepted = AcceptedLines(output.fileHandleForReading)
  guard let baseURL = accepted.baseURL else {
    print("endtoend: \(trackc) collector did not start (build it: swift build -c release --product trackc)")
    exit(1)
  }
  let destination = try HTTPCollectorDestination(endpoint: baseURL, batch: BatchLimits(maximumEvents: 500, maximumAge: 0.05))
  let tracker = Tracker(
    registry: BenchRegistry(), destinations: [destination], journal: journal(fresh(directory + "/endtoend"), maximumBytes: 1 << 30))
  let count = 300_000
  let cpuBefore = cpuSeconds()
  let start = now()
  for _ in 0..<count { trackOnce(tracker) }
  let tracked = now()
  let arrived = accepted.wait(for: count, timeout: 120)
  let end = now()
  let cpu = cpuSeconds() - cpuBefore
  collector.interrupt()
  collector.waitUntilExit()
  let received = accepted.count
  // On a shared machine the wall-clock rate is the machine's; the CPU time this process took (tracking,
  // journal, upload) is its work, and its rate the rate two idle cores would give at most.
  print(
    String(
      format:
        "end to end to a collector on 127.0.0.1: %.0f events/s (%d events accepted in %.2f s; tracking took %.2f s%@); this process's CPU %.2f s, %.1f µs an event",
      Double(received) / (Double(end - start) / 1e9), received, Double(end - start) / 1e9, Double(tracked - start) / 1e9,
      arrived ? "" : "; TIMED OUT", cpu, cpu * 1e6 / Double(max(1, received))))
}

/// The lines `trackc collector --format json` prints: where it listens, then one line per accepted call.
final class AcceptedLines: @unchecked Sendable {
  private let changed = NSCondition()
  private var accepted = 0
  private(set) var baseURL: URL?

  init(_ handle: FileHandle) {
    var first = Data()
    while let byte = try? handle.read(upToCount: 1), let value = byte.first, value != UInt8(ascii: "\n") { first.append(value) }
    baseURL = String(decoding: first, as: UTF8.self).split(separator: " ").last.flatMap { URL(string: String($0)) }
    Thread { [self] in
      var pending = Data()
      while case let chunk = handle.availableData, !chunk.isEmpty {
        pending += chunk
        var lines = 0
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          if pending[pending.startIndex..<newline].starts(with: Data(#"{"kind":"event""#.utf8)) { lines += 1 }
          pending.removeSubrange(pending.startIndex...newline)
        }
        changed.lock()
        accepted += lines
        changed.broadcast()
        changed.unlock()
      }
    }.start()
  }

  var count: Int {
    changed.lock()
    defer { changed.unlock() }
    return accepted
  }

  func wait(for count: Int, timeout: TimeInterval) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    changed.lock()
    defer { changed.unlock() }
    while accepted < count { guard changed.wait(until: deadline) else { return false } }
    return true
  }
}

final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var total = 0
  func add(_ value: Int) {
    lock.lock()
    total += value
    lock.unlock()
  }
  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return total
  }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
  print("usage: DeliveryBench latency|consent|powerloss|sustained|collector-down|backlog|open|endtoend DIR")
  exit(2)
}
let directory = arguments[2]
switch arguments[1] {
case "latency": latency(directory)
case "consent": consentLatency(directory)
case "powerloss": powerLoss(directory)
case "sustained": sustained(directory)
case "collector-down": collectorDown(directory)
case "backlog": backlog(directory)
case "open": openBacklog(directory)
case "endtoend": try endToEnd(directory)
default:
  print("unknown mode \(arguments[1])")
  exit(2)
}
