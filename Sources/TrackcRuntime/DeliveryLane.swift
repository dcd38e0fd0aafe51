import Foundation

/// One destination's delivery: a queue and a thread of its own, so that a destination that is slow or
/// throws holds up nobody else, and its events arrive in the order they were tracked.
///
/// Tracking an event costs a lock and an append. The thread is woken only when it sleeps: after draining
/// the queue it lingers a millisecond first (events that arrive meanwhile wake nobody), so a burst of
/// events costs one wake-up instead of one per event, and an idle app costs one extra millisecond. The queue is bounded: when a destination falls `capacity` events behind,
/// the oldest waiting event is dropped and counted (durable delivery is the destination's business).
final class DeliveryLane: @unchecked Sendable {
  let destination: any TrackingDestination
  private let capacity: Int
  private let failureHandler: @Sendable (TrackingEvent, any Error, String) -> Void
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var pending: [TrackingEvent] = []
  private var pendingStart = 0
  private var delivering = 0
  private var threadIsWaiting = false
  /// How long the thread waits for more events before it sleeps until woken.
  private static let linger: TimeInterval = 0.001
  private var stopped = false
  private var counts = DestinationStatistics()

  init(destination: any TrackingDestination, capacity: Int, failureHandler: @escaping @Sendable (TrackingEvent, any Error, String) -> Void) {
    self.destination = destination
    self.capacity = max(1, capacity)
    self.failureHandler = failureHandler
    let thread = Thread { [self] in run() }
    thread.name = "trackc delivery: \(destination.id)"
    thread.start()
  }

  func enqueue(_ event: TrackingEvent) {
    condition.lock()
    if pending.count - pendingStart >= capacity {
      pendingStart += 1
      counts.dropped += 1
    }
    pending.append(event)
    counts.queued += 1
    if threadIsWaiting { condition.signal() }
    condition.unlock()
  }

  /// Waits until every event queued so far has been handed to the destination; false on timeout.
  func flush(until deadline: Date) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while pending.count > pendingStart || delivering > 0 {
      if !condition.wait(until: deadline) { return pending.count == pendingStart && delivering == 0 }
    }
    return true
  }

  var statistics: DestinationStatistics {
    condition.lock()
    defer { condition.unlock() }
    return counts
  }

  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  private func run() {
    while true {
      condition.lock()
      if pending.count == pendingStart && !stopped {
        _ = condition.wait(until: Date(timeIntervalSinceNow: Self.linger))
      }
      while pending.count == pendingStart && !stopped {
        threadIsWaiting = true
        condition.wait()
        threadIsWaiting = false
      }
      if stopped && pending.count == pendingStart {
        condition.unlock()
        return
      }
      let batch = pending[pendingStart...]
      pending = []
      pendingStart = 0
      delivering = batch.count
      condition.unlock()

      var delivered = 0
      var failed = 0
      var skipped = 0
      for event in batch {
        guard destination.isApplicable(to: event) else {
          skipped += 1
          continue
        }
        do {
          try destination.receive(event)
          delivered += 1
        } catch {
          failed += 1
          failureHandler(event, error, destination.id)
        }
      }

      condition.lock()
      delivering = 0
      counts.delivered += delivered
      counts.failed += failed
      counts.notApplicable += skipped
      condition.broadcast()
      condition.unlock()
    }
  }
}

/// What happened to the events routed to one destination.
public struct DestinationStatistics: Sendable, Hashable {
  /// Routed to the destination.
  public var queued = 0
  public var delivered = 0
  /// `receive` threw.
  public var failed = 0
  /// The destination said it does not want them.
  public var notApplicable = 0
  /// Dropped because the destination fell too far behind.
  public var dropped = 0

  public init() {}
}
