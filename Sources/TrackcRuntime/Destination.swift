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
  /// The ID the config's `destinations` use (a collector destination's own name, for statistics and
  /// remote configuration).
  var id: String { get }
  /// What it stands for: the plan's destination of its ID (an in-process SDK, the default), or a
  /// collector that forwards events to the plan's destinations (`HTTPCollectorDestination`).
  var role: DestinationRole { get }
  /// For a collector: whether it takes the `Segment Consent Preference Updated` call a change of consent
  /// sends (`Tracker.consentUpdatedEvent`), as a collector speaking Segment's API does
  /// (`HTTPCollectorDestination`). False by default.
  var receivesConsentUpdates: Bool { get }
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
  public var role: DestinationRole { .planDestination }
  public var receivesConsentUpdates: Bool { false }
}

/// How the tracker routes events to a destination.
public enum DestinationRole: Sendable, Hashable {
  /// The plan's destination of the same ID: it gets the events the plan routes there.
  case planDestination
  /// A collector (Segment, RudderStack, `trackc collector`): it gets, once each, the events the plan
  /// routes to any destination that no `planDestination` of the tracker delivers, each with the list
  /// of those destinations (`TrackingEvent.forwardedTo`, sent as Segment's `integrations`), and the
  /// identify and alias calls.
  case collector
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

/// When a `BatchTrackingDestination` gets a batch, and how large one may be.
public struct BatchLimits: Sendable, Hashable {
  public var maximumEvents: Int
  /// The largest batch as the destination encodes it (an upload's body, before compression): the lane
  /// stops reading once the events' journal records reach it (they are never larger than their
  /// encoding), and a destination whose encoding exceeds it answers `.split`.
  public var maximumBytes: Int
  /// How long after the first event waits a partial batch goes anyway.
  public var maximumAge: TimeInterval

  /// Each default is `Defaults`'.
  public init(
    maximumEvents: Int = Defaults.batchEvents, maximumBytes: Int = Defaults.batchBytes, maximumAge: TimeInterval = Defaults.batchAge
  ) {
    self.maximumEvents = max(1, maximumEvents)
    self.maximumBytes = max(1, maximumBytes)
    self.maximumAge = max(0, maximumAge)
  }

  public static let `default` = BatchLimits()
}

/// How a batch delivery ended.
public enum BatchOutcome: Sendable, Hashable {
  case delivered
  /// A transient failure: try the same batch again after `after` seconds (the collector's
  /// `Retry-After`), or after the tracker's backoff (`RetryPolicy`) when nil. Counted by `reason`.
  /// Nothing is ever dropped merely because it was retried many times.
  case retry(after: TimeInterval?, reason: RetryReason = .failed)
  /// Something in the batch is refused (400, 413): deliver the halves separately to isolate it; a
  /// single event is dropped and counted with `whenSingle`, and reported to `onDrop`.
  case split(whenSingle: DropReason)
  /// The whole batch is refused (another 4xx): dropped, counted and reported, so a poison batch never
  /// blocks the queue.
  case drop(DropReason)
}

/// Why a delivery is tried again (`DestinationStatistics.failuresByReason`).
public struct RetryReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public var description: String { rawValue }

  /// An in-process destination threw, or a batch destination gave no reason.
  public static let failed = RetryReason(rawValue: "failed")
}

/// Backoff between retries of a failing destination, the one retry layer of the runtime: exponential
/// with full jitter (a delay drawn uniformly between 0 and `initial * 2^attempt`, capped at `maximum`),
/// so that many apps failing together do not retry together. A collector's `Retry-After` replaces it
/// for the retry it answers.
public struct RetryPolicy: Sendable, Hashable {
  public var initial: TimeInterval
  public var maximum: TimeInterval

  /// Each default is `Defaults`'.
  public init(initial: TimeInterval = Defaults.retryInitial, maximum: TimeInterval = Defaults.retryMaximum) {
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
  /// The destinations this configuration names as switched off, now: a call meant for every destination
  /// (an identify or alias call, an event the plan does not restrict) tells a collector to leave them
  /// out (`"integrations": {"All": true, "<name>": false}`). Empty by default, for a configuration that
  /// cannot list them (one that names what is on).
  var disabledDestinations: [String] { get }
}

extension DestinationConfiguration {
  public func samplingRate(eventID: String, destinationID: String) -> Double { 1 }
  public var disabledDestinations: [String] { [] }
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
