import Foundation

/// An analytics destination (a plugin): Firebase, Mixpanel, a collector of your own.
///
/// Each destination delivers from the journal on a delivery thread of its own, in the order events
/// were tracked, at least once: an event stays in the journal until its destination has taken it. One
/// destination that is slow, throws or is offline never delays the others, and holds no more in memory
/// than one batch.
///
/// Conform to this for an in-process plugin (a wrapper around an analytics SDK): `receive` gets one
/// event at a time. Network destinations conform to `BatchTrackingDestination` instead.
public protocol TrackingDestination: AnyObject, Sendable {
  /// The ID the config's `destinations` use.
  var id: String { get }
  /// Whether this destination wants the event (a plan that excludes some events, say). Called on the
  /// destination's delivery thread, just before delivery; a declined event counts as `notApplicable`.
  func isApplicable(to event: TrackingEvent) -> Bool
  /// Delivers one event. Throwing means "not now": the same event is offered again after a backoff
  /// (exponential, with jitter, `RetryPolicy`), and the events after it wait for it (order per
  /// destination). Each failure is counted and reported to the tracker's `onDeliveryFailure`.
  func receive(_ event: TrackingEvent) throws
}

extension TrackingDestination {
  public func isApplicable(to event: TrackingEvent) -> Bool { true }
}

/// A destination that takes events in batches and answers asynchronously: a network uploader
/// (`HTTPCollectorDestination`), or an SDK that flushes batches.
public protocol BatchTrackingDestination: TrackingDestination {
  /// When a batch is ready: at `maximumEvents`, at `maximumBytes` of journal records, after `maximumAge`
  /// seconds since the lane found the first event waiting, or at once on `Tracker.uploadNow()`.
  var batchLimits: BatchLimits { get }
  /// Delivers a batch; call `completion` exactly once, from any thread. The lane waits for it, so at
  /// most one batch per destination is in memory, whatever the backlog in the journal.
  func deliver(_ batch: [TrackingEvent], completion: @escaping @Sendable (BatchOutcome) -> Void)
}

extension BatchTrackingDestination {
  /// Batch destinations are only given batches; a lone event is a batch of one.
  public func receive(_ event: TrackingEvent) throws {
    let outcome = DeliveryLane.call(self, [event])
    guard outcome == .delivered else { throw BatchDeliveryFailed(outcome: outcome) }
  }
}

/// What `receive` throws when a batch destination is asked for one event and does not deliver it.
public struct BatchDeliveryFailed: Error, Sendable {
  public let outcome: BatchOutcome
}

/// When a `BatchTrackingDestination` gets a batch.
public struct BatchLimits: Sendable, Hashable {
  public var maximumEvents: Int
  public var maximumBytes: Int
  public var maximumAge: TimeInterval

  public init(maximumEvents: Int = 500, maximumBytes: Int = 256 * 1024, maximumAge: TimeInterval = 10) {
    self.maximumEvents = max(1, maximumEvents)
    self.maximumBytes = max(1, maximumBytes)
    self.maximumAge = max(0, maximumAge)
  }
}

/// How a batch delivery ended.
public enum BatchOutcome: Sendable, Hashable {
  case delivered
  /// A transient failure: try the same batch again after `after` seconds, or after the lane's backoff
  /// when nil. Nothing is ever dropped merely because it was retried many times.
  case retry(after: TimeInterval?)
  /// Something in the batch is refused (400, 413): deliver the halves separately to isolate it; a
  /// single event is dropped and counted with `whenSingle`, and reported to `onDrop`.
  case split(whenSingle: DropReason)
  /// The whole batch is refused (another 4xx): dropped, counted and reported, so a poison batch never
  /// blocks the queue.
  case drop(DropReason)
}

/// Backoff between retries of a failing destination: exponential with full jitter (a delay drawn
/// uniformly between 0 and `initial * 2^attempt`, capped at `maximum`), so that many apps failing
/// together do not retry together.
public struct RetryPolicy: Sendable, Hashable {
  public var initial: TimeInterval
  public var maximum: TimeInterval

  public init(initial: TimeInterval = 0.5, maximum: TimeInterval = 300) {
    self.initial = max(0, initial)
    self.maximum = max(self.initial, maximum)
  }

  public static let `default` = RetryPolicy()

  /// The delay before retry number `attempt` (1 for the first retry).
  public func delay(attempt: Int) -> TimeInterval {
    let ceiling = min(maximum, initial * pow(2, Double(min(max(attempt - 1, 0), 40))))
    return ceiling > 0 ? Double.random(in: 0...ceiling) : 0
  }
}

/// Which destinations remote configuration has switched on, and what share of each event to keep.
/// Asked on the tracking thread, so it must answer from memory (keep the fetched configuration in a
/// snapshot): `RemoteDestinationConfiguration` does.
public protocol DestinationConfiguration: Sendable {
  func isEnabled(_ destinationID: String) -> Bool
  /// The share of `eventID`'s events to send to the destination, from 0 to 1 (1 by default).
  func samplingRate(eventID: String, destinationID: String) -> Double
}

extension DestinationConfiguration {
  public func samplingRate(eventID: String, destinationID: String) -> Double { 1 }
}

/// Every destination on: the default.
public struct AllDestinationsEnabled: DestinationConfiguration {
  public init() {}
  public func isEnabled(_ destinationID: String) -> Bool { true }
}

/// A fixed set of enabled destinations (tests, or a configuration that never changes).
public struct FixedDestinationConfiguration: DestinationConfiguration {
  public let enabled: Set<String>
  public init(enabled: Set<String>) { self.enabled = enabled }
  public func isEnabled(_ destinationID: String) -> Bool { enabled.contains(destinationID) }
}
