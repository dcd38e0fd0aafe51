import Foundation

extension Journal {
  // MARK: Flushing and statistics

  /// Asks every lane to deliver what it has now (a partial batch, say when the app goes to the background).
  func requestUpload() {
    monitor.withLock {
      for index in books.indices where books[index].unread > 0 {
        books[index].uploadRequested = true
        books[index].wake.signal()
      }
    }
  }

  /// Waits until nothing is queued for any destination; false on timeout.
  func waitUntilDelivered(until deadline: Date) -> Bool {
    requestUpload()
    monitor.lock()
    defer { monitor.unlock() }
    while books.contains(where: { $0.statistics.queued > 0 }) || !recovered {
      if stopped { return false }
      for index in books.indices where books[index].unread > 0 && !books[index].uploadRequested {
        books[index].uploadRequested = true
        books[index].wake.signal()
      }
      if !progress.wait(until: deadline) && Date() >= deadline {
        return !books.contains(where: { $0.statistics.queued > 0 }) && recovered
      }
    }
    return true
  }

  /// Announces a change of what the journal reports (a count, recovery, the snapshot, the stop) to the
  /// waiters. Caller holds the lock. Not called by `append`: what `track()` changes is there when it returns.
  func noteChange() {
    changes &+= 1
    progress.broadcast()
  }

  /// Waits until `condition` holds, asking it again at each change `noteChange` announces (or
  /// `wakeWaiters` asks for), never on a timer; false once `deadline` passes with it still false, or
  /// once the journal has stopped (nothing changes after that). `condition` runs without the lock held,
  /// so it may read anything, the statistics included. For tests: apps wait with `flush`.
  func waitUntil(_ deadline: Date, _ condition: () -> Bool) -> Bool {
    while true {
      let seen = monitor.withLock { changes }
      if condition() { return true }
      monitor.lock()
      while changes == seen {
        if stopped || (!progress.wait(until: deadline) && Date() >= deadline) {
          monitor.unlock()
          return condition()
        }
      }
      monitor.unlock()
    }
  }

  /// Has `waitUntil` ask its condition again: for a condition that depends on more than the journal.
  func wakeWaiters() {
    monitor.withLock { noteChange() }
  }

  func statistics(lane: Int) -> DestinationStatistics {
    monitor.withLock { books[lane].statistics }
  }

  var health: JournalStatistics {
    monitor.withLock {
      var statistics = journalStatistics
      statistics.segments = segments.count
      statistics.bytes = totalBytes
      return statistics
    }
  }
}
