import Foundation

/// Where and how the tracker journals events before delivering them.
///
/// Every accepted event is appended once to the journal (however many destinations it goes to), and
/// each destination delivers from it at its own pace, from a cursor of its own.
public struct JournalConfiguration: Sendable {
  public enum Storage: Sendable, Hashable {
    /// Nothing survives the process: tests, previews, and the fallback when the disk cannot be used.
    case memory
    /// Segment files, cursors and a lock in this directory (created if missing). One tracker at a time
    /// may use a directory; a second one gets memory (counted in `JournalStatistics`).
    case directory(URL)
  }

  public var storage: Storage
  /// The most the journal keeps (files, or memory). When a new segment would pass it, the oldest
  /// segment is deleted and the events in it that some destination had not delivered are counted,
  /// per destination, as dropped for `journalFull`. At least two segments.
  public var maximumBytes: Int
  /// The size of one segment file (at most a quarter of `maximumBytes`). An event larger than a
  /// segment can hold is dropped and counted (`tooLarge`).
  public var segmentBytes: Int
  public var durability: Durability

  public init(
    storage: Storage, maximumBytes: Int = Defaults.journalBytes, segmentBytes: Int = Defaults.segmentBytes, durability: Durability = .processDeath
  ) {
    self.storage = storage
    self.maximumBytes = maximumBytes
    self.segmentBytes = segmentBytes
    self.durability = durability
  }

  public static let inMemory = JournalConfiguration(storage: .memory)

  public static func directory(_ url: URL, maximumBytes: Int = Defaults.journalBytes, durability: Durability = .processDeath) -> JournalConfiguration
  {
    JournalConfiguration(storage: .directory(url), maximumBytes: maximumBytes, durability: durability)
  }

  /// `Library/Application Support/<name>` of the app's container (excluded from nothing: back-ups never
  /// see it for long, because delivered segments are deleted); on Linux `$XDG_DATA_HOME/<name>`, else
  /// `~/.local/share/<name>`. The default journal of `Trackc.start`.
  public static func applicationSupport(name: String = Defaults.journalFolder, durability: Durability = .processDeath) -> JournalConfiguration {
    .directory(applicationSupportDirectory.appendingPathComponent(name, isDirectory: true), durability: durability)
  }

  static var applicationSupportDirectory: URL {
    #if canImport(Darwin)
      return FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
        ?? URL(fileURLWithPath: NSTemporaryDirectory())
    #else
      let environment = ProcessInfo.processInfo.environment
      if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return URL(fileURLWithPath: data, isDirectory: true) }
      return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
    #endif
  }

  /// The journal's directory, when it has one.
  var directory: URL? {
    if case .directory(let url) = storage { return url }
    return nil
  }

  /// The segment size actually used: at most a quarter of the maximum, at least 16 KiB.
  var effectiveSegmentBytes: Int {
    let page = 4096
    let quarter = max(16 * 1024, maximumBytes / 4)
    return max(16 * 1024, min(segmentBytes, quarter)) / page * page
  }

  var effectiveMaximumBytes: Int { max(maximumBytes, 2 * effectiveSegmentBytes) }
}

/// What an event tracked is safe against when `track()` returns.
public enum Durability: Sendable, Hashable {
  /// The default. The record is in a shared file mapping when `track()` returns, so it survives the
  /// death of the process (kill -9, a crash, the system killing the app): the kernel owns the page and
  /// writes it back. Power loss or a kernel panic loses what the kernel had not written back yet
  /// (on Linux, dirty pages older than about 30 seconds are written back; iOS behaves alike).
  case processDeath
  /// As `processDeath`, and a background thread flushes new records to the disk (`msync`) every
  /// `interval` seconds: power loss loses at most the last `interval` plus the time a flush takes.
  /// `track()` never waits for the disk.
  case periodicSync(interval: TimeInterval)
  /// `track()` returns only once a flush (`msync`) covering its record has finished: the event
  /// survives power loss. Flushes are group commits: the committer waits `groupCommitInterval` after
  /// the first waiting event, then flushes everything appended by all threads in one go, so the cost
  /// per event falls as more threads track. Each `track()` then takes about the interval plus one
  /// flush: do not track on the main thread with this setting. Segment creation also syncs the
  /// directory. Events that went to memory (the disk failing) do not wait and are not power-loss safe.
  case powerLoss(groupCommitInterval: TimeInterval)
}

/// Why events were dropped (per destination, in `DestinationStatistics.droppedByReason`).
public struct DropReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public var description: String { rawValue }

  /// The destination's `isApplicable(to:)` declined the event (not an error).
  public static let notApplicable = DropReason(rawValue: "notApplicable")
  /// The journal reached its maximum size and deleted its oldest segment.
  public static let journalFull = DropReason(rawValue: "journalFull")
  /// Larger than a journal segment can hold, or a single event the collector answered 413.
  public static let tooLarge = DropReason(rawValue: "tooLarge")
  /// A single event the collector answered 400.
  public static let rejected = DropReason(rawValue: "rejected")
  /// A journal record whose checksum held but that did not decode (written by a newer version).
  public static let undecodable = DropReason(rawValue: "undecodable")
  /// Neither the disk nor memory could take the event.
  public static let storageUnavailable = DropReason(rawValue: "storageUnavailable")
  /// The consent category that gates the destination was revoked after the event was tracked
  /// (`Tracker.setConsent`): it is never sent, even if the category is granted again.
  public static let consentRevoked = DropReason(rawValue: "consentRevoked")
  /// The event waited for the first answer about a pending consent category (`default: pending`), and
  /// the answer was no.
  public static let consentDenied = DropReason(rawValue: "consentDenied")
  /// The event waited for a pending consent category past the plan's limits (`privacy.pending`: how many
  /// events, how long), and had no other destination to go to.
  public static let consentPendingLimit = DropReason(rawValue: "consentPendingLimit")
}

/// What happened to the events routed to one destination. The books always balance:
/// `accepted == delivered + dropped + queued` (`balances`).
public struct DestinationStatistics: Sendable, Hashable {
  /// Routed to the destination: tracked in this process, plus those found in the journal at start.
  public var accepted = 0
  /// Of `accepted`, those found in the journal at start (tracked by an earlier process).
  public var recovered = 0
  public var delivered = 0
  public var droppedByReason: [DropReason: Int] = [:]
  /// Waiting in the journal, or being delivered.
  public var queued = 0
  /// Deliveries that failed and will be retried (a destination that threw, an upload that failed), in
  /// all and by reason (`RetryReason`: a redirect, a 5xx, a network error...).
  public var failedAttempts = 0
  public var failuresByReason: [RetryReason: Int] = [:]

  public init() {}

  public var dropped: Int { droppedByReason.values.reduce(0, +) }
  public var notApplicable: Int { droppedByReason[.notApplicable] ?? 0 }
  public var balances: Bool { accepted == delivered + dropped + queued }
}

/// The journal's own health.
public struct JournalStatistics: Sendable, Hashable {
  public enum Storage: Sendable, Hashable {
    case disk
    /// The journal could not use its directory (read-only, in use by another tracker...): everything goes
    /// to memory, delivered while the process lives.
    case memory(reason: String)
  }

  public var storage: Storage = .disk
  public var segments = 0
  public var bytes = 0
  /// Segments from an earlier process that could not be read (bad header): moved to `quarantine/`.
  public var quarantinedSegments = 0
  /// Segments of earlier processes whose records ended in a torn or corrupt record rather than zeros
  /// (a process killed in the middle of an append, or damage): cut at the last good record.
  public var cutTails = 0
  /// Segments that went to memory because the disk failed when they were created (full, say).
  public var memorySegments = 0
  public var lastStorageError: String?
  /// Cursors that could not be read and restarted at the oldest segment (duplicates, never loss).
  public var cursorResets = 0
  /// Whether the segments of earlier processes have been validated (delivery starts then).
  public var recoveryFinished = false

  public init() {}
}
