import Foundation
import Testing
import TrackcCollector

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
/// waited: what a user sees of a fault. Samples every 5 ms on a thread of its own (a measurement, not a
/// wait: the tests wait on `flush`).
final class ProgressWatch: @unchecked Sendable {
  private let lock = NSLock()
  private var longest: TimeInterval = 0
  private var stopped = false
  private var measuring = true
  private let done = DispatchSemaphore(value: 0)

  init(_ tracker: Tracker, id: String = "collector") {
    let thread = Thread { [self] in
      var last = -1
      var since = Date()
      while !lock.withLock({ stopped }) {
        let statistics = tracker.statistics[id] ?? DestinationStatistics()
        let now = Date()
        lock.withLock {
          if statistics.delivered != last || statistics.queued == 0 || !measuring {
            last = statistics.delivered
            since = now
          } else {
            longest = max(longest, now.timeIntervalSince(since))
          }
        }
        usleep(5_000)
      }
      done.signal()
    }
    thread.start()
  }

  /// Stops counting a stall (the fault forbids progress: a storm, a `Retry-After`), or starts again.
  func measure(_ on: Bool) { lock.withLock { measuring = on } }

  /// The longest stall, in seconds; stops watching.
  func finish() -> TimeInterval {
    lock.withLock { stopped = true }
    done.wait()
    return lock.withLock { longest }
  }
}
