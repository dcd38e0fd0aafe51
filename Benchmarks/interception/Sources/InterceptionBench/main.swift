import BenchFeature
import BenchPlain
import BenchTracking
import Foundation
@_spi(Generated) import TrackcRuntime

// Per-call cost of a handler, in nanoseconds: the median of 7 rounds, each timing a loop of calls, in
// wall time and in the calling thread's CPU time (which does not count time the thread waited for a core
// on a shared machine, where the delivery thread and other processes compete for it).
// Each case runs as it would in an app; the loops add the values they pass, so nothing is optimised away.

/// Keeps what it receives, and lets the benchmark drop it between rounds.
let memory = InMemoryDestination(id: "memory")
let tracker = Tracker(registry: Tracking.registry, destinations: [memory], journal: JournalConfiguration(storage: .memory, maximumBytes: 1 << 30))

/// The calling thread's CPU time, in nanoseconds.
func threadCPUTime() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}

/// Per call: the median wall time and the median CPU time of the calling thread, in nanoseconds.
func measure(_ name: String, calls: Int, rounds: Int = 7, _ body: (Int) -> Void, between: () -> Void = {}) -> (wall: Double, cpu: Double) {
  var wall: [Double] = []
  var cpu: [Double] = []
  for _ in 0..<rounds {
    between()
    let startCPU = threadCPUTime()
    let start = ContinuousClock.now
    body(calls)
    let elapsed = start.duration(to: .now)
    cpu.append((threadCPUTime() - startCPU) / Double(calls))
    wall.append((Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(calls))
  }
  return (wall.sorted()[rounds / 2], cpu.sorted()[rounds / 2])
}

// `--profile-replaced` / `--profile-one-bound` / `--profile-bound`: only the replaced handler (unbound,
// with one or with two bound properties), for a profiler (`--rounds N`, 10 by default, of 200,000 calls).
// (ProcessInfo's arguments, not CommandLine's: before Swift 6's standard library, as in the iOS 17.4 SDK that
// Scripts/typecheck-ios.sh compiles this with, `CommandLine.arguments` is a mutable global Swift 6 refuses.)
let arguments = ProcessInfo.processInfo.arguments
let profiled = ["--profile-replaced", "--profile-one-bound", "--profile-bound"].first { arguments.contains($0) }
if let profiled {
  let screen = BenchScreen()
  let rounds = arguments.firstIndex(of: "--rounds").flatMap { Int(arguments[$0 + 1]) } ?? 10
  Interception.install(tracker)
  for round in 0..<rounds {
    for value in 0..<200_000 {
      switch profiled {
      case "--profile-bound": screen.onTapBound(value & round & 1)
      case "--profile-one-bound": screen.onTapOneBound(value & round & 1)
      default: screen.onTap(value & round & 1)
      }
    }
    tracker.flush(timeout: 60)
    memory.removeAll()
  }
  exit(0)
}

let plain = PlainScreen()
let screen = BenchScreen()
var results: [(String, (wall: Double, cpu: Double))] = []

results.append(
  (
    "direct call (no trackc)",
    measure("direct", calls: 20_000_000) { calls in
      for value in 0..<calls { plain.onTap(value & 1) }
    }
  ))

results.append(
  (
    "same handler, -enable-implicit-dynamic, not replaced",
    measure("dynamic", calls: 20_000_000) { calls in
      for value in 0..<calls { screen.onTapNotReplaced(value & 1) }
    }
  ))

Interception.install(tracker)

results.append(
  (
    "unmapped handler (tracking installed)",
    measure("unmapped", calls: 20_000_000) { calls in
      for value in 0..<calls { screen.onUnmapped(value & 1) }
    }
  ))

// The calls alone, on handlers that do nothing (for the overhead itself rather than its share).
results.append(
  (
    "empty handler, direct (no trackc)",
    measure("empty direct", calls: 20_000_000) { calls in
      for value in 0..<calls { plain.onNothing(value) }
    }
  ))
results.append(
  (
    "empty handler, unmapped (implicit dynamic)",
    measure("empty dynamic", calls: 20_000_000) { calls in
      for value in 0..<calls { screen.onNothing(value) }
    }
  ))

/// A replaced handler that emits its event: 200,000 calls a round, the events delivered and dropped
/// between rounds (and after the last), so that each case starts from an empty journal.
func emitting(_ body: (Int) -> Void) -> (wall: Double, cpu: Double) {
  let between = {
    tracker.flush(timeout: 60)
    memory.removeAll()
  }
  defer { between() }
  return measure("emitting", calls: 200_000, body, between: between)
}

// Unbound, then its event carrying one bound property (an argument), then two (an argument and the
// screen's state), one after the other in the same run.
results.append(
  (
    "replaced handler, event to an in-memory destination",
    emitting { calls in
      for value in 0..<calls { screen.onTap(value & 1) }
    }
  ))
results.append(
  (
    "replaced handler, one bound property",
    emitting { calls in
      for value in 0..<calls { screen.onTapOneBound(value & 1) }
    }
  ))
results.append(
  (
    "replaced handler, two bound properties",
    emitting { calls in
      for value in 0..<calls { screen.onTapBound(value & 1) }
    }
  ))

// The original design: the handler loads the event table from a property list on each call.
let table = ["BenchScreen": ["onTap:": "CTRL_BENCH_TAP", "onShare:": "CTRL_BENCH_SHARE"]]
let plist = FileManager.default.temporaryDirectory.appendingPathComponent("trackc-bench-\(getpid()).plist")
try PropertyListSerialization.data(fromPropertyList: table, format: .xml, options: 0).write(to: plist)
var found = 0
results.append(
  (
    "property-list lookup per call (original design)",
    measure("plist", calls: 20_000) { calls in
      for _ in 0..<calls {
        guard let data = try? Data(contentsOf: plist),
          let loaded = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: [String: String]]
        else { continue }
        if loaded["BenchScreen"]?["onTap:"] != nil { found += 1 }
      }
    }
  ))
try? FileManager.default.removeItem(at: plist)

let direct = results[0].1.wall
print("per call, median of 7 rounds (release build): wall time, and CPU time of the calling thread")
for (name, time) in results {
  let padded = name.padding(toLength: 56, withPad: " ", startingAt: 0)
  let base = name.hasPrefix("empty handler, unmapped") ? results.first { $0.0.hasPrefix("empty handler, direct") }!.1.wall : direct
  print(
    "  \(padded) \(String(format: "%10.1f", time.wall)) ns \(String(format: "%10.1f", time.cpu)) ns cpu"
      + "   \(String(format: "%8.2f", time.wall / base))x direct")
}
let unbound = results.first { $0.0.hasPrefix("replaced handler, event") }!.1
let oneBound = results.first { $0.0.hasPrefix("replaced handler, one bound") }!.1
let bound = results.first { $0.0.hasPrefix("replaced handler, two bound") }!.1
print(
  "  bound properties, vs the unbound call: one \(String(format: "%.2f", oneBound.wall / unbound.wall))x, two \(String(format: "%.2f", bound.wall / unbound.wall))x"
    + " (CPU time: \(String(format: "%.2f", oneBound.cpu / unbound.cpu))x, \(String(format: "%.2f", bound.cpu / unbound.cpu))x);"
    + " cost per bound property: \(String(format: "%.1f", (bound.wall - unbound.wall) / 2)) ns")
print("(checks: \(plain.taps + screen.taps + found), events delivered: \(tracker.statistics["memory"]?.delivered ?? 0))")
