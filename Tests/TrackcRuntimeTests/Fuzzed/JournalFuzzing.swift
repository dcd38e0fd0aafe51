// Shared with the `journal` fuzz target (Fuzz/Sources/fuzz-journal links this file): self-contained,
// TrackcRuntime and Foundation only. Internal to the runtime (the segment writer, the record checksum),
// hence `@testable`: the tests and the fuzz build both compile the runtime for testing.
import Foundation

@_spi(Generated) @testable import TrackcRuntime

/// The journal's recovery reader, fed arbitrary bytes as the files an earlier process left: a segment
/// (and a cursor), in a fresh directory that a tracker then opens and drains.
///
/// A fuzzer cannot forge a segment header's CRC-32 or a record's checksum, so by default the input is
/// the records after a header written by the journal's own writer, and the harness fixes each record's
/// checksum (the framing stays the fuzzer's): that reaches the event decoder behind the checksums.
///
/// Input: a flags byte, then (flag `cursor`) 16 bytes of a cursor position written by the journal's own
/// cursor writer, or (flag `rawCursor`) 64 bytes of cursor file, then the segment bytes (records of the
/// current version, whose events refer to snapshot records, or with flag `version1` of the first).
///
/// Laws: never a trap; every destination's books balance (`accepted == delivered + dropped + queued`),
/// and once drained nothing is queued; what was recovered is what was delivered plus what did not decode;
/// without a cursor, each destination recovers exactly the checksummed records routed to it; every
/// event delivered survives being encoded and decoded again; a segment whose header cannot be read is
/// quarantined and counted, one that can never is; a tail that is not zeros is cut and counted, a clean
/// one never is; and the directory goes away afterwards.
public enum JournalFuzzing {
  struct Flags: OptionSet {
    let rawValue: UInt8
    /// The segment bytes are the whole file, header included (reaches the header reader and quarantine).
    static let raw = Flags(rawValue: 1)
    /// A cursor for the first destination, at a fuzzed position, written by the real writer.
    static let cursor = Flags(rawValue: 2)
    /// 64 bytes of cursor file as they are (a fuzzer cannot forge their CRC-32: read as unreadable).
    static let rawCursor = Flags(rawValue: 4)
    /// The header names the destinations in another order, and one the tracker does not have.
    static let shuffledDestinations = Flags(rawValue: 8)
    /// The file ends where the input does, rather than being zero-filled to the segment's size.
    static let truncated = Flags(rawValue: 16)
    /// The header says version 1 (an earlier release's segment: records without snapshots).
    static let version1 = Flags(rawValue: 32)
  }

  /// The tracker's destinations.
  static let destinationIDs = ["firebase", "mixpanel"]
  static let segmentNumber: UInt64 = 1
  static let segmentBytes = 16 * 1024

  /// An empty plan: the tracker here only recovers and delivers.
  struct NoRules: TrackingRegistry {
    func screen(named name: String) -> ScreenID? { nil }
    func handler(named name: String) -> HandlerID? { nil }
    func pageRule(screen: ScreenID, phase: PagePhase) -> EventRule? { nil }
    func controlRule(screen: ScreenID, handler: HandlerID) -> EventRule? { nil }
    func rule(eventID: String) -> EventRule? { nil }
    func name(of screen: ScreenID) -> String { "" }
    func name(of handler: HandlerID) -> String { "" }
  }

  /// What the harness wrote, and so what recovery must find.
  struct Written {
    /// The header is the journal's own (not raw bytes), and the file is long enough to hold it.
    var headerIsValid: Bool
    /// Per destination of the tracker, the checksummed records routed to it (nil when a cursor may skip some).
    var routed: [Int]?
    /// Bytes other than zeros follow the last good record.
    var dirtyTail: Bool
  }

  public static func violations(_ bytes: [UInt8]) -> [String] {
    guard let root = makeDirectory() else { return ["cannot make a temporary directory"] }
    var violations: [String] = []
    do {
      let written = try write(bytes, into: root)
      violations = drain(root, written)
    } catch {
      violations.append("cannot write the journal: \(error)")
    }
    try? FileManager.default.removeItem(atPath: root)
    if FileManager.default.fileExists(atPath: root) { violations.append("the temporary directory \(root) is still there") }
    return violations
  }

  static func makeDirectory() -> String? {
    var template = Array((NSTemporaryDirectory() + "/trackc-journal-fuzz-XXXXXX").utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer in
      mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
    }
  }

  struct WriteFailure: Error { let reason: String }

  /// Lays the input out as the journal directory of an earlier process.
  static func write(_ input: [UInt8], into root: String) throws -> Written {
    var rest = input[...]
    let flags = Flags(rawValue: rest.popFirst() ?? 0)
    let segments = root + "/segments"
    let cursors = root + "/cursors"
    for directory in [segments, cursors] where mkdir(directory, 0o700) != 0 { throw WriteFailure(reason: "mkdir \(directory)") }
    let cursorFile = cursors + "/" + CursorFile.fileName(for: destinationIDs[0])
    var hasCursor = false
    if flags.contains(.cursor) {
      let position = Array(rest.prefix(16)) + [UInt8](repeating: 0, count: max(0, 16 - rest.count))
      rest = rest.dropFirst(16)
      let segment = position[0..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      let offset = position[8..<16].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      guard let file = CursorFile.open(directory: cursors, key: destinationIDs[0], syncs: false),
        file.write(JournalPosition(segment: segment % 4, offset: Int(offset % (1 << 31))))
      else { throw WriteFailure(reason: "cursor") }
      hasCursor = true
    } else if flags.contains(.rawCursor) {
      try Data(rest.prefix(64)).write(to: URL(fileURLWithPath: cursorFile))
      rest = rest.dropFirst(64)
      hasCursor = true
    }
    let path = segments + "/" + Segment.fileName(segmentNumber)
    if flags.contains(.raw) {
      try Data(rest).write(to: URL(fileURLWithPath: path))
      return Written(headerIsValid: false, routed: nil, dirtyTail: false)
    }

    // The journal's own writer makes the header (and the zero-filled, allocated file).
    let headerIDs = flags.contains(.shuffledDestinations) ? ["mixpanel", "amplitude", "firebase"] : destinationIDs
    var records = Array(rest)
    let capacity = max(segmentBytes, (64 + records.count + 4095) / 4096 * 4096)
    let truncated = flags.contains(.truncated)
    let segment = try Segment.create(
      number: segmentNumber, directory: segments, capacity: capacity, destinationIDs: headerIDs, laneCount: destinationIDs.count,
      syncDirectory: false, version: flags.contains(.version1) ? 1 : Segment.version)
    let recordsStart = segment.recordsStart
    // The reader reads records up to the end of the file: past the fuzzer's bytes lie the zeros the
    // writer allocated (unless the file is cut after them), and a record may reach into them (found by the
    // long run: a length past the bytes, with the checksum of the payload and those zeros).
    let fuzzerBytes = records.count
    if !truncated { records += [UInt8](repeating: 0, count: max(0, capacity - recordsStart - records.count)) }
    var routed = [Int](repeating: 0, count: destinationIDs.count)
    // The fuzzer's framing, with the checksums the writer would have written.
    var offset = 0
    while offset + Segment.recordHeaderSize <= records.count {
      let length = Int(records[offset]) | Int(records[offset + 1]) << 8 | Int(records[offset + 2]) << 16 | Int(records[offset + 3]) << 24
      guard length > 0, length <= records.count - offset - Segment.recordHeaderSize else { break }
      let payload = offset + Segment.recordHeaderSize
      records.withUnsafeMutableBytes { raw in
        let body = UnsafeRawBufferPointer(rebasing: raw[payload..<(payload + length)])
        raw.storeBytes(of: RecordChecksum.of(body).littleEndian, toByteOffset: offset + 4, as: UInt32.self)
        if var mask = EventCoding.destinations(of: body) {
          while mask != 0 {
            let bit = mask.trailingZeroBitCount
            mask &= mask - 1
            if bit < headerIDs.count, let lane = destinationIDs.firstIndex(of: headerIDs[bit]) { routed[lane] += 1 }
          }
        }
      }
      offset = payload + length
    }
    let dirtyTail = records[offset...].contains { $0 != 0 }
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    try handle.seek(toOffset: 6)
    let lengthBytes = [UInt8](try handle.read(upToCount: 2) ?? Data())
    guard lengthBytes.count == 2 else { throw WriteFailure(reason: "the header the writer wrote is missing") }
    let headerLength = Int(lengthBytes[0]) | Int(lengthBytes[1]) << 8
    try handle.seek(toOffset: UInt64(recordsStart))
    try handle.write(contentsOf: Data(records))
    var fileSize = capacity
    if truncated {
      fileSize = recordsStart + fuzzerBytes
      try handle.truncate(atOffset: UInt64(fileSize))
    }
    // The reader's own bounds on a file: at least 64 bytes, and room for the header (padded to 8 bytes).
    let readable = fileSize >= 64 && (headerLength + 7) & ~7 <= fileSize
    // A segment that cannot be read is quarantined: nothing in it is recovered.
    let recoverable = readable ? routed : routed.map { _ in 0 }
    return Written(headerIsValid: readable, routed: hasCursor ? nil : recoverable, dirtyTail: readable && dirtyTail)
  }

  /// Opens a tracker over the directory, lets it recover and deliver everything, and checks the laws.
  static func drain(_ root: String, _ written: Written) -> [String] {
    var violations: [String] = []
    let destinations = destinationIDs.map { InMemoryDestination(id: $0) }
    let tracker = Tracker(
      registry: NoRules(), destinations: destinations,
      journal: JournalConfiguration(storage: .directory(URL(fileURLWithPath: root)), maximumBytes: 4 * segmentBytes, segmentBytes: segmentBytes),
      retry: RetryPolicy(initial: 0, maximum: 0))
    if !tracker.flush(timeout: 30) { violations.append("the tracker did not drain the journal within 30 s") }
    let health = tracker.journalStatistics
    let statistics = tracker.statistics
    if !health.recoveryFinished { violations.append("recovery did not finish") }
    if health.storage != .disk { violations.append("the journal fell back to memory: \(health.storage)") }
    let quarantined = (try? FileManager.default.contentsOfDirectory(atPath: root + "/quarantine")) ?? []
    if health.quarantinedSegments != quarantined.count {
      violations.append("\(health.quarantinedSegments) segments counted as quarantined, \(quarantined.count) in quarantine/")
    }
    if written.headerIsValid && health.quarantinedSegments != 0 { violations.append("a segment with a valid header was quarantined") }
    if written.headerIsValid && health.cutTails != (written.dirtyTail ? 1 : 0) {
      violations.append("cut tails: \(health.cutTails), but the tail after the last good record is \(written.dirtyTail ? "dirty" : "clean")")
    }
    if health.cutTails > 1 || health.quarantinedSegments > 1 { violations.append("one segment counted more than once: \(health)") }

    for (lane, destination) in destinations.enumerated() {
      guard let books = statistics[destination.id] else {
        violations.append("no statistics for \(destination.id)")
        continue
      }
      let events = destination.events
      let undecodable = books.droppedByReason[.undecodable] ?? 0
      if !books.balances { violations.append("\(destination.id): the books do not balance: \(books)") }
      if books.queued != 0 { violations.append("\(destination.id): \(books.queued) still queued after a flush") }
      if books.delivered != events.count { violations.append("\(destination.id): \(books.delivered) counted delivered, \(events.count) received") }
      if books.recovered != books.delivered + undecodable || books.accepted != books.recovered {
        violations.append("\(destination.id): recovered \(books.recovered) is not delivered + undecodable: \(books)")
      }
      if let routed = written.routed, books.recovered != routed[lane] {
        violations.append("\(destination.id): \(books.recovered) recovered, but \(routed[lane]) checksummed records were routed to it")
      }
      if health.quarantinedSegments > 0 && books.recovered != 0 {
        violations.append("\(destination.id): events recovered from a quarantined segment")
      }
      for event in events { violations += wellFormedViolations(event) }
    }
    return violations
  }

  /// An event read from the journal encodes (in exactly the size the encoder promises) and decodes back
  /// to itself, its snapshot too.
  static func wellFormedViolations(_ event: TrackingEvent) -> [String] {
    let draft = EventCoding.Draft(
      eventID: event.id, source: event.source, screen: event.screen, properties: event.properties, forwardedTo: event.forwardedTo)
    let size = EventCoding.encodedSize(draft, snapshot: 0)
    // Microseconds as the journal stores them; near Int64's ends the time (a Double) rounds out of its
    // range, and only the other fields are compared.
    let seconds = event.timestamp.timeIntervalSince1970
    let exactMicroseconds = Int64(exactly: (seconds * 1_000_000).rounded())
    let microseconds = exactMicroseconds ?? 0
    var buffer = [UInt8](repeating: 0, count: size)
    let written = buffer.withUnsafeMutableBytes { raw in
      EventCoding.encode(draft, destinations: 1, messageID: event.messageID.uuid, microseconds: microseconds, snapshot: 0, into: raw.baseAddress!)
    }
    guard written == size else { return ["\(event.id.debugDescription): encoded in \(written) bytes, \(size) promised"] }
    let snapshot = EventSnapshot(identity: event.identity, context: event.context)
    var snapshotBytes = [UInt8](repeating: 0, count: SnapshotCoding.encodedSize(snapshot, number: 0))
    _ = snapshotBytes.withUnsafeMutableBytes { SnapshotCoding.encode(snapshot, number: 0, into: $0.baseAddress!) }
    guard let decodedSnapshot = snapshotBytes.withUnsafeBytes({ SnapshotCoding.decode($0) }), decodedSnapshot.snapshot == snapshot else {
      return ["\(event.id.debugDescription): its snapshot does not decode back to itself"]
    }
    guard let again = buffer.withUnsafeBytes({ EventCoding.decode($0, snapshots: [decodedSnapshot.snapshot]) }) else {
      return ["\(event.id.debugDescription): does not decode once encoded again"]
    }
    let same =
      again.id == event.id && again.source == event.source && again.screen == event.screen && again.messageID == event.messageID
      && again.identity == event.identity && again.context == event.context && again.forwardedTo == event.forwardedTo
      && (exactMicroseconds == nil || abs(again.timestamp.timeIntervalSince1970 - seconds) <= max(1e-6, abs(seconds) * 1e-15))
      && again.properties.count == event.properties.count
      && again.properties.allSatisfy { key, value in
        switch (value, event.properties[key]) {
        case (.double(let a), .double(let b)?): return a.bitPattern == b.bitPattern
        case (let a, let b?): return a == b
        default: return false
        }
      }
    return same ? [] : ["\(event.id.debugDescription): decodes to another event once encoded again: \(again) for \(event)"]
  }
}
