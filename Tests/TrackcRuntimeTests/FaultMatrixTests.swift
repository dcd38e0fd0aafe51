import Foundation
import Testing
import TrackcCollector
import TrackcTestSupport

@_spi(Generated) @testable import TrackcRuntime

/// The fault matrix: `HTTPCollectorDestination` against the real collector on 127.0.0.1, one row per
/// fault a production network or a collector throws at an upload. Each row tracks numbered events and
/// asserts that none is lost (the journal's books balance, every event delivered and recorded), that
/// none is recorded twice after deduplication, that the failures were counted under the row's reason,
/// and the longest time the destination made no progress while the fault allowed it.
///
/// The rows run side by side; each takes about a second (two for the rows that honour a one-second
/// `Retry-After`): the backoff is 0.05 to 0.4 s here, and a fault that stops progress is lifted once it
/// has been met the row's number of times.
@Suite struct FaultMatrixTests {
  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var faults: TrackcCollector.CollectorConfiguration.Faults
    var requestTimeout: TimeInterval = Defaults.requestTimeout
    /// The fault stops every request: lifted once this many failures of `reason` were counted.
    var liftAfter: Int?
    var reason: RetryReason
    /// The collector records the batch and the client sends it again: duplicates, removed by the
    /// collector's deduplication.
    var duplicates = false
    /// A `Retry-After` the row's answers carry: the next try waits at least about this long.
    var retryAfter: TimeInterval?
    /// The longest the destination may stand still while the fault allows progress: a few failures in a
    /// row and their backoffs (at most 0.4 s each here), far from the 30 s request timeout; plus the
    /// `Retry-After` the collector asked for (an HTTP date rounds up to the next second).
    var longestStall: TimeInterval { 2.5 + (retryAfter.map { $0 + 1 } ?? 0) + (requestTimeout < Defaults.requestTimeout ? requestTimeout : 0) }

    var testDescription: String { name }

    static func failing(_ status: Int, _ reason: RetryReason, retryAfter: Int? = nil, asDate: Bool = false) -> Row {
      var faults = TrackcCollector.CollectorConfiguration.Faults()
      faults.failStatus = status
      faults.retryAfterSeconds = retryAfter
      faults.retryAfterAsDate = asDate
      let name = "\(status)" + (retryAfter.map { " with Retry-After \($0) s" + (asDate ? " as an HTTP date" : " in seconds") } ?? "")
      return Row(name: name, faults: faults, liftAfter: retryAfter == nil ? 2 : 1, reason: reason, retryAfter: retryAfter.map(Double.init))
    }

    static var all: [Row] {
      var rows: [Row] = [301, 302, 307, 308].map { failing($0, .redirect) }
      rows += [failing(408, .requestTimeout), failing(410, .gone), failing(411, .lengthRequired), failing(460, .clientClosedRequest)]
      rows += [failing(429, .rateLimited, retryAfter: 1), failing(503, .serverError, retryAfter: 1, asDate: true)]
      var storm = failing(500, .serverError)
      storm.name = "a storm of 500s"
      storm.liftAfter = 6
      rows.append(storm)
      var dropped = TrackcCollector.CollectorConfiguration.Faults()
      dropped.dropRate = 0.5
      dropped.seed = 5
      // With the default 30 s request timeout: a connection closed without an answer costs a retry.
      rows.append(Row(name: "a connection closed without an answer (--drop-rate)", faults: dropped, reason: .network))
      var reset = TrackcCollector.CollectorConfiguration.Faults()
      reset.resetRate = 0.5
      reset.seed = 6
      rows.append(Row(name: "a reset before the answer's headers", faults: reset, reason: .network))
      var resetAfter = TrackcCollector.CollectorConfiguration.Faults()
      resetAfter.resetAfterHeadersRate = 0.5
      resetAfter.seed = 7
      rows.append(Row(name: "a reset after the answer's headers", faults: resetAfter, reason: .network, duplicates: true))
      // A timeout of a second (a shorter one is met by a loaded machine's ordinary answers), answers after three.
      var slow = TrackcCollector.CollectorConfiguration.Faults()
      slow.delayMilliseconds = 3_000
      rows.append(Row(name: "an answer slower than the request timeout", faults: slow, requestTimeout: 1, liftAfter: 2, reason: .timeout))
      var acceptThenFail = TrackcCollector.CollectorConfiguration.Faults()
      acceptThenFail.acceptThenFailRate = 0.4
      acceptThenFail.seed = 11
      rows.append(Row(name: "a batch recorded, then answered 500", faults: acceptThenFail, reason: .serverError, duplicates: true))
      return rows
    }
  }

  static let count = 150

  @Test(arguments: Row.all)
  func noEventIsLostAndProgressResumes(_ row: Row) async throws {
    // When each request came, as the collector saw it: the wait a `Retry-After` asked for shows there,
    // whatever the load does to this test's own threads.
    let arrivals = ArrivalLog()
    let collector = try await DeliveryHarness.start {
      $0.faults = row.faults
      $0.observer = { records in arrivals.note(records) }
    }
    let destination = try DeliveryHarness.destination(collector, requestTimeout: row.requestTimeout)
    let tracker = DeliveryHarness.tracker([destination])
    let watch = ProgressWatch(tracker)
    if row.liftAfter != nil { watch.measure(false) }
    DeliveryHarness.track(0..<Self.count, tracker)
    if let liftAfter = row.liftAfter {
      // The fault stops every request: nothing can move until it is lifted.
      let reason = row.reason
      #expect(
        await tracker.waitUntil(timeout: Self.patience) { (tracker.statistics["collector"]?.failuresByReason[reason] ?? 0) >= liftAfter },
        "\(row.name): never met: \(tracker.statistics)")
      try collector.setFaults(.init())
      watch.measure(true)
      if let retryAfter = row.retryAfter {
        #expect(
          await tracker.waitUntil(timeout: Self.patience) { (tracker.statistics["collector"]?.delivered ?? 0) > 0 },
          "\(row.name): nothing delivered once lifted: \(tracker.statistics)")
        let waited = try #require(arrivals.gapAfterFirstFailure)
        #expect(waited >= retryAfter - 0.05, "\(row.name): the next try came \(waited) s after the failure, before Retry-After")
      }
    }
    #expect(await tracker.flush(timeout: TimeLimits.seconds(60)), "\(row.name): \(tracker.statistics)")
    let stall = watch.finish()
    DeliveryHarness.expectNothingLost(tracker, collector, count: Self.count, row.name)
    let statistics = tracker.statistics["collector"] ?? DestinationStatistics()
    #expect((statistics.failuresByReason[row.reason] ?? 0) > 0, "\(row.name): failures counted as \(statistics.failuresByReason)")
    if row.duplicates { #expect(collector.statistics.duplicates > 0, "\(row.name): the collector saw the resent batches") }
    #expect(stall <= TimeLimits.seconds(row.longestStall), "\(row.name): no progress for \(stall) s")
    print(
      "fault matrix: \(row.name): \(statistics.failuresByReason), duplicates removed \(collector.statistics.duplicates), longest stall \(String(format: "%.2f", stall)) s"
    )
    await collector.stop()
  }

  /// Two collectors, one answering after 3 s: the other keeps delivering meanwhile.
  @Test func aStalledCollectorHoldsBackNoOther() async throws {
    // Under a sanitizer (TimeLimits) every bound and the slow answer's delay are scaled alike. The slow
    // destination sends 5 events a request, so that it needs 30 answers (90 s) for them all: however
    // slowly the loaded machine lets the fast one deliver within its patience (30 s), the slow one is
    // still at it then. (With 25 a request, 18 s, a run of the whole suite on two loaded cores once saw
    // the fast one take longer.)
    let slow = try await DeliveryHarness.start { $0.faults.delayMilliseconds = 3_000 * TimeLimits.scale }
    let fast = try await DeliveryHarness.start()
    let tracker = DeliveryHarness.tracker([
      try DeliveryHarness.destination(slow, id: "slow", events: 5), try DeliveryHarness.destination(fast, id: "fast"),
    ])
    let watch = ProgressWatch(tracker, id: "fast")
    DeliveryHarness.track(0..<Self.count, tracker)
    #expect(await tracker.waitUntil(timeout: Self.patience) { tracker.statistics["fast"]?.delivered == Self.count }, "\(tracker.statistics)")
    let stall = watch.finish()
    #expect((tracker.statistics["slow"]?.delivered ?? 0) < Self.count, "the slow one is still at it")
    #expect(stall < TimeLimits.seconds(1), "the fast collector stood still for \(stall) s")
    try slow.setFaults(.init())
    #expect(await tracker.flush(timeout: TimeLimits.seconds(60)))
    DeliveryHarness.expectNothingLost(tracker, fast, count: Self.count, id: "fast", "fast")
    DeliveryHarness.expectNothingLost(tracker, slow, count: Self.count, id: "slow", "slow")
    await slow.stop()
    await fast.stop()
  }

  /// The times requests were answered or recorded, in the collector's order.
  final class ArrivalLog: @unchecked Sendable {
    private let lock = NSLock()
    private var failure: Date?
    private var next: Date?

    func note(_ records: [CollectorRecord]) {
      let now = Date()
      lock.withLock {
        for record in records {
          if case .injected(.failure, _) = record, failure == nil {
            failure = now
          } else if case .accepted = record, failure != nil, next == nil {
            next = now
          }
        }
      }
    }

    /// From the first injected failure to the first call recorded after it.
    var gapAfterFirstFailure: TimeInterval? {
      lock.withLock { next.flatMap { next in failure.map { next.timeIntervalSince($0) } } }
    }
  }

  /// How long a wait for a condition (`Tracker.waitUntil`) lasts before the test fails: a bound for a
  /// starved machine, scaled under a sanitizer. The wait ends as soon as the condition holds.
  static let patience = TimeLimits.seconds(30)
}
