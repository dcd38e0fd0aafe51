import Foundation
import Testing
import TrackcCollector
@_spi(Generated) import TrackcRuntime

/// The crash test over HTTP: the child uploads to the real collector (in this process, 127.0.0.1);
/// kills land while it tracks, while an upload is in flight, and (by the child itself) right after an
/// upload was answered 2xx, before the cursor moved. The collector deduplicates by message ID: every
/// acknowledged event is recorded exactly once, and its raw duplicates are reported.
/// `TRACKC_CRASH_KILLS` sets the number of runs (24 by default).
@Suite struct CrashOverHTTPTests {
  @Test func killedWhileUploadingLosesNothing() async throws {
    let runs = CrashTests.runs
    let seed = CrashTests.seed
    var configuration = TrackcCollector.CollectorConfiguration()
    configuration.limits.retainedEvents = 10_000_000
    configuration.limits.deduplicationWindow = 10_000_000
    let collector = try await Collector.start(configuration)
    let directory = try TemporaryDirectory()
    let journal = directory.url.appendingPathComponent("journal").path
    let url = collector.baseURL.absoluteString
    // The self-kill rate is per upload answered 2xx here.
    let kills = try CrashTests.killRepeatedly(runs: runs, journal: journal, receiver: url, selfKillRate: "0.05", seed: seed)
    let acknowledged = kills.acknowledged

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
      "crash test over HTTP: \(runs) kills (\(kills.atSeededMoments) at a seeded moment, \(kills.duringAppend) of them mid-append; \(kills.byChildItself) after a 2xx and before the cursor), "
        + "\(acknowledged.count) acknowledged, \(messageIDs.count) recorded once, \(lost.count) lost, "
        + "\(statistics.duplicates) raw duplicates deduplicated by the collector; last start: \(drainReport); seed \(seed)")
    #expect(acknowledged.count > runs)
    let lostCount = lost.count
    #expect(lostCount == 0, "lost acknowledged events, e.g. \(lost.sorted().prefix(5)); seed \(seed)")
    #expect(messageIDs.values.allSatisfy { $0.count == 1 }, "one message ID per event, whatever the retries")
    #expect(statistics.duplicates <= runs * 200, "at most one in-flight batch per kill")
    if runs >= 20 { #expect(kills.byChildItself >= runs / 4) }
    await collector.stop()
  }
}
