import Foundation

/// One destination's delivery: a thread that reads the destination's events from the journal after its
/// cursor, hands them over (one by one, or as a batch), and moves the cursor once they are delivered or
/// dropped. At least once and in order: a failure retries the same events after a backoff, and nothing
/// after them goes first. Memory holds one batch, never the backlog.
///
/// With a consent gate, each hand-over (and each retry) first drops the events whose consent category
/// was revoked since they were tracked (`ConsentBook.admit`), counted as `consentRevoked`.
final class DeliveryLane: @unchecked Sendable {
  typealias FailureHandler = @Sendable (TrackingEvent, any Error, String) -> Void
  typealias DropHandler = @Sendable ([TrackingEvent], DropReason, String) -> Void

  let destination: any TrackingDestination
  private let index: Int
  private let journal: Journal
  private let retry: RetryPolicy
  private let onFailure: FailureHandler
  private let onDrop: DropHandler
  /// The consent in force, when the plan gates destinations by consent.
  private let consent: ConsentBook?
  /// How many events an in-process destination is given between two cursor writes.
  static let eventsPerCursorWrite = 64

  init(
    destination: any TrackingDestination, index: Int, journal: Journal, retry: RetryPolicy, onFailure: @escaping FailureHandler,
    onDrop: @escaping DropHandler, consent: ConsentBook? = nil
  ) {
    self.destination = destination
    self.index = index
    self.journal = journal
    self.retry = retry
    self.onFailure = onFailure
    self.onDrop = onDrop
    self.consent = consent
    let thread = Thread { [self] in run() }
    thread.name = "trackc delivery: \(destination.id)"
    thread.start()
  }

  private func run() {
    let batchDestination = destination as? any BatchTrackingDestination
    while true {
      let limits = batchDestination?.batchLimits ?? BatchLimits(maximumEvents: Self.eventsPerCursorWrite, maximumBytes: 1 << 20, maximumAge: 0)
      guard wait(limits) else { return }
      let batch = journal.nextBatch(lane: index, maximumEvents: limits.maximumEvents, maximumBytes: limits.maximumBytes)
      var dropped: [DropReason: Int] = [:]
      var applicable: [TrackingEvent] = []
      applicable.reserveCapacity(batch.events.count)
      for event in batch.events {
        if destination.isApplicable(to: event) {
          applicable.append(event)
        } else {
          dropped[.notApplicable, default: 0] += 1
        }
      }
      let delivered: Int
      if let batchDestination {
        guard let result = deliver(applicable, to: batchDestination) else { return }
        delivered = result.delivered
        dropped.merge(result.dropped, uniquingKeysWith: +)
      } else {
        guard let revoked = receiveEach(applicable) else { return }
        delivered = applicable.count - revoked
        if revoked > 0 { dropped[.consentRevoked, default: 0] += revoked }
      }
      journal.acknowledge(lane: index, batch: batch, delivered: delivered, dropped: dropped)
    }
  }

  /// Waits for a batch's worth of events: any at all, then (for a batch destination) until the batch is
  /// full or `maximumAge` has passed since the first. False when the journal stopped.
  private func wait(_ limits: BatchLimits) -> Bool {
    switch journal.waitForWork(lane: index, minimum: 1, until: nil) {
    case .stopped: return false
    case .work, .timeout: break
    }
    guard limits.maximumAge > 0, limits.maximumEvents > 1 else { return true }
    let deadline = Date(timeIntervalSinceNow: limits.maximumAge)
    return journal.waitForWork(lane: index, minimum: limits.maximumEvents, until: deadline) != .stopped
  }

  /// Gives each event to an in-process destination, retrying one that throws; each attempt first asks
  /// consent (`handOver`). The count of events consent dropped; nil if stopped meanwhile.
  private func receiveEach(_ events: [TrackingEvent]) -> Int? {
    var revoked = 0
    for event in events {
      var attempt = 0
      while true {
        let outcome = handOver([event]) { admitted -> Result<Void, any Error> in
          Result { try destination.receive(admitted[0]) }
        }
        guard let (result, _) = outcome else {
          revoked += 1
          break
        }
        switch result {
        case .success:
          break
        case .failure(let error):
          attempt += 1
          journal.countFailedAttempt(lane: index, reason: .failed)
          onFailure(event, error, destination.id)
          if journal.pause(lane: index, until: Date(timeIntervalSinceNow: retry.delay(attempt: attempt))) { return nil }
          continue
        }
        break
      }
    }
    return revoked
  }

  /// Runs `body` with the events consent still allows (all of them without a gate), under the lane's
  /// hand-over lock: a revocation waits for it (`ConsentBook.waitForHandOvers`). Nil, without running
  /// `body`, when consent allows none of them; else what `body` returned and how many consent dropped.
  private func handOver<Result>(_ events: [TrackingEvent], _ body: ([TrackingEvent]) -> Result) -> (Result, revoked: Int)? {
    guard let consent else { return (body(events), 0) }
    let target: String? = destination.role == .collector ? nil : destination.id
    return consent.handOver(lane: index) {
      let (kept, revoked) = consent.admit(events, destination: target)
      return kept.isEmpty ? nil : (body(kept), revoked)
    }
  }

  /// Delivers a batch, splitting it when the destination asks and retrying transient failures. Nil if
  /// the journal stopped meanwhile (nothing is acknowledged: the events are delivered again next time).
  private func deliver(_ events: [TrackingEvent], to batchDestination: any BatchTrackingDestination) -> (
    delivered: Int, dropped: [DropReason: Int]
  )? {
    guard !events.isEmpty else { return (0, [:]) }
    var events = events
    var revoked: [DropReason: Int] = [:]
    var attempt = 0
    while true {
      // Consent is asked at each attempt: what a retry would send again may have been revoked meanwhile.
      let done = DispatchSemaphore(value: 0)
      let box = OutcomeSlot()
      let handedOver = handOver(events) { admitted -> [TrackingEvent] in
        batchDestination.deliver(admitted) { outcome in
          box.set(outcome)
          done.signal()
        }
        return admitted
      }
      guard let (admitted, dropped) = handedOver else { return (0, [.consentRevoked: events.count].merging(revoked, uniquingKeysWith: +)) }
      if dropped > 0 { revoked[.consentRevoked, default: 0] += dropped }
      events = admitted
      done.wait()
      switch box.value ?? .retry(after: nil, reason: .failed) {
      case .delivered:
        return (events.count, revoked)
      case .drop(let reason):
        onDrop(events, reason, destination.id)
        return (0, revoked.merging([reason: events.count], uniquingKeysWith: +))
      case .split(let reason):
        if events.count == 1 {
          onDrop(events, reason, destination.id)
          return (0, revoked.merging([reason: 1], uniquingKeysWith: +))
        }
        let middle = events.count / 2
        guard let first = deliver(Array(events[..<middle]), to: batchDestination),
          let second = deliver(Array(events[middle...]), to: batchDestination)
        else { return nil }
        return (
          first.delivered + second.delivered, first.dropped.merging(second.dropped, uniquingKeysWith: +).merging(revoked, uniquingKeysWith: +)
        )
      case .retry(let after, let reason):
        attempt += 1
        journal.countFailedAttempt(lane: index, reason: reason)
        let delay = after.map { max(0, $0) } ?? retry.delay(attempt: attempt)
        if delay > 0, journal.pause(lane: index, until: Date(timeIntervalSinceNow: delay)) { return nil }
        if journal.isStopped { return nil }
      }
    }
  }
}

extension DeliveryLane {
  /// Calls `deliver` and waits for its completion.
  static func call(_ destination: any BatchTrackingDestination, _ events: [TrackingEvent]) -> BatchOutcome {
    let done = DispatchSemaphore(value: 0)
    let box = OutcomeSlot()
    destination.deliver(events) { outcome in
      box.set(outcome)
      done.signal()
    }
    done.wait()
    return box.value ?? .retry(after: nil, reason: .failed)
  }
}

private final class OutcomeSlot: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: BatchOutcome?

  func set(_ outcome: BatchOutcome) {
    lock.lock()
    if stored == nil { stored = outcome }
    lock.unlock()
  }

  var value: BatchOutcome? {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
