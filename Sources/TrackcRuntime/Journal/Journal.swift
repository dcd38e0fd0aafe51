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
  let progress: Monitor.Condition
  let committed: Monitor.Condition
  let commitNeeded: Monitor.Condition
  /// Broadcast when the last file work under way ends (`endFileWork`): what `stop` waits for.
  private let fileWorkDone: Monitor.Condition
  let segmentBytes: Int
  let maximumBytes: Int
  let maximumPayload: Int
  let ids = MessageIDGenerator()
  let waitsForCommit: Bool
  /// What identifies the events of the segments of version 1 (written before snapshots existed): the
  /// snapshot in force when this journal opened.
  let firstSnapshot: EventSnapshot

  // Guarded by `monitor`.
  var books: [Book]
  var segments: [Segment] = []
  var active: Segment?
  var directory: String?
  var nextNumber: UInt64 = 1
  var sequence: UInt64 = 0
  var syncedSequence: UInt64 = 0
  var committerWaiting = false
  var totalBytes = 0
  var recovered = false
  var stopped = false
  var journalStatistics = JournalStatistics()
  /// Counts the changes `noteChange` announced, so that `waitUntil` misses none between two looks.
  var changes: UInt64 = 0
  /// The next segment, made ahead by a background thread as soon as the active one takes its first
  /// record, so that rolling over costs the tracking thread no file creation and no page faults (its
  /// pages are faulted in there), even in a burst that fills a segment in milliseconds. Its bytes count
  /// towards the maximum from the moment it is reserved.
  var spare: Segment?
  var preparingSpare = false
  /// The active segment a spare was last attempted for (one attempt per segment: a failing disk is
  /// retried when the journal next rolls over, not on every append).
  var spareAttemptedFor: UInt64?
  private var lockDescriptor: Int32 = -1
  /// Segments taken out of the journal (delivered, or dropped for room) whose files are still to be
  /// deleted, and sealed segments whose resident pages are still to be given back: done outside the
  /// lock (`tidy`), so that no thread holds it through a file system call that can take milliseconds
  /// (deleting a file on a disk mounted with `discard`): the lane that took them out, or, for what the
  /// tracking path left, the background work that makes the next spare.
  var discarded: [Segment] = []
  var sealedToRelease: [Segment] = []
  /// File work under way off the lock (`tidy`, making the spare): `stop` waits for none before it lets
  /// the directory go, and none starts once stopped, so that no file is made or deleted once another
  /// tracker may have the directory.
  private var fileWork = 0
  /// The identity and context stamped on what is appended now, and its number in the active segment
  /// (where it is the last snapshot record).
  var snapshot: EventSnapshot
  var snapshotNumber = 0

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
  func beginFileWork() -> Bool {
    monitor.withLock {
      guard !stopped else { return false }
      fileWork += 1
      return true
    }
  }

  func endFileWork() {
    monitor.withLock {
      fileWork -= 1
      if fileWork == 0 { fileWorkDone.broadcast() }
    }
  }
}
