import Foundation

/// The durable journal: one append-only log of framed records in segment files, with a cursor per
/// destination. `track()` appends (a lock, an encode into mapped memory, a checksum); each delivery
/// lane reads after its cursor and advances it once its batch is delivered or dropped; a segment is
/// deleted once every cursor has passed it.
///
/// Start-up does little on the caller's thread: it creates the directories, takes the lock file, lists
/// the segment names, reads the cursors and opens a fresh segment, so appends start at once. A
/// background thread then validates the segments left by earlier processes (a torn or corrupt tail is
/// cut at the last good record, a segment that cannot be read is quarantined), counts what each
/// destination still has to deliver, and only then lets the lanes read, oldest first.
///
/// Every count in `DestinationStatistics` changes under the one lock, so the books balance at any moment.
final class Journal: @unchecked Sendable {
  /// A destination's state in the journal. Guarded by `monitor`.
  struct Book {
    let key: String
    var cursor = JournalPosition.start
    var readPosition = JournalPosition.start
    /// Records of this destination before `readPosition` in its segment (to count a dropped segment).
    var consumedInReadSegment = 0
    var inFlight = 0
    var statistics = DestinationStatistics()
    var cursorFile: CursorFile?
    let wake: Monitor.Condition
    var sleeping = false
    var threshold = 1
    var uploadRequested = false
    /// A backoff to cut short (`interruptPause`): consent was revoked, and what waits must be looked at again.
    var interrupted = false

    var unread: Int { statistics.queued - inFlight }
  }

  /// Events read for one destination, and where the read ended.
  struct Batch {
    var events: [TrackingEvent] = []
    /// Each event's payload size in the journal (for byte limits).
    var sizes: [Int] = []
    var end: JournalPosition
  }

  let configuration: JournalConfiguration
  let keys: [String]
  let monitor = Monitor()
  /// Broadcast at every change the delivery side makes (`noteChange`): what `waitUntilDelivered` and
  /// `waitUntil` wait on.
  private let progress: Monitor.Condition
  private let committed: Monitor.Condition
  private let commitNeeded: Monitor.Condition
  /// Broadcast when the last file work under way ends (`endFileWork`): what `stop` waits for.
  private let fileWorkDone: Monitor.Condition
  private let segmentBytes: Int
  private let maximumBytes: Int
  private let maximumPayload: Int
  private let ids = MessageIDGenerator()
  private let waitsForCommit: Bool
  /// What identifies the events of the segments of version 1 (written before snapshots existed): the
  /// snapshot in force when this journal opened.
  private let firstSnapshot: EventSnapshot

  // Guarded by `monitor`.
  private var books: [Book]
  private var segments: [Segment] = []
  private var active: Segment?
  private var directory: String?
  private var nextNumber: UInt64 = 1
  private var sequence: UInt64 = 0
  private var syncedSequence: UInt64 = 0
  private var committerWaiting = false
  private var totalBytes = 0
  private var recovered = false
  private var stopped = false
  private var journalStatistics = JournalStatistics()
  /// Counts the changes `noteChange` announced, so that `waitUntil` misses none between two looks.
  private var changes: UInt64 = 0
  /// The next segment, made ahead by a background thread as soon as the active one takes its first
  /// record, so that rolling over costs the tracking thread no file creation and no page faults (its
  /// pages are faulted in there), even in a burst that fills a segment in milliseconds. Its bytes count
  /// towards the maximum from the moment it is reserved.
  private var spare: Segment?
  private var preparingSpare = false
  /// The active segment a spare was last attempted for (one attempt per segment: a failing disk is
  /// retried when the journal next rolls over, not on every append).
  private var spareAttemptedFor: UInt64?
  private var lockDescriptor: Int32 = -1
  /// Segments taken out of the journal (delivered, or dropped for room) whose files are still to be
  /// deleted, and sealed segments whose resident pages are still to be given back: done outside the
  /// lock (`tidy`), so that no thread holds it through a file system call that can take milliseconds
  /// (deleting a file on a disk mounted with `discard`): the lane that took them out, or, for what the
  /// tracking path left, the background work that makes the next spare.
  private var discarded: [Segment] = []
  private var sealedToRelease: [Segment] = []
  /// File work under way off the lock (`tidy`, making the spare): `stop` waits for none before it lets
  /// the directory go, and none starts once stopped, so that no file is made or deleted once another
  /// tracker may have the directory.
  private var fileWork = 0
  /// The identity and context stamped on what is appended now, and its number in the active segment
  /// (where it is the last snapshot record).
  private var snapshot: EventSnapshot
  private var snapshotNumber = 0

  init(configuration: JournalConfiguration, keys: [String], snapshot: EventSnapshot) {
    self.configuration = configuration
    self.keys = keys
    self.snapshot = snapshot
    firstSnapshot = snapshot
    segmentBytes = configuration.effectiveSegmentBytes
    maximumBytes = configuration.effectiveMaximumBytes
    maximumPayload = min(1 << 20, Segment.maximumPayload(capacity: configuration.effectiveSegmentBytes, destinationIDs: keys))
    let monitor = self.monitor
    progress = Monitor.Condition(monitor)
    fileWorkDone = Monitor.Condition(monitor)
    committed = Monitor.Condition(monitor)
    commitNeeded = Monitor.Condition(monitor)
    books = keys.map { Book(key: $0, wake: Monitor.Condition(monitor)) }
    if case .powerLoss = configuration.durability { waitsForCommit = true } else { waitsForCommit = false }

    var pending: [(UInt64, String)] = []
    if case .directory(let url) = configuration.storage {
      switch Self.prepare(url.path, keys: keys) {
      case .success(let prepared):
        directory = prepared.segments
        lockDescriptor = prepared.lock
        pending = prepared.existing
        nextNumber = (pending.last?.0 ?? 0) + 1
        for index in books.indices {
          let file = CursorFile.open(directory: prepared.cursors, key: keys[index], syncs: false)
          books[index].cursorFile = file
          switch file?.read() ?? .none {
          case .position(let position) where position.segment < nextNumber:
            books[index].cursor = position
          case .position, .unreadable:
            journalStatistics.cursorResets += 1
          case .none: break
          }
          books[index].readPosition = books[index].cursor
        }
      case .failure(let reason):
        journalStatistics.storage = .memory(reason: reason.description)
        journalStatistics.lastStorageError = reason.description
      }
    } else {
      journalStatistics.storage = .memory(reason: "configured")
    }
    monitor.withLock { roll() }
    if pending.isEmpty {
      recovered = true
      journalStatistics.recoveryFinished = true
    } else {
      let segmentsToRecover = pending
      let thread = Thread { [self] in recover(segmentsToRecover) }
      thread.name = "trackc journal recovery"
      thread.start()
    }
    if configuration.durability != .processDeath && directory != nil {
      let thread = Thread { [self] in commitLoop() }
      thread.name = "trackc journal committer"
      thread.start()
    }
  }

  deinit {
    if lockDescriptor >= 0 {
      for segment in discarded { unlink(segment.path!) }
      close(lockDescriptor)
    }
  }

  /// Stops the lanes and the committer, and lets the directory go (another tracker may open it now;
  /// what was delivered but not yet acknowledged is delivered again: at least once).
  func stop() {
    let (descriptor, gone) = monitor.withLock {
      stopped = true
      for book in books { book.wake.broadcast() }
      noteChange()
      commitNeeded.broadcast()
      committed.broadcast()
      while fileWork > 0 { fileWorkDone.wait() }
      let descriptor = lockDescriptor
      lockDescriptor = -1
      let gone = descriptor >= 0 ? discarded : []
      discarded = []
      return (descriptor, gone)
    }
    // The files taken out and not yet deleted go while the directory is still this journal's.
    for segment in gone { unlink(segment.path!) }
    if descriptor >= 0 { close(descriptor) }
  }

  /// Starts file work off the lock; false once stopped (then there is none to do).
  private func beginFileWork() -> Bool {
    monitor.withLock {
      guard !stopped else { return false }
      fileWork += 1
      return true
    }
  }

  private func endFileWork() {
    monitor.withLock {
      fileWork -= 1
      if fileWork == 0 { fileWorkDone.broadcast() }
    }
  }

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
  private func roll() {
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
  private func remove(_ segment: Segment, countingAs reason: DropReason) {
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
  private func discard(_ segment: Segment) {
    segment.removed = true
    segments.removeAll { $0 === segment }
    totalBytes -= segment.capacity
    if segment.path != nil { discarded.append(segment) }
  }

  /// Deletes the files of the segments taken out, and gives back the pages of the sealed ones, outside
  /// the lock (as file work: `stop` waits for it).
  private func tidy() {
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

  private func everyCursorHasPassed(_ segment: Segment) -> Bool {
    books.allSatisfy { book in
      book.statistics.queued == 0 || book.cursor.segment > segment.number
        || (book.cursor.segment == segment.number && book.cursor.offset >= segment.end)
    }
  }

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
  private func noteChange() {
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

  // MARK: Start-up

  private struct Prepared {
    var segments: String
    var cursors: String
    var lock: Int32
    var existing: [(UInt64, String)]
  }

  /// Creates the directories, takes the lock, removes half-made segments and lists the others.
  private static func prepare(_ root: String, keys: [String]) -> Result<Prepared, PrepareFailure> {
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
  private func recover(_ pending: [(UInt64, String)]) {
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

  // MARK: Power-loss settings

  /// Flushes what was appended to the disk: every `interval` (periodic), or `groupCommitInterval`
  /// after the first `track()` starts waiting (power loss), waking every waiter at once.
  private func commitLoop() {
    let interval: TimeInterval
    switch configuration.durability {
    case .processDeath: return
    case .periodicSync(let every): interval = max(0.0001, every)
    case .powerLoss(let window): interval = max(0, window)
    }
    while true {
      monitor.lock()
      while !stopped && syncedSequence == sequence {
        committerWaiting = true
        commitNeeded.wait(until: Date(timeIntervalSinceNow: 1))
        committerWaiting = false
      }
      if stopped {
        monitor.unlock()
        return
      }
      monitor.unlock()
      if interval > 0 { Thread.sleep(forTimeInterval: interval) }
      monitor.lock()
      let target = sequence
      let dirty = segments.filter { !$0.isInMemory && $0.syncedEnd < $0.end }.map { ($0, $0.syncedEnd, $0.end) }
      monitor.unlock()
      for (segment, from, to) in dirty { segment.sync(from: from, to: to) }
      monitor.lock()
      for (segment, _, to) in dirty where segment.syncedEnd < to { segment.syncedEnd = to }
      syncedSequence = target
      committed.broadcast()
      monitor.unlock()
    }
  }
}
