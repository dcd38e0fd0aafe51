import Foundation
import Testing
import TrackcTestSupport

@_spi(Generated) @testable import TrackcRuntime

/// The journal on disk: events survive the tracker, damaged files give counted outcomes and never a
/// crash, the size limit drops the oldest (counted), and an unusable directory falls back to memory.
@Suite struct JournalTests {
  /// Never takes anything: events stay in the journal.
  final class UnreachableDestination: TrackingDestination, @unchecked Sendable {
    struct Offline: Error {}
    let id: String
    init(id: String) { self.id = id }
    func receive(_ event: TrackingEvent) throws { throw Offline() }
  }

  static let slowRetry = RetryPolicy(initial: 60, maximum: 60)

  /// Tracks `count` numbered events into a journal in `directory` whose destinations cannot deliver,
  /// then lets the tracker go (as a process that ends would).
  static func leaveUndelivered(_ count: Int, in directory: URL, ids: [String] = ["firebase"], maximumBytes: Int = 64 << 20) {
    let tracker = Tracker(
      registry: TestRegistry(), destinations: ids.map { UnreachableDestination(id: $0) },
      journal: JournalConfiguration(storage: .directory(directory), maximumBytes: maximumBytes), retry: slowRetry)
    for number in 0..<count { tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["n": .int(number)]) }
    #expect(tracker.statistics["firebase"]?.queued == count)
  }

  static func numbers(_ events: [TrackingEvent]) -> [Int] {
    events.compactMap { event in
      if case .int(let number)? = event.properties["n"] { return number }
      return nil
    }
  }

  static func reopen(_ directory: URL, _ destinations: [any TrackingDestination], maximumBytes: Int = 64 << 20) -> Tracker {
    Tracker(
      registry: TestRegistry(), destinations: destinations,
      journal: JournalConfiguration(storage: .directory(directory), maximumBytes: maximumBytes), retry: TrackerTests.quickRetry)
  }

  @Test func eventsSurviveTheTrackerAndAreDeliveredOnceInOrder() throws {
    let directory = try TemporaryDirectory()
    Self.leaveUndelivered(30, in: directory.url)
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = Self.reopen(directory.url, [firebase])
    tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["n": .int(30)])
    #expect(tracker.flush(timeout: TimeLimits.seconds(30)))
    #expect(Self.numbers(firebase.events) == Array(0...30), "recovered events first, then new ones")
    let statistics = try #require(tracker.statistics["firebase"])
    #expect(statistics.recovered == 30)
    #expect(statistics.accepted == 31)
    #expect(statistics.delivered == 31)
    #expect(statistics.balances)
    #expect(tracker.journalStatistics.storage == .disk)
    #expect(tracker.journalStatistics.recoveryFinished)
    #expect(Set(firebase.events.map(\.messageID)).count == 31)
    #expect(firebase.events.allSatisfy { $0.messageID.uuid.6 >> 4 == 7 }, "UUIDv7")
  }

  @Test func aDeliveredEventIsNotDeliveredAgain() throws {
    let directory = try TemporaryDirectory()
    do {
      let first = InMemoryDestination(id: "firebase")
      let tracker = Self.reopen(directory.url, [first])
      for number in 0..<10 { tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["n": .int(number)]) }
      #expect(tracker.flush())
      #expect(first.events.count == 10)
    }
    let second = InMemoryDestination(id: "firebase")
    let tracker = Self.reopen(directory.url, [second])
    #expect(tracker.flush())
    #expect(second.events.isEmpty)
    #expect(tracker.statistics["firebase"]?.recovered == 0)
  }

  /// Each destination has its own cursor: one that had delivered keeps its place.
  @Test func cursorsArePerDestination() throws {
    let directory = try TemporaryDirectory()
    do {
      let firebase = InMemoryDestination(id: "firebase")
      let tracker = Tracker(
        registry: TestRegistry(), destinations: [firebase, UnreachableDestination(id: "mixpanel")],
        journal: .directory(directory.url), retry: Self.slowRetry)
      for number in 0..<10 { tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["n": .int(number)]) }
      // Delivered and acknowledged (the cursor is written before the count moves).
      #expect(tracker.waitUntil(timeout: TrackerTests.patience) { tracker.statistics["firebase"]?.delivered == 10 }, "\(tracker.statistics)")
    }
    let firebase = InMemoryDestination(id: "firebase")
    let mixpanel = InMemoryDestination(id: "mixpanel")
    let tracker = Self.reopen(directory.url, [firebase, mixpanel])
    #expect(tracker.flush())
    #expect(firebase.events.isEmpty)
    #expect(Self.numbers(mixpanel.events) == Array(0..<10))
  }

  @Test func aTornLastRecordIsCutAndTheRestDelivered() throws {
    let directory = try TemporaryDirectory()
    Self.leaveUndelivered(10, in: directory.url)
    let file = try JournalFile(directory.url)
    // As if the process died in the middle of the last append: its length is there, half its payload not.
    let last = file.records.last!
    try file.overwrite(at: last.payload + last.length / 2, with: [UInt8](repeating: 0, count: last.length - last.length / 2))
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = Self.reopen(directory.url, [firebase])
    #expect(tracker.flush())
    #expect(Self.numbers(firebase.events) == Array(0..<9))
    #expect(tracker.journalStatistics.cutTails == 1)
    #expect(tracker.statistics["firebase"]?.balances == true)
  }

  /// A segment file cut short (a copy, a full disk) keeps the whole records it still holds, however
  /// short it is (the reader once required the header to fit in the file's first half: the `journal`
  /// fuzz target found a short file's only record quarantined).
  @Test func aSegmentCutShortKeepsItsWholeRecords() throws {
    let directory = try TemporaryDirectory()
    // A second destination (the event is not routed to it) with a long name makes the header longer than
    // the records that follow it.
    let longID = String(repeating: "d", count: 300)
    Self.leaveUndelivered(3, in: directory.url, ids: ["firebase", longID])
    let file = try JournalFile(directory.url)
    // The first record, then half of the second.
    let cut = file.records[1].payload + file.records[1].length / 2
    #expect(cut < 2 * file.records[0].offset)
    let handle = try FileHandle(forWritingTo: file.url)
    try handle.truncate(atOffset: UInt64(cut))
    try handle.close()
    let firebase = InMemoryDestination(id: "firebase")
    let other = InMemoryDestination(id: longID)
    let tracker = Self.reopen(directory.url, [firebase, other])
    #expect(tracker.flush())
    #expect(Self.numbers(firebase.events) == [0])
    #expect(tracker.journalStatistics.cutTails == 1)
    #expect(tracker.journalStatistics.quarantinedSegments == 0)
    #expect(tracker.statistics["firebase"]?.balances == true)
  }

  @Test func aCorruptRecordCutsItsSegmentThere() throws {
    let directory = try TemporaryDirectory()
    Self.leaveUndelivered(10, in: directory.url)
    let file = try JournalFile(directory.url)
    let fifth = file.records[5]
    try file.overwrite(at: fifth.payload + 3, with: [0xFF, 0xEE])
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = Self.reopen(directory.url, [firebase])
    #expect(tracker.flush())
    #expect(Self.numbers(firebase.events) == Array(0..<5))
    #expect(tracker.journalStatistics.cutTails == 1)
  }

  @Test func anUnreadableSegmentIsQuarantinedAndTheOthersDelivered() throws {
    let directory = try TemporaryDirectory()
    Self.leaveUndelivered(10, in: directory.url)
    let segments = directory.url.appendingPathComponent("segments")
    // An earlier segment whose header is garbage.
    try Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: segments.appendingPathComponent("00000000000000000000.seg"))
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = Self.reopen(directory.url, [firebase])
    #expect(tracker.flush())
    #expect(Self.numbers(firebase.events) == Array(0..<10))
    #expect(tracker.journalStatistics.quarantinedSegments == 1)
    let quarantined = try FileManager.default.contentsOfDirectory(atPath: directory.url.appendingPathComponent("quarantine").path)
    #expect(quarantined == ["00000000000000000000.seg"])
  }

  /// Whatever is in the directory, start-up neither crashes nor stops tracking.
  @Test func garbageInTheDirectoryNeverStopsTracking() throws {
    let directory = try TemporaryDirectory()
    Self.leaveUndelivered(5, in: directory.url)
    let segments = directory.url.appendingPathComponent("segments")
    let cursors = directory.url.appendingPathComponent("cursors")
    var generator = SeededGenerator(seed: 9)
    for size in [0, 1, 21, 63, 64, 100, 4096, 16_384, 70_001] {
      let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
      try Data(bytes).write(to: segments.appendingPathComponent(String(format: "000000000000000000%02d.seg", size % 97 + 2)))
    }
    // A valid header, then records that are garbage; a directory with a segment's name; a half-made segment.
    let file = try JournalFile(directory.url)
    var damaged = try Data(contentsOf: file.url)
    for index in file.records[1].offset..<min(damaged.count, file.records[1].offset + 200) {
      damaged[index] = UInt8.random(in: 0...255, using: &generator)
    }
    try damaged.write(to: file.url)
    try FileManager.default.createDirectory(at: segments.appendingPathComponent("00000000000000000099.seg"), withIntermediateDirectories: true)
    try Data([1, 2, 3]).write(to: segments.appendingPathComponent("00000000000000000100.seg.tmp"))
    // A FIFO (opening it must not block), a symbolic link to a device, and a number no journal reaches.
    #expect(mkfifo(segments.appendingPathComponent("00000000000000000101.seg").path, 0o600) == 0)
    try FileManager.default.createSymbolicLink(
      atPath: segments.appendingPathComponent("00000000000000000102.seg").path, withDestinationPath: "/dev/zero")
    try Data(count: 4096).write(to: segments.appendingPathComponent("18446744073709551615.seg"))
    for name in try FileManager.default.contentsOfDirectory(atPath: cursors.path) {
      try Data((0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: cursors.appendingPathComponent(name))
    }
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = Self.reopen(directory.url, [firebase])
    tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["n": .int(1000)])
    #expect(tracker.flush(timeout: TimeLimits.seconds(30)))
    let numbers = Self.numbers(firebase.events)
    #expect(numbers.first == 0, "the first record is intact")
    #expect(numbers.last == 1000, "new events are delivered")
    let health = tracker.journalStatistics
    #expect(health.storage == .disk)
    #expect(health.quarantinedSegments >= 11)
    #expect(!FileManager.default.fileExists(atPath: segments.appendingPathComponent("18446744073709551615.seg").path))
    #expect(health.cursorResets == 1)
    #expect(tracker.statistics["firebase"]?.balances == true)
    #expect(!FileManager.default.fileExists(atPath: segments.appendingPathComponent("00000000000000000100.seg.tmp").path))
  }

  /// The size limit: when the journal is full, the oldest segment goes, and what it held is counted.
  @Test func aTinySizeLimitDropsTheOldestAndCountsThem() throws {
    let directory = try TemporaryDirectory()
    let blocked = TrackerTests.BlockedDestination(id: "firebase")
    let limit = 64 * 1024
    let tracker = Self.reopen(directory.url, [blocked], maximumBytes: limit)
    let total = 3_000
    for number in 0..<total { tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["n": .int(number)]) }
    let full = try #require(tracker.statistics["firebase"])
    #expect(full.droppedByReason[.journalFull, default: 0] > 0)
    #expect(full.balances)
    #expect(tracker.journalStatistics.bytes <= limit)
    // A spare being made in the background may be renamed (or deleted) between the listing and the look;
    // the oldest segment's file goes just after its replacement is made (docs/runtime.md), so the disk
    // may hold that one segment (16 KiB here) more for a moment.
    let onDisk = try FileManager.default.contentsOfDirectory(atPath: directory.url.appendingPathComponent("segments").path)
      .compactMap { try? FileManager.default.attributesOfItem(atPath: directory.url.appendingPathComponent("segments/" + $0).path)[.size] as? Int }
    #expect(onDisk.reduce(0, +) <= limit + 16 * 1024)
    blocked.release.signal()
    #expect(tracker.flush(timeout: TimeLimits.seconds(30)))
    let statistics = try #require(tracker.statistics["firebase"])
    #expect(statistics.balances)
    #expect(statistics.queued == 0)
    #expect(statistics.delivered + statistics.dropped == total)
    let numbers = Self.numbers(blocked.inner.events)
    #expect(numbers.count == statistics.delivered)
    // What the lane had read before its events were dropped (the first in the destination's hands, the
    // next ones read ahead) is delivered; of the rest, the oldest are dropped, none in the middle: at most
    // two runs without a gap, the last ending with the last tracked. Where the first run starts depends on
    // when the lane first ran (from 0, or, on a loaded machine, after the oldest were already dropped).
    let gap = numbers.indices.dropFirst().first { numbers[$0] != numbers[$0 - 1] + 1 } ?? numbers.endIndex
    let (read, kept) = gap == numbers.endIndex ? ([], numbers) : (Array(numbers[..<gap]), Array(numbers[gap...]))
    #expect(!kept.isEmpty && kept == Array((total - kept.count)..<total), "the oldest dropped, none in the middle: \(kept.prefix(5))...")
    #expect(read.isEmpty || read.last! < kept.first!, "read ahead \(read.prefix(5))... before \(kept.prefix(5))...")
  }

  @Test func anEventLargerThanASegmentIsDroppedAndCounted() throws {
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = Tracker(
      registry: TestRegistry(), destinations: [firebase],
      journal: JournalConfiguration(storage: .memory, maximumBytes: 64 * 1024))
    tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["blob": .string(String(repeating: "x", count: 40_000))])
    tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["n": .int(1)])
    #expect(tracker.flush())
    let statistics = try #require(tracker.statistics["firebase"])
    #expect(statistics.droppedByReason == [.tooLarge: 1])
    #expect(statistics.delivered == 1)
    #expect(statistics.balances)
  }

  /// A directory that cannot be written: track() keeps working, in memory, and says why.
  @Test func aReadOnlyDirectoryFallsBackToMemory() throws {
    let directory = try TemporaryDirectory()
    let journal = directory.url.appendingPathComponent("journal")
    try FileManager.default.createDirectory(at: journal, withIntermediateDirectories: true)
    try ReadOnly.make(journal)
    defer { try? ReadOnly.undo(journal) }
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = Self.reopen(journal, [firebase])
    for number in 0..<5 { tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["n": .int(number)]) }
    #expect(tracker.flush())
    #expect(Self.numbers(firebase.events) == Array(0..<5))
    guard case .memory(let reason) = tracker.journalStatistics.storage else {
      Issue.record("expected memory, got \(tracker.journalStatistics.storage)")
      return
    }
    #expect(reason.contains("cannot create") || reason.contains("not writable"), "\(reason)")
    #expect(tracker.statistics["firebase"]?.balances == true)
  }

  @Test func aPathThatIsAFileFallsBackToMemory() throws {
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("plain-file")
    try Data("x".utf8).write(to: file)
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = Self.reopen(file, [firebase])
    tracker.track(TestRegistry.EventID.ctrlHomeFav)
    #expect(tracker.flush())
    #expect(firebase.events.count == 1)
    #expect(tracker.journalStatistics.storage != .disk)
  }

  /// Two trackers on one directory would corrupt each other's cursors: the second gets memory.
  @Test func aDirectoryInUseFallsBackToMemory() throws {
    let directory = try TemporaryDirectory()
    let first = Self.reopen(directory.url, [InMemoryDestination(id: "firebase")])
    let second = Self.reopen(directory.url, [InMemoryDestination(id: "firebase")])
    #expect(first.journalStatistics.storage == .disk)
    #expect(second.journalStatistics.storage == .memory(reason: "in use by another tracker"))
  }

  /// Needs a tmpfs mount (root); not run elsewhere, but under `CI=true` always: there a machine that
  /// cannot mount one fails it, saying why.
  @Test(.enabled(if: TinyFileSystem.available || TestTool.isCI, "needs a tmpfs mount (root)"))
  func aFullDiskSendsNewSegmentsToMemoryAndCountsThem() throws {
    try #require(TinyFileSystem.available, "CI=true: this test needs a tmpfs mount of its own, which needs root")
    let disk = try TinyFileSystem(bytes: 256 * 1024)
    defer { disk.unmount() }
    let firebase = TrackerTests.BlockedDestination(id: "firebase")
    // The limit is larger than the disk: segments fail to be created and go to memory.
    let tracker = Self.reopen(disk.url, [firebase], maximumBytes: 2 << 20)
    let total = 20_000
    for number in 0..<total { tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["n": .int(number)]) }
    let health = tracker.journalStatistics
    #expect(health.memorySegments > 0)
    #expect(health.lastStorageError?.contains("No space left") == true, "\(health.lastStorageError ?? "-")")
    firebase.release.signal()
    #expect(tracker.flush(timeout: TimeLimits.seconds(30)))
    #expect(Self.numbers(firebase.inner.events) == Array(0..<total))
    #expect(tracker.statistics["firebase"]?.balances == true)
  }

  /// The power-loss setting: track() returns after a flush; everything is delivered as usual.
  @Test func powerLossDurabilityDeliversEverything() throws {
    let directory = try TemporaryDirectory()
    let firebase = InMemoryDestination(id: "firebase")
    let tracker = Tracker(
      registry: TestRegistry(), destinations: [firebase],
      journal: JournalConfiguration(storage: .directory(directory.url), durability: .powerLoss(groupCommitInterval: 0.001)))
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for number in 0..<50 { tracker.track(TestRegistry.EventID.ctrlHomeFav, properties: ["n": .int(thread * 100 + number)]) }
    }
    #expect(tracker.flush())
    let tracked: [Int] = (0..<4).flatMap { thread in (0..<50).map { number in thread * 100 + number } }
    #expect(Self.numbers(firebase.events).sorted() == tracked, "each once")
  }
}

/// A directory removed when the value goes.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("trackc-test-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }
}

/// The segment file of a journal directory, read the way the journal lays it out, to damage on purpose.
struct JournalFile {
  struct Record {
    let offset: Int
    let length: Int
    var payload: Int { offset + 8 }
  }

  let url: URL
  /// The event records (the snapshot records, identity and context, are left out).
  let records: [Record]

  /// The journal's only (or oldest) segment.
  init(_ directory: URL) throws {
    let segments = directory.appendingPathComponent("segments")
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: segments.path).filter { $0.hasSuffix(".seg") }.sorted().first)
    url = segments.appendingPathComponent(name)
    let bytes = [UInt8](try Data(contentsOf: url))
    let headerLength = Int(bytes[6]) | Int(bytes[7]) << 8
    var offset = (headerLength + 7) & ~7
    var records: [Record] = []
    while offset + 8 <= bytes.count {
      let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
      if length == 0 { break }
      let isSnapshot = offset + 17 <= bytes.count && bytes[(offset + 8)..<(offset + 16)].allSatisfy { $0 == 0 } && bytes[offset + 16] == 0xA5
      if !isSnapshot { records.append(Record(offset: offset, length: length)) }
      offset += 8 + length
    }
    self.records = records
  }

  func overwrite(at offset: Int, with bytes: [UInt8]) throws {
    let handle = try FileHandle(forWritingTo: url)
    try handle.seek(toOffset: UInt64(offset))
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
  }
}

/// Makes a directory unwritable even for root (tests run as root on CI): permissions, then `chattr +i`
/// where the file system allows it, else a read-only tmpfs mounted on it.
enum ReadOnly {
  static func make(_ url: URL) throws {
    try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: url.path)
    guard getuid() == 0 else { return }
    if (try? run("/usr/bin/chattr", ["+i", url.path])) == nil {
      try run("/bin/mount", ["-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", url.path])
    }
  }

  static func undo(_ url: URL) throws {
    if getuid() == 0 {
      if (try? run("/usr/bin/chattr", ["-i", url.path])) == nil { try? run("/bin/umount", [url.path]) }
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
  }

  static func run(_ tool: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    if process.terminationStatus != 0 { throw CocoaError(.fileWriteNoPermission) }
  }
}

/// A tmpfs of a few hundred KiB, for a real `ENOSPC`.
final class TinyFileSystem {
  let url: URL
  private let mountPoint: TemporaryDirectory

  static let available: Bool = {
    guard getuid() == 0, let probe = try? TinyFileSystem(bytes: 64 * 1024) else { return false }
    probe.unmount()
    return true
  }()

  init(bytes: Int) throws {
    mountPoint = try TemporaryDirectory()
    try ReadOnly.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", mountPoint.url.path])
    url = mountPoint.url.appendingPathComponent("journal")
  }

  func unmount() {
    try? ReadOnly.run("/bin/umount", [mountPoint.url.path])
  }
}

/// A deterministic random number generator (SplitMix64), so that a failing garbage test can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
