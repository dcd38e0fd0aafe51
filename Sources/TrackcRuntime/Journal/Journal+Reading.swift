import Foundation

extension Journal {
  // MARK: Reading (the delivery lanes)

  enum Wait { case work, timeout, stopped }

  /// Waits until the lane has at least `minimum` unread events (or any, when an upload was requested),
  /// the deadline passes, or the journal stops.
  func waitForWork(lane: Int, minimum: Int, until deadline: Date?) -> Wait {
    monitor.lock()
    defer { monitor.unlock() }
    while true {
      if stopped { return .stopped }
      if recovered {
        let unread = books[lane].unread
        if unread >= max(1, minimum) || (unread > 0 && books[lane].uploadRequested) { return .work }
      }
      books[lane].sleeping = true
      books[lane].threshold = max(1, minimum)
      let signalled = books[lane].wake.wait(until: deadline)
      books[lane].sleeping = false
      if !signalled, let deadline, deadline <= Date() {
        return recovered && books[lane].unread > 0 ? .work : .timeout
      }
    }
  }

  /// Sleeps on the lane's condition (a backoff), unless the journal stops or the pause is cut short
  /// (`interruptPause`). True if it stopped.
  func pause(lane: Int, until deadline: Date) -> Bool {
    monitor.lock()
    defer { monitor.unlock() }
    while !stopped && !books[lane].interrupted && Date() < deadline {
      books[lane].wake.wait(until: deadline)
    }
    books[lane].interrupted = false
    return stopped
  }

  /// Cuts short the lanes' backoffs, so that they look at what waits again at once (consent revoked:
  /// what a failing destination was retrying is dropped now, not after its backoff).
  func interruptPause(lanes: [Int]) {
    monitor.withLock {
      for lane in lanes where lane < books.count {
        books[lane].interrupted = true
        books[lane].wake.signal()
      }
    }
  }

  var isStopped: Bool { monitor.withLock { stopped } }

  /// Waits while a lane holds its events for a pending consent category: until the wait is cut short
  /// (`interruptPause`: an answer came), more than `above` events wait, the deadline passes, or the
  /// journal stops. True if it stopped.
  func hold(lane: Int, above: Int, until deadline: Date) -> Bool {
    monitor.lock()
    defer { monitor.unlock() }
    while !stopped && !books[lane].interrupted && Date() < deadline && books[lane].unread <= above {
      books[lane].sleeping = true
      books[lane].threshold = above &+ 1
      books[lane].wake.wait(until: deadline)
      books[lane].sleeping = false
    }
    books[lane].interrupted = false
    return stopped
  }

  /// Events waiting for the lane and not yet read.
  func unread(lane: Int) -> Int {
    monitor.withLock { books[lane].unread }
  }

  /// Reads the lane's next events (at most `maximumEvents`, and stopping once `maximumBytes` of payload
  /// are reached), skipping records routed elsewhere. Records that do not decode are counted as dropped.
  /// With `while`, the read stops before the first event it refuses, which stays unread.
  func nextBatch(lane: Int, maximumEvents: Int, maximumBytes: Int, while keep: ((TrackingEvent) -> Bool)? = nil) -> Batch {
    while true {
      monitor.lock()
      var position = books[lane].readPosition
      guard let segment = segments.first(where: { $0.number >= position.segment }) else {
        monitor.unlock()
        return Batch(end: position)
      }
      if segment.number > position.segment || position.offset < segment.recordsStart {
        if segment.number > position.segment { books[lane].consumedInReadSegment = 0 }
        position = JournalPosition(segment: segment.number, offset: segment.recordsStart)
        books[lane].readPosition = position
      }
      let limit = segment.end
      let sealed = segment.sealed
      let bit = segment.laneForTableIndex.firstIndex(of: lane).map { UInt64(1) << UInt64($0) } ?? 0
      let verify = segment.sealed
      // Every snapshot a record before `limit` refers to was written before it.
      let snapshots = segment.snapshots
      let version = segment.version
      monitor.unlock()

      var batch = Batch(end: position)
      var offset = position.offset
      var mine = 0
      var undecodable = 0
      var bytes = 0
      var refused = false
      while offset < limit, batch.events.count < maximumEvents, bytes < maximumBytes {
        guard let record = segment.record(at: offset, limit: limit, verify: verify) else {
          offset = limit
          break
        }
        guard bit != 0, let mask = EventCoding.destinations(of: record.payload), mask & bit != 0 else {
          offset = record.next
          continue
        }
        if let event = EventCoding.decode(record.payload, version: version, snapshots: snapshots, fallback: firstSnapshot) {
          if let keep, !keep(event) {
            refused = true
            break
          }
          batch.events.append(event)
          batch.sizes.append(record.payload.count)
          bytes += record.payload.count
        } else {
          undecodable += 1
        }
        mine += 1
        offset = record.next
      }

      monitor.lock()
      if segment.removed {
        monitor.unlock()
        continue
      }
      let next = JournalPosition(segment: segment.number, offset: offset)
      books[lane].readPosition = next
      books[lane].consumedInReadSegment += mine
      if undecodable > 0 {
        books[lane].statistics.droppedByReason[.undecodable, default: 0] += undecodable
        books[lane].statistics.queued -= undecodable
        noteChange()
      }
      books[lane].inFlight += batch.events.count
      let exhausted = offset >= limit && sealed
      monitor.unlock()
      batch.end = next
      if batch.events.isEmpty && exhausted && !refused {
        monitor.withLock {
          books[lane].readPosition = JournalPosition(segment: segment.number + 1, offset: 0)
          books[lane].consumedInReadSegment = 0
        }
        continue
      }
      return batch
    }
  }
}
