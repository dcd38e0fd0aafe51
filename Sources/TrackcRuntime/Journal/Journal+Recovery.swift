import Foundation

extension Journal {
  // MARK: Start-up

  struct Prepared {
    var segments: String
    var cursors: String
    var lock: Int32
    var existing: [(UInt64, String)]
  }

  /// Creates the directories, takes the lock, removes half-made segments and lists the others.
  static func prepare(_ root: String, keys: [String]) -> Result<Prepared, PrepareFailure> {
    let segments = root + "/segments"
    let cursors = root + "/cursors"
    for path in [root, segments, cursors, root + "/quarantine"] {
      if mkdir(path, 0o700) != 0 && errno != EEXIST {
        return .failure(PrepareFailure("cannot create \(path): \(JournalError.describe(errno))"))
      }
    }
    let lock = openFile(root + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard lock >= 0 else { return .failure(PrepareFailure("cannot open the lock file: \(JournalError.describe(errno))")) }
    guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
      let code = errno
      close(lock)
      return .failure(PrepareFailure(code == EWOULDBLOCK ? "in use by another tracker" : "cannot lock: \(JournalError.describe(code))"))
    }
    guard access(segments, W_OK) == 0, access(cursors, W_OK) == 0 else {
      close(lock)
      return .failure(PrepareFailure("not writable: \(JournalError.describe(errno))"))
    }
    var existing: [(UInt64, String)] = []
    if let directory = opendir(segments) {
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        if name.hasSuffix(".seg.tmp") {
          unlink(segments + "/" + name)
        } else if let number = Segment.number(ofFileNamed: name) {
          existing.append((number, segments + "/" + name))
        }
      }
      closedir(directory)
    }
    // A number no journal reaches (a hostile name) would leave no room for the next segment's: set aside.
    for (number, path) in existing where number >= Segment.maximumNumber {
      if rename(path, root + "/quarantine/" + (path as NSString).lastPathComponent) != 0 { unlink(path) }
    }
    existing.removeAll { $0.0 >= Segment.maximumNumber }
    existing.sort { $0.0 < $1.0 }
    return .success(Prepared(segments: segments, cursors: cursors, lock: lock, existing: existing))
  }

  struct PrepareFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  /// Validates the segments of earlier processes, oldest first, and hands them to the lanes.
  func recover(_ pending: [(UInt64, String)]) {
    for (number, path) in pending {
      if isStopped { return }
      switch Segment.open(path: path, number: number, laneCount: keys.count) {
      case .invalid:
        if isStopped { return }
        quarantine(path)
        monitor.withLock { journalStatistics.quarantinedSegments += 1 }
      case .valid(let segment, let cutTail):
        adopt(segment, cutTail: cutTail)
      }
    }
    monitor.withLock {
      recovered = true
      journalStatistics.recoveryFinished = true
      while totalBytes > maximumBytes, let oldest = segments.first, oldest !== active {
        remove(oldest, countingAs: .journalFull)
      }
      while let oldest = segments.first, oldest !== active, everyCursorHasPassed(oldest) {
        discard(oldest)
      }
      for book in books { book.wake.signal() }
      noteChange()
    }
    tidy()
  }

  private func adopt(_ segment: Segment, cutTail: Bool) {
    segment.laneForTableIndex = segment.destinationIDs.map { keys.firstIndex(of: $0) ?? -1 }
    let cursors = monitor.withLock { books.map(\.cursor) }
    var pending = Array(repeating: 0, count: keys.count)
    var consumed = Array(repeating: 0, count: keys.count)
    // Where each lane whose cursor is in this segment starts reading: its cursor if that is where a record
    // starts (or the end), else the next record's start. A cursor between records' starts (a journal
    // restored from elsewhere, or damage its checksum missed) would otherwise count the records after it
    // as pending while the reader, finding no record there, skipped them: found by the `journal` fuzz target.
    let cursorLanes = keys.indices.filter { cursors[$0].segment == segment.number && cursors[$0].offset > segment.recordsStart }
    var firstUnread: [Int: Int] = [:]
    var snapshots: [EventSnapshot?] = []
    var offset = segment.recordsStart
    while let record = segment.record(at: offset, limit: segment.end, verify: false) {
      for lane in cursorLanes where firstUnread[lane] == nil && offset >= cursors[lane].offset { firstUnread[lane] = offset }
      if SnapshotCoding.isSnapshot(record.payload) {
        // Numbered in order from 0; one that does not decode leaves a gap, and the events that refer to
        // it are counted as undecodable when read.
        if let (number, snapshot) = SnapshotCoding.decode(record.payload), number >= snapshots.count, number < snapshots.count + 1024 {
          snapshots += Array(repeating: nil, count: number - snapshots.count)
          snapshots.append(snapshot)
        }
        offset = record.next
        continue
      }
      if var mask = EventCoding.destinations(of: record.payload) {
        while mask != 0 {
          let bit = mask.trailingZeroBitCount
          mask &= mask - 1
          guard bit < segment.laneForTableIndex.count else { continue }
          let lane = segment.laneForTableIndex[bit]
          guard lane >= 0 else { continue }
          segment.counts[lane] += 1
          let cursor = cursors[lane]
          if cursor.segment < segment.number || (cursor.segment == segment.number && offset >= cursor.offset) {
            pending[lane] += 1
          } else if cursor.segment == segment.number {
            consumed[lane] += 1
          }
        }
      }
      offset = record.next
    }
    segment.snapshots = snapshots
    monitor.withLock {
      if cutTail { journalStatistics.cutTails += 1 }
      let index = segments.firstIndex { $0.number > segment.number } ?? segments.endIndex
      segments.insert(segment, at: index)
      totalBytes += segment.capacity
      for lane in keys.indices {
        books[lane].statistics.accepted += pending[lane]
        books[lane].statistics.recovered += pending[lane]
        books[lane].statistics.queued += pending[lane]
        if books[lane].readPosition.segment == segment.number { books[lane].consumedInReadSegment = consumed[lane] }
      }
      noteChange()
      for lane in cursorLanes where books[lane].cursor == cursors[lane] {
        // Past the last record's start: the end of the records (or the cursor, if it is beyond them).
        let start = firstUnread[lane] ?? max(offset, cursors[lane].offset)
        books[lane].cursor.offset = start
        if books[lane].readPosition == cursors[lane] { books[lane].readPosition.offset = start }
      }
    }
  }

  /// Moves an unreadable segment aside (keeping the last few for inspection).
  private func quarantine(_ path: String) {
    let segmentsDirectory = (path as NSString).deletingLastPathComponent
    let quarantine = (segmentsDirectory as NSString).deletingLastPathComponent + "/quarantine"
    let name = (path as NSString).lastPathComponent
    if rename(path, quarantine + "/" + name) != 0 { unlink(path) }
    let kept = ((try? FileManager.default.contentsOfDirectory(atPath: quarantine)) ?? []).sorted()
    for old in kept.dropLast(8) { unlink(quarantine + "/" + old) }
  }
}
