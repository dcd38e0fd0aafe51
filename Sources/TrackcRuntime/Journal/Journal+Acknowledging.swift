import Foundation

extension Journal {
  // MARK: Acknowledging (a lane finished a batch)

  /// The lane has finished a batch: counts what was delivered and dropped, moves and persists the
  /// cursor, and deletes the segments every destination has passed.
  func acknowledge(lane: Int, batch: Batch, delivered: Int, dropped: [DropReason: Int]) {
    // The cursor is on disk before the counts say "delivered" (so `flush` returning means persisted)
    // and before any segment it passed is deleted. Only this lane writes its cursor file.
    monitor.lock()
    let moved = books[lane].cursor != batch.end
    let file = stopped ? nil : books[lane].cursorFile
    monitor.unlock()
    if moved { file?.write(batch.end) }

    monitor.lock()
    var resolved = delivered
    books[lane].statistics.delivered += delivered
    for (reason, count) in dropped where count > 0 {
      books[lane].statistics.droppedByReason[reason, default: 0] += count
      resolved += count
    }
    books[lane].statistics.queued -= resolved
    books[lane].inFlight -= batch.events.count
    books[lane].cursor = batch.end
    if books[lane].unread == 0 { books[lane].uploadRequested = false }
    while let oldest = segments.first, oldest.sealed, oldest !== active, everyCursorHasPassed(oldest) {
      discard(oldest)
    }
    noteChange()
    let tidying = !discarded.isEmpty
    monitor.unlock()
    if tidying { tidy() }
  }

  func countFailedAttempt(lane: Int, reason: RetryReason) {
    monitor.withLock {
      books[lane].statistics.failedAttempts += 1
      books[lane].statistics.failuresByReason[reason, default: 0] += 1
      noteChange()
    }
  }

  func everyCursorHasPassed(_ segment: Segment) -> Bool {
    books.allSatisfy { book in
      book.statistics.queued == 0 || book.cursor.segment > segment.number
        || (book.cursor.segment == segment.number && book.cursor.offset >= segment.end)
    }
  }
}
