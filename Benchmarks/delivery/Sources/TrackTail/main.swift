import Foundation

#if TRACKC_BEFORE_IDENTITY
  import TrackcRuntime
#else
  @_spi(Generated) import TrackcRuntime
#endif

// track()'s tail, in one process: a tracker started as an app starts it (a directory journal of the
// default size, the collector destination with its default batches uploading to a collector on
// 127.0.0.1, an identified user, the device's context, and a plan that routes the event to two
// destinations the collector forwards to, each gated by a consent category, as the example shop's),
// then a million calls of an intercepted handler on one thread, each timed. Built against a runtime
// from before identity, context and consent (TRACKC_BEFORE_IDENTITY, which Package.swift sets when the
// runtime has no Identity folder), it tracks the same event without them. tail.sh runs builds of
// several revisions alternately.
//
//     TrackTail DIR COLLECTOR-URL [--calls N] [--batch EVENTS] [--slow-log FILE]
//
// Prints `p50=… p99=… p99.9=… over8=… max=… calls=…` (µs; over8: calls over 8 µs per million),
// then what the journal held when the calls ended (with a collector that is down: its capacity).
// --batch sets the collector destination's events per upload. --slow-log writes each call over 8 µs as
// `start-ns duration-ns` (CLOCK_MONOTONIC), to line up with a trace of the thread (perf record -k mono
// of the scheduler's events and page faults, say) taken at the same time.

final class HomeViewController {}

struct BenchRegistry: TrackingRegistry {
  static let favorite = HandlerID(rawValue: 0)
  #if TRACKC_BEFORE_IDENTITY
    static let rule = EventRule(
      eventID: "CTRL_HOME_FAV", routing: .unrestricted, properties: ["source": .string("home"), "position": .int(2)])
  #else
    /// As the example shop's plan has it: the event for two destinations the collector forwards to, each
    /// gated by a consent category.
    static let rule = EventRule(
      eventID: "CTRL_HOME_FAV", routing: .only(["firebase", "mixpanel"]), properties: ["source": .string("home"), "position": .int(2)])
    func consentCategory(ofDestination id: String) -> String? {
      id == "firebase" ? "analytics" : id == "mixpanel" ? "personalization" : nil
    }
    var consentDefaults: [String: Bool] { ["analytics": true, "personalization": false] }
  #endif
  func screen(named name: String) -> ScreenID? { name.hasSuffix("HomeViewController") ? ScreenID(rawValue: 0) : nil }
  func handler(named name: String) -> HandlerID? { name == "onFavBtnPressed(_:)" ? Self.favorite : nil }
  func pageRule(screen: ScreenID, phase: PagePhase) -> EventRule? { nil }
  func controlRule(screen: ScreenID, handler: HandlerID) -> EventRule? { Self.rule }
  func rule(eventID: String) -> EventRule? { eventID == Self.rule.eventID ? Self.rule : nil }
  func name(of screen: ScreenID) -> String { "HomeViewController" }
  func name(of handler: HandlerID) -> String { "onFavBtnPressed(_:)" }
}

@inline(__always) func now() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

var arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, in arguments: inout [String]) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  defer { arguments.removeSubrange(index...(index + 1)) }
  return arguments[index + 1]
}
let calls = option("--calls", in: &arguments).flatMap(Int.init) ?? 1_000_000
let slowLog = option("--slow-log", in: &arguments)
let batchEvents = option("--batch", in: &arguments).flatMap(Int.init)
guard arguments.count == 2, let collector = URL(string: arguments[1]) else {
  print("usage: TrackTail DIR COLLECTOR-URL [--calls N] [--batch EVENTS] [--slow-log FILE]")
  exit(2)
}
let directory = arguments[0]
try? FileManager.default.removeItem(atPath: directory)
let journal = JournalConfiguration.directory(URL(fileURLWithPath: directory))

#if TRACKC_BEFORE_IDENTITY
  let destination = HTTPCollectorDestination(
    id: "collector", configuration: try! CollectorChannelConfiguration.builder().endpoint(collector).build())
  let tracker = Tracker(registry: BenchRegistry(), destinations: [destination], journal: journal)
#else
  let destination = try! HTTPCollectorDestination(
    endpoint: collector, batch: batchEvents.map { BatchLimits(maximumEvents: $0) } ?? .default)
  let tracker = Tracker(registry: BenchRegistry(), destinations: [destination], journal: journal)
  tracker.identify(userID: "user-4711", traits: ["plan": .string("pro"), "email": .string("someone@example.com")])
  tracker.setConsent(["personalization": true])
#endif

/// A handler call, as the generated interceptors report it.
@inline(__always) func trackOnce(_ tracker: Tracker) {
  tracker.trackControl(of: HomeViewController.self, handler: BenchRegistry.favorite)
}

for _ in 0..<20_000 { trackOnce(tracker) }
// Both buffers written through before the calls, so that the measurement takes no page fault of its own.
let durations = UnsafeMutablePointer<UInt32>.allocate(capacity: calls)
durations.initialize(repeating: 0, count: calls)
let slowCapacity = 100_000
let slow = UnsafeMutablePointer<(start: UInt64, duration: UInt32)>.allocate(capacity: slowCapacity)
slow.initialize(repeating: (0, 0), count: slowCapacity)
var slowCount = 0
for index in 0..<calls {
  let start = now()
  trackOnce(tracker)
  let elapsed = UInt32(clamping: now() - start)
  durations[index] = elapsed
  if elapsed > 8_000 && slowCount < slowCapacity {
    slow[slowCount] = (start, elapsed)
    slowCount += 1
  }
}
var buffer = UnsafeMutableBufferPointer(start: durations, count: calls)
buffer.sort()
func percentile(_ p: Double, of sorted: UnsafeMutableBufferPointer<UInt32>) -> Double {
  Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p / 100))]) / 1000
}
let over = buffer.count - (buffer.firstIndex { $0 > 8_000 } ?? buffer.count)
print(
  String(
    format: "p50=%.2f p99=%.2f p99.9=%.2f over8=%.0f max=%.0f calls=%d", percentile(50, of: buffer), percentile(99, of: buffer),
    percentile(99.9, of: buffer),
    Double(over) * 1_000_000 / Double(calls), Double(buffer[calls - 1]) / 1000, calls))
// What the journal held when the calls ended (with a collector that is down, its capacity).
let statistics = tracker.statistics["collector"] ?? DestinationStatistics()
print(
  "  journal: \(statistics.queued) queued, \(statistics.delivered) delivered, \(statistics.droppedByReason[.journalFull] ?? 0) dropped "
    + "(journalFull), \(tracker.journalStatistics.bytes >> 20) MB in \(tracker.journalStatistics.segments) segments")
if let slowLog {
  let lines = (0..<slowCount).map { "\(slow[$0].start) \(slow[$0].duration)" }.joined(separator: "\n")
  _ = FileManager.default.createFile(atPath: slowLog, contents: Data((lines + "\n").utf8))
}
