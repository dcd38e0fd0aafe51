import Foundation

extension Tracker {
  // MARK: Waiting (tests)

  /// Waits until `condition` holds; false once `timeout` passes with it still false (or the tracker
  /// stopped). `condition` is asked at once, then again at each change on the delivery side (a batch
  /// acknowledged, a failed attempt, recovered events counted, an identity or consent change, or
  /// `wakeWaiters`), never on a timer. What `track()` changes is there when it returns, so it wakes
  /// nobody (the tracking path stays as it was). For tests (`@testable`): an app waits with `flush`.
  func waitUntil(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
    journal.waitUntil(Date(timeIntervalSinceNow: timeout), condition)
  }

  /// The same, without holding the caller's thread (the wait is on a thread of its own, as `flush`'s).
  func waitUntil(timeout: TimeInterval, _ condition: @escaping @Sendable () -> Bool) async -> Bool {
    let journal = journal
    let deadline = Date(timeIntervalSinceNow: timeout)
    return await withCheckedContinuation { continuation in
      DispatchQueue.global(qos: .utility).async { continuation.resume(returning: journal.waitUntil(deadline, condition)) }
    }
  }

  /// Has `waitUntil` ask its condition again now: for a condition that depends on more than the tracker.
  func wakeWaiters() {
    journal.wakeWaiters()
  }
}
