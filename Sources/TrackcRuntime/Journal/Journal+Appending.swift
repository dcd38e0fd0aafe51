import Foundation

extension Journal {
  // MARK: Appending (the tracking path)

  /// Appends one event routed to the destinations in `destinations` (bit i: lane i). Returns once the
  /// event is as safe as the durability setting promises.
  func append(_ draft: EventCoding.Draft, destinations: UInt64, date: Date) {
    monitor.lock()
    defer { monitor.unlock() }
    appendLocked(draft, destinations: destinations, date: date)
  }

  /// Makes `snapshot` what identifies the events appended from now on (it is written to the journal
  /// once), then appends `call` (an identify or alias call) if there is one, under one lock: no event
  /// tracked on another thread can fall between them.
  func update(_ snapshot: EventSnapshot, call: EventCoding.Draft?, destinations: UInt64, date: Date) {
    monitor.lock()
    defer { monitor.unlock() }
    self.snapshot = snapshot
    if let segment = active, !writeSnapshot(into: segment, number: snapshotNumber + 1) {
      roll()
    }
    if let call, destinations != 0 { appendLocked(call, destinations: destinations, date: date) }
    noteChange()
  }

  /// Writes the current snapshot into `segment` as number `number`; false when it does not fit. Caller
  /// holds the lock.
  private func writeSnapshot(into segment: Segment, number: Int) -> Bool {
    let size = SnapshotCoding.encodedSize(snapshot, number: number)
    guard size <= maximumPayload, segment.fits(payload: size) else { return false }
    let snapshot = self.snapshot
    segment.append(payloadSize: size) { SnapshotCoding.encode(snapshot, number: number, into: $0) }
    segment.snapshots.append(snapshot)
    snapshotNumber = number
    return true
  }

  private func appendLocked(_ draft: EventCoding.Draft, destinations: UInt64, date: Date) {
    let seconds = date.timeIntervalSince1970
    let microseconds = Int64(seconds * 1_000_000)
    let milliseconds = UInt64(max(0, seconds * 1000))
    var size = EventCoding.encodedSize(draft, snapshot: snapshotNumber)
    guard size <= maximumPayload else {
      count(destinations, as: .tooLarge)
      return
    }
    if active == nil || !active!.fits(payload: size) {
      roll()
      size = EventCoding.encodedSize(draft, snapshot: snapshotNumber)
    }
    guard let segment = active, segment.fits(payload: size) else {
      count(destinations, as: .storageUnavailable)
      return
    }
    sequence &+= 1
    let id = ids.id(milliseconds: milliseconds, sequence: sequence)
    let number = snapshotNumber
    segment.append(payloadSize: size) { pointer in
      EventCoding.encode(draft, destinations: destinations, messageID: id, microseconds: microseconds, snapshot: number, into: pointer)
    }
    var remaining = destinations
    while remaining != 0 {
      let lane = remaining.trailingZeroBitCount
      remaining &= remaining - 1
      segment.counts[lane] += 1
      books[lane].statistics.accepted += 1
      books[lane].statistics.queued += 1
      if books[lane].sleeping && books[lane].unread >= books[lane].threshold { books[lane].wake.signal() }
    }
    if committerWaiting { commitNeeded.signal() }
    if !preparingSpare && spare == nil && spareAttemptedFor != segment.number {
      prepareSpare(after: segment)
    }
    guard waitsForCommit, !segment.isInMemory else { return }
    let mine = sequence
    while syncedSequence < mine && !stopped { committed.wait() }
  }

  private func count(_ destinations: UInt64, as reason: DropReason) {
    var remaining = destinations
    while remaining != 0 {
      let lane = remaining.trailingZeroBitCount
      remaining &= remaining - 1
      books[lane].statistics.accepted += 1
      books[lane].statistics.droppedByReason[reason, default: 0] += 1
    }
  }

  /// Seals the active segment and starts the next one: on disk when possible, else in memory (counted).
  /// Makes room first by dropping the oldest segments. Caller holds the lock.
  func roll() {
    if let sealed = active {
      sealed.sealed = true
      if !sealed.isInMemory { sealedToRelease.append(sealed) }
    }
    if let ready = spare {
      spare = nil
      segments.append(ready)
      active = ready
      if writeSnapshot(into: ready, number: 0) { return }
      // A snapshot larger than a segment (huge traits): stamp what can be, the identity without traits.
      snapshot = snapshot.with(identity: TrackingIdentity(anonymousID: snapshot.identity.anonymousID, userID: snapshot.identity.userID))
      _ = writeSnapshot(into: ready, number: 0)
      return
    }
    while totalBytes + segmentBytes > maximumBytes, let oldest = segments.first, oldest !== active {
      remove(oldest, countingAs: .journalFull)
    }
    // No spare (the disk is slow, or this is the first segment): the segment is made here, so the files
    // it makes room for go here too, first, and the disk never holds more than the maximum.
    deleteDiscardedLocked()
    let number = nextNumber
    nextNumber += 1
    var created: Segment?
    if let directory {
      do {
        created = try Segment.create(
          number: number, directory: directory, capacity: segmentBytes, destinationIDs: keys, laneCount: keys.count,
          syncDirectory: configuration.durability != .processDeath)
      } catch {
        journalStatistics.lastStorageError = error.description
        journalStatistics.memorySegments += 1
      }
    }
    if created == nil {
      created = try? Segment.create(
        number: number, directory: nil, capacity: segmentBytes, destinationIDs: keys, laneCount: keys.count, syncDirectory: false)
    }
    guard let segment = created else {
      active = nil
      return
    }
    segment.laneForTableIndex = Array(keys.indices)
    segments.append(segment)
    totalBytes += segment.capacity
    active = segment
    if !writeSnapshot(into: segment, number: 0) {
      snapshot = snapshot.with(identity: TrackingIdentity(anonymousID: snapshot.identity.anonymousID, userID: snapshot.identity.userID))
      _ = writeSnapshot(into: segment, number: 0)
    }
  }

  /// Reserves the next number and the bytes, and makes the segment file on a background thread, which
  /// then does what the tracking path left to `tidy` (the files of the segments dropped for room, the
  /// pages of the sealed one). Making the spare first has it ready sooner: on a disk mounted with
  /// `discard`, a file made just after others were deleted waits for the file system's journal to
  /// commit those deletions (tens of milliseconds, more than a burst takes to fill a segment). The disk
  /// then holds, for as long as the deletion takes, the segment dropped beside its replacement. A spare
  /// that arrives after the journal rolled over without it is deleted. Caller holds the lock.
  private func prepareSpare(after segment: Segment) {
    spareAttemptedFor = segment.number
    guard let directory, !segment.isInMemory, !stopped else { return }
    while totalBytes + segmentBytes > maximumBytes, let oldest = segments.first, oldest !== active {
      remove(oldest, countingAs: .journalFull)
    }
    let number = nextNumber
    nextNumber += 1
    preparingSpare = true
    totalBytes += segmentBytes
    let capacity = segmentBytes
    let syncDirectory = configuration.durability != .processDeath
    DispatchQueue.global(qos: .utility).async { [self, keys] in
      // Once stopped, the directory may be another tracker's: nothing is made or deleted in it.
      let working = beginFileWork()
      defer { if working { endFileWork() } }
      let made =
        working
        ? try? Segment.create(
          number: number, directory: directory, capacity: capacity, destinationIDs: keys, laneCount: keys.count,
          syncDirectory: syncDirectory, prefault: true) : nil
      monitor.withLock {
        preparingSpare = false
        if let made, !stopped, (active?.number ?? 0) < number {
          made.laneForTableIndex = Array(keys.indices)
          spare = made
        } else {
          totalBytes -= capacity
          if let path = made?.path { unlink(path) }
        }
      }
      if working {
        deleteDiscarded()
        releaseSealed()
      }
    }
  }

  /// Deletes a segment; what it held that a destination had not read yet is counted as dropped.
  func remove(_ segment: Segment, countingAs reason: DropReason) {
    for index in books.indices {
      let position = books[index].readPosition
      var unread = 0
      if position.segment < segment.number {
        unread = segment.counts[index]
      } else if position.segment == segment.number {
        unread = segment.counts[index] - books[index].consumedInReadSegment
      }
      if unread > 0 {
        books[index].statistics.droppedByReason[reason, default: 0] += unread
        books[index].statistics.queued -= unread
      }
      if position.segment <= segment.number {
        books[index].readPosition = JournalPosition(segment: segment.number + 1, offset: 0)
        books[index].consumedInReadSegment = 0
      }
    }
    discard(segment)
  }

  /// Takes a segment out; its file is deleted by `tidy` (or `deleteDiscardedLocked`). Caller holds the lock.
  func discard(_ segment: Segment) {
    segment.removed = true
    segments.removeAll { $0 === segment }
    totalBytes -= segment.capacity
    if segment.path != nil { discarded.append(segment) }
  }

  /// Deletes the files of the segments taken out, and gives back the pages of the sealed ones, outside
  /// the lock (as file work: `stop` waits for it).
  func tidy() {
    guard beginFileWork() else { return }
    defer { endFileWork() }
    deleteDiscarded()
    releaseSealed()
  }

  /// Within file work. The mappings go with the last references, on this thread.
  private func deleteDiscarded() {
    let gone = monitor.withLock {
      defer { discarded = [] }
      return discarded
    }
    for segment in gone { unlink(segment.path!) }
  }

  private func releaseSealed() {
    let sealed = monitor.withLock {
      defer { sealedToRelease = [] }
      return sealedToRelease
    }
    for segment in sealed where !segment.removed { segment.releaseResidentPages() }
  }

  /// The same deletions, with the lock held: where the caller is about to make a segment file itself.
  private func deleteDiscardedLocked() {
    if !stopped {
      for segment in discarded { unlink(segment.path!) }
    }
    discarded = []
  }
}
