// Runs against the real collector (`TrackcCollector`): compiled once the test target depends on it,
// which it does from the merge of the collector into main on.
#if canImport(TrackcCollector)
import Foundation
import Testing
import TrackcCollector
import TrackcRuntime

/// The crash test over HTTP: the child uploads to the real collector (in this process, 127.0.0.1);
/// kills land while it tracks, while an upload is in flight, and (by the child itself) right after an
/// upload was answered 2xx, before the cursor moved. The collector deduplicates by message ID: every
/// acknowledged event is recorded exactly once, and its raw duplicates are reported.
/// `TRACKC_CRASH_KILLS` sets the number of runs (24 by default).
@Suite struct CrashOverHTTPTests {
  @Test func killedWhileUploadingLosesNothing() async throws {
    let runs = Int(ProcessInfo.processInfo.environment["TRACKC_CRASH_KILLS"] ?? "") ?? 24
    let seed = UInt64(ProcessInfo.processInfo.environment["TRACKC_CRASH_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64(UInt32.max))
    var generator = SeededGenerator(seed: seed)
    var configuration = TrackcCollector.CollectorConfiguration()
    configuration.limits.retainedEvents = 10_000_000
    configuration.limits.deduplicationWindow = 10_000_000
    let collector = try await Collector.start(configuration)
    let directory = try TemporaryDirectory()
    let journal = directory.url.appendingPathComponent("journal").path
    let url = collector.baseURL.absoluteString
    var acknowledged = Set<Int>()
    var parentKills = 0
    var selfKills = 0

    for run in 0..<runs {
      let selfKilling = run % 2 == 1
      let child = try CrashTests.start(
        [selfKilling ? "paced" : "track", journal, url, String(run * 100_000_000), selfKilling ? "0.05" : "0"])
      let started = Date()
      while child.acknowledgements.count == 0 && child.process.isRunning && Date().timeIntervalSince(started) < 30 {
        usleep(200)
      }
      if selfKilling {
        while child.process.isRunning && Date().timeIntervalSince(started) < 5 { usleep(1_000) }
      } else {
        usleep(UInt32.random(in: 0...60_000, using: &generator))
      }
      if child.process.isRunning { kill(child.process.processIdentifier, SIGKILL) }
      child.process.waitUntilExit()
      if child.errors.text.contains("self-kill") { selfKills += 1 } else { parentKills += 1 }
      #expect(child.process.terminationReason == .uncaughtSignal && child.process.terminationStatus == SIGKILL,
        "run \(run): the child must die of SIGKILL only (status \(child.process.terminationStatus)); seed \(seed)")
      acknowledged.formUnion(child.acknowledgements.numbers())
    }

    let drain = try CrashTests.start(["drain", journal, url])
    drain.process.waitUntilExit()
    let drainReport = drain.acknowledgements.text.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(drain.process.terminationStatus == 0, "the drain delivers everything, drops nothing; \(drainReport); seed \(seed)")

    var messageIDs: [Int: Set<String>] = [:]
    for event in collector.received {
      guard case .number(let value, _)? = event.properties["n"] else { continue }
      messageIDs[Int(value), default: []].insert(event.messageID)
    }
    let lost = acknowledged.subtracting(messageIDs.keys)
    let statistics = collector.statistics
    print(
      "crash test over HTTP: \(runs) kills (\(parentKills) by the parent, \(selfKills) after a 2xx and before the cursor), "
        + "\(acknowledged.count) acknowledged, \(messageIDs.count) recorded once, \(lost.count) lost, "
        + "\(statistics.duplicates) raw duplicates deduplicated by the collector; last start: \(drainReport); seed \(seed)")
    #expect(acknowledged.count > runs)
    let lostCount = lost.count
    #expect(lostCount == 0, "lost acknowledged events, e.g. \(lost.sorted().prefix(5)); seed \(seed)")
    #expect(messageIDs.values.allSatisfy { $0.count == 1 }, "one message ID per event, whatever the retries")
    #expect(statistics.duplicates <= runs * 200, "at most one in-flight batch per kill")
    if runs >= 20 { #expect(selfKills >= runs / 4) }
    await collector.stop()
  }
}
#endif
