import Foundation
import Testing
import TrackcCollector
import TrackcTestSupport

@_spi(Generated) @testable import TrackcRuntime

/// What the delivery tests against a real collector share: a collector on 127.0.0.1 (an ephemeral
/// port), an HTTP destination to it, numbered events, and the books at the end.
enum DeliveryHarness {
  static func start(_ change: (inout TrackcCollector.CollectorConfiguration) -> Void = { _ in }) async throws -> Collector {
    var configuration = TrackcCollector.CollectorConfiguration()
    configuration.port = 0
    configuration.limits.retainedEvents = 1_000_000
    change(&configuration)
    return try await Collector.start(configuration)
  }

  /// A short backoff, so that a test of retries takes seconds.
  static let retry = RetryPolicy(initial: 0.05, maximum: 0.4)

  static func destination(
    _ collector: Collector, id: String = "collector", events: Int = 25, writeKey: String? = nil,
    requestTimeout: TimeInterval = Defaults.requestTimeout
  ) throws -> HTTPCollectorDestination {
    try HTTPCollectorDestination(
      endpoint: collector.baseURL, writeKey: writeKey, id: id, batch: BatchLimits(maximumEvents: events, maximumAge: 0.02),
      requestTimeout: requestTimeout)
  }

  static func tracker(
    _ destinations: [any TrackingDestination], journal: JournalConfiguration = .inMemory, context: TrackingContext = .current,
    drops: InMemoryDestination? = nil
  ) -> Tracker {
    Tracker(
      registry: TestRegistry(), destinations: destinations, journal: journal, retry: retry, context: context,
      onDrop: { events, reason, _ in
        for event in events { drops?.receive(CollectorClientTests.event(reason.rawValue, properties: event.properties)) }
      })
  }

  static func track(_ range: Range<Int>, _ tracker: Tracker, poison: Int? = nil, poisonProperties: [String: PropertyValue] = [:]) {
    for number in range {
      let properties: [String: PropertyValue] = number == poison ? poisonProperties.merging(["n": .int(number)]) { a, _ in a } : ["n": .int(number)]
      tracker.track(UnrestrictedEvent.detailBuy, screen: "DetailScreen", properties: properties)
    }
  }

  static func number(_ event: ReceivedEvent) -> Int? {
    if case .number(let value, _)? = event.properties["n"] { return Int(value) }
    return nil
  }

  /// The numbers of the track calls the collector recorded, in arrival order.
  static func numbers(_ collector: Collector) -> [Int] {
    collector.received.filter { $0.type == .track }.compactMap(number)
  }

  /// The books of one destination after `flush`: every event delivered, none dropped, the journal's
  /// accounting balanced, and the collector holding each event exactly once after deduplication.
  static func expectNothingLost(_ tracker: Tracker, _ collector: Collector, count: Int, id: String = "collector", _ row: String) {
    let statistics = tracker.statistics[id] ?? DestinationStatistics()
    #expect(statistics.balances, "\(row): the books balance: \(statistics)")
    #expect(statistics.delivered == count && statistics.dropped == 0 && statistics.queued == 0, "\(row): \(statistics)")
    let received = collector.received.filter { $0.type == .track }
    let numbers = received.compactMap(number)
    #expect(Set(numbers) == Set(0..<count), "\(row): lost \(Set(0..<count).subtracting(numbers).sorted().prefix(5))")
    #expect(numbers.count == Set(numbers).count, "\(row): a duplicate got past deduplication")
    #expect(Set(received.map(\.messageID)).count == received.count, "\(row): one message ID per event")
  }
}

/// Watches a destination's delivered count and keeps the longest time it stood still while events
/// waited: what a user sees of a fault. A measurement, not a wait (the tests wait on `flush`): it looks
/// at the statistics at each change the tracker announces (`Tracker.waitUntil`), never on a timer, so a
/// stall is measured from the last progress to the change that ends it. Start it just before tracking:
/// the first stall counts from then.
final class ProgressWatch: @unchecked Sendable {
  private let lock = NSLock()
  private let tracker: Tracker
  private let id: String
  // Guarded by `lock`.
  private var longest: TimeInterval = 0
  private var last = 0
  private var since = Date()
  private var stopped = false
  private var measuring = true
  private let done = DispatchSemaphore(value: 0)

  init(_ tracker: Tracker, id: String = "collector") {
    self.tracker = tracker
    self.id = id
    let thread = Thread { [self] in
      // Bounded only so that a test that never calls `finish` (it threw) lets the tracker go at last.
      _ = tracker.waitUntil(timeout: TimeLimits.seconds(600)) { [self] in
        let statistics = tracker.statistics[id] ?? DestinationStatistics()
        return lock.withLock {
          note(statistics, at: Date())
          return stopped
        }
      }
      done.signal()
    }
    thread.start()
  }

  /// Caller holds `lock`. Events waited from `since` to now if some are queued, or some were delivered
  /// meanwhile; progress (or an empty queue, or a pause of the measurement) starts the next interval.
  private func note(_ statistics: DestinationStatistics, at now: Date) {
    if measuring && (statistics.queued > 0 || statistics.delivered != last) {
      longest = max(longest, now.timeIntervalSince(since))
    }
    if statistics.delivered != last || statistics.queued == 0 || !measuring {
      last = statistics.delivered
      since = now
    }
  }

  /// Stops counting a stall (the fault forbids progress: a storm, a `Retry-After`), or starts again.
  func measure(_ on: Bool) {
    let statistics = tracker.statistics[id] ?? DestinationStatistics()
    lock.withLock {
      note(statistics, at: Date())
      measuring = on
      since = Date()
    }
  }

  /// The longest stall, in seconds; stops watching.
  func finish() -> TimeInterval {
    let statistics = tracker.statistics[id] ?? DestinationStatistics()
    lock.withLock {
      note(statistics, at: Date())
      stopped = true
    }
    tracker.wakeWaiters()
    done.wait()
    return lock.withLock { longest }
  }
}
