import Foundation

extension Tracker {
  // MARK: Delivery

  /// Waits until every event tracked so far has been delivered (or dropped) by every destination;
  /// false on timeout (a destination that keeps failing, say). Uploads partial batches at once. The
  /// wait is on a thread of its own: the caller's (the main actor, say) is free meanwhile.
  @discardableResult
  public func flush(timeout: TimeInterval = 5) async -> Bool {
    let journal = journal
    let deadline = Date(timeIntervalSinceNow: timeout)
    return await withCheckedContinuation { continuation in
      DispatchQueue.global(qos: .utility).async { continuation.resume(returning: journal.waitUntilDelivered(until: deadline)) }
    }
  }

  /// The same, blocking the calling thread: for scripts and tests, never an app's main thread.
  @discardableResult
  public func flush(timeout: TimeInterval = 5) -> Bool {
    journal.waitUntilDelivered(until: Date(timeIntervalSinceNow: timeout))
  }

  /// Asks every destination to deliver what is waiting now, without waiting for full batches: call it
  /// when the app goes to the background. Returns at once.
  public func uploadNow() {
    journal.requestUpload()
  }

  /// Per destination ID. For each, `accepted == delivered + dropped + queued`.
  public var statistics: [String: DestinationStatistics] {
    var result: [String: DestinationStatistics] = [:]
    for (index, id) in laneIDs.enumerated() where result[id] == nil {
      var statistics = journal.statistics(lane: index)
      // A collector's lane for what waits for a pending consent category counts as the collector's.
      if let waiting = waitingLanes[index] { statistics.add(journal.statistics(lane: waiting)) }
      result[id] = statistics
    }
    return result
  }

  /// The journal's storage and health (quarantined segments, cut tails, memory fallback).
  public var journalStatistics: JournalStatistics { journal.health }
}

extension DestinationStatistics {
  /// Adds another lane's counts (a collector's two lanes, reported as one destination).
  mutating func add(_ other: DestinationStatistics) {
    accepted += other.accepted
    recovered += other.recovered
    delivered += other.delivered
    droppedByReason.merge(other.droppedByReason, uniquingKeysWith: +)
    queued += other.queued
    failedAttempts += other.failedAttempts
    failuresByReason.merge(other.failuresByReason, uniquingKeysWith: +)
  }
}
