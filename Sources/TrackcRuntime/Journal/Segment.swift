import CZlib
import Foundation

/// One segment of the journal: a fixed-size file mapped shared into memory (or, when the disk cannot
/// be used, anonymous memory with the same layout), holding a header and framed records.
///
/// Header: `TRKJ`, version u16, header length u16, segment number u64, destination count u16, each
/// destination ID (u16 length, UTF-8), then a CRC-32 of all that. Records follow it:
/// `length u32 | checksum u32 | payload` (`RecordChecksum`, `EventCoding`), little-endian; a zero length ends the records
/// (the file is zero-filled when created). A record is written payload first and header last, so a
/// process killed in the middle of an append leaves either a zero length or a checksum that fails:
/// either way the tail is cut at the last good record when the journal is next opened.
///
/// Because the mapping is `MAP_SHARED`, a record is in the kernel's page cache as soon as its bytes are
/// stored: it survives the death of the process (the kernel writes the page back), which is what makes
/// an event safe when `track()` returns. The file's blocks are allocated up front, so a full disk is an
/// error when the segment is created and never a `SIGBUS` on a later store.
final class Segment: @unchecked Sendable {
  static let magic: UInt32 = 0x4A4B_5254  // "TRKJ" read little-endian
  /// What new segments are written as: 2, with snapshot records (`EventCoding`, `SnapshotCoding`).
  /// Version 1 segments (earlier releases) are still read.
  static let version: UInt16 = 2
  static let recordHeaderSize = 8

  let number: UInt64
  /// Nil for a segment in memory.
  let path: String?
  let destinationIDs: [String]
  let recordsStart: Int
  /// The format of its records (`EventCoding`).
  let version: UInt16
  /// Bytes the segment takes (on disk, or in memory).
  private(set) var capacity: Int
  private let base: UnsafeMutableRawPointer
  private let mappedLength: Int

  // Guarded by the journal's lock.
  /// Where the next record goes (or, for a recovered segment, the end of its last good record).
  var end: Int
  /// No more appends (a later segment exists).
  var sealed: Bool
  /// Deleted to bound the journal's size, or quarantined; readers that held it discard what they read.
  var removed = false
  /// Records routed to each of the tracker's destinations (by lane index).
  var counts: [Int]
  /// For each destination in the header, the tracker's lane index, or -1.
  var laneForTableIndex: [Int] = []
  /// How far `msync` has reached (power-loss settings).
  var syncedEnd: Int
  /// Its snapshot records, by number (nil for one that did not decode).
  var snapshots: [EventSnapshot?] = []

  var isInMemory: Bool { path == nil }

  private init(
    number: UInt64, path: String?, destinationIDs: [String], recordsStart: Int, capacity: Int, base: UnsafeMutableRawPointer,
    mappedLength: Int, end: Int, sealed: Bool, laneCount: Int, version: UInt16 = Segment.version
  ) {
    self.number = number
    self.version = version
    self.path = path
    self.destinationIDs = destinationIDs
    self.recordsStart = recordsStart
    self.capacity = capacity
    self.base = base
    self.mappedLength = mappedLength
    self.end = end
    self.sealed = sealed
    self.syncedEnd = end
    counts = Array(repeating: 0, count: laneCount)
  }

  deinit {
    munmap(base, mappedLength)
  }

  static func fileName(_ number: UInt64) -> String {
    let digits = String(number)
    return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".seg"
  }

  /// Segment numbers stay below this (a file named with a larger one is set aside, never adopted).
  static let maximumNumber: UInt64 = 1 << 62

  static func number(ofFileNamed name: String) -> UInt64? {
    guard name.hasSuffix(".seg"), name.utf8.count == 24 else { return nil }
    let digits = name.dropLast(4)
    guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return UInt64(digits)
  }

  // MARK: Creating

  /// A new, empty segment: a file in `directory` (written under a temporary name, sized and allocated,
  /// then renamed, so a half-made segment never carries a segment's name), or memory when `directory` is nil.
  static func create(
    number: UInt64, directory: String?, capacity: Int, destinationIDs: [String], laneCount: Int, syncDirectory: Bool,
    prefault: Bool = false, version: UInt16 = Segment.version
  ) throws(JournalError) -> Segment {
    let header = headerBytes(number: number, destinationIDs: destinationIDs, version: version)
    let recordsStart = (header.count + 7) & ~7
    guard recordsStart + recordHeaderSize + EventCoding.fixedSize < capacity else { throw .segmentTooSmall }
    guard let directory else {
      guard let base = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), base != MAP_FAILED else {
        throw .system("mmap", errno)
      }
      header.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: header.count) }
      return Segment(
        number: number, path: nil, destinationIDs: destinationIDs, recordsStart: recordsStart, capacity: capacity, base: base,
        mappedLength: capacity, end: recordsStart, sealed: false, laneCount: laneCount, version: version)
    }
    let path = directory + "/" + fileName(number)
    let temporary = path + ".tmp"
    let descriptor = openFile(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .system("open", errno) }
    defer { close(descriptor) }
    do {
      try allocate(descriptor, capacity)
      // Written through the file, not the mapping: a store into a fresh mapping costs a page fault here.
      guard header.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, header.count, 0) }) == header.count else {
        throw JournalError.system("pwrite", errno)
      }
      guard let base = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), base != MAP_FAILED else {
        throw JournalError.system("mmap", errno)
      }
      if prefault {
        // A spare made ahead takes its page faults here, off the tracking thread: storing a zero (what
        // is there already) into each page maps it writable, so the appends that fill it fault no more.
        // (About 3 µs a page on ext4: the tracking thread paid that once every 4 KB of records when a
        // segment was made without a spare.)
        var offset = recordsStart
        while offset < capacity {
          (base + offset).storeBytes(of: 0, as: UInt8.self)
          offset = (offset / 4096 + 1) * 4096
        }
      }
      guard rename(temporary, path) == 0 else {
        let code = errno
        munmap(base, capacity)
        throw JournalError.system("rename", code)
      }
      if syncDirectory {
        msync(base, recordsStart, MS_SYNC)
        JournalFiles.syncDirectory(directory)
      }
      return Segment(
        number: number, path: path, destinationIDs: destinationIDs, recordsStart: recordsStart, capacity: capacity, base: base,
        mappedLength: capacity, end: recordsStart, sealed: false, laneCount: laneCount, version: version)
    } catch {
      unlink(temporary)
      throw error as! JournalError
    }
  }

  /// Reserves the file's blocks, so that a store into the mapping can never fail for want of space.
  private static func allocate(_ descriptor: Int32, _ size: Int) throws(JournalError) {
    #if os(Linux)
      let result = posix_fallocate(descriptor, 0, off_t(size))
      if result != 0 { throw .system("posix_fallocate", result) }
    #else
      guard ftruncate(descriptor, off_t(size)) == 0 else { throw .system("ftruncate", errno) }
      // Write zeros so the blocks exist (APFS has no posix_fallocate).
      let chunk = [UInt8](repeating: 0, count: 64 * 1024)
      var offset = 0
      while offset < size {
        let count = min(chunk.count, size - offset)
        let written = chunk.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, count, off_t(offset)) }
        guard written > 0 else { throw .system("pwrite", errno) }
        offset += written
      }
    #endif
  }

  private static func headerBytes(number: UInt64, destinationIDs: [String], version: UInt16 = Segment.version) -> [UInt8] {
    var bytes: [UInt8] = []
    func append<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    append(magic)
    append(version)
    append(UInt16(0))  // header length, set below
    append(number)
    append(UInt16(destinationIDs.count))
    for id in destinationIDs {
      let utf8 = Array(id.utf8.prefix(Int(UInt16.max)))
      append(UInt16(utf8.count))
      bytes.append(contentsOf: utf8)
    }
    let length = bytes.count + 4
    bytes[6] = UInt8(truncatingIfNeeded: length)
    bytes[7] = UInt8(truncatingIfNeeded: length >> 8)
    append(checksum(bytes.withUnsafeBytes { $0 }))
    return bytes
  }

  // MARK: Opening

  enum Opened {
    case valid(Segment, cutTail: Bool)
    /// Not a segment this version can read (bad header, or not a file of a usable size): quarantine it.
    case invalid(String)
  }

  /// Maps an existing segment read-only, finds its last good record, and gives the space after it back
  /// to the file system (the file is truncated to the page after its last record), so that a process
  /// that keeps restarting does not fill the journal with mostly empty segments.
  static func open(path: String, number: UInt64, laneCount: Int) -> Opened {
    // Never blocks (a FIFO with a segment's name) and never follows a symbolic link.
    var descriptor = openFile(path, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
    if descriptor < 0 && errno != ELOOP { descriptor = openFile(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW) }
    guard descriptor >= 0 else { return .invalid("cannot open (\(JournalError.describe(errno)))") }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return .invalid("not a regular file") }
    let size = Int(status.st_size)
    guard size >= 64, size <= 1 << 30 else { return .invalid("size \(size) out of range") }
    guard let base = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), base != MAP_FAILED else {
      return .invalid("cannot map (\(JournalError.describe(errno)))")
    }
    let bytes = UnsafeRawBufferPointer(start: base, count: size)
    guard let header = parseHeader(bytes, number: number) else {
      munmap(base, size)
      return .invalid("bad header")
    }
    let recordsStart = (header.length + 7) & ~7
    let segment = Segment(
      number: number, path: path, destinationIDs: header.destinationIDs, recordsStart: recordsStart, capacity: size, base: base,
      mappedLength: size, end: recordsStart, sealed: true, laneCount: laneCount, version: header.version)
    var offset = recordsStart
    while let record = segment.record(at: offset, limit: size, verify: true) {
      offset = record.next
    }
    segment.end = offset
    segment.syncedEnd = offset
    let cutTail = !isZero(bytes, from: offset)
    // Nothing reads past `end` from now on, so the pages after it can go.
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let kept = (offset + page - 1) / page * page
    if kept < size && ftruncate(descriptor, off_t(kept)) == 0 { segment.capacity = kept }
    return .valid(segment, cutTail: cutTail)
  }

  private static func parseHeader(_ bytes: UnsafeRawBufferPointer, number: UInt64) -> (length: Int, destinationIDs: [String], version: UInt16)? {
    guard bytes.count >= 22, bytes.loadUnaligned(as: UInt32.self) == magic.littleEndian else { return nil }
    let version = UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt16.self))
    guard version == 1 || version == Self.version else { return nil }
    let length = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 6, as: UInt16.self)))
    // The header only has to fit: a segment cut short (a copy, a full disk) keeps the records it holds.
    // (It once had to fit in the file's first half, which quarantined a short file's good records: found
    // by the `journal` fuzz target.)
    guard length >= 22, (length + 7) & ~7 <= bytes.count,
      UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) == number,
      UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self))
        == checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<(length - 4)]))
    else { return nil }
    let count = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt16.self)))
    var offset = 18
    var ids: [String] = []
    for _ in 0..<count {
      guard offset + 2 <= length - 4 else { return nil }
      let idLength = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
      offset += 2
      guard offset + idLength <= length - 4 else { return nil }
      ids.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + idLength)]), as: UTF8.self))
      offset += idLength
    }
    guard offset == length - 4 else { return nil }
    return (length, ids, version)
  }

  private static func isZero(_ bytes: UnsafeRawBufferPointer, from offset: Int) -> Bool {
    guard offset < bytes.count, let base = bytes.baseAddress else { return true }
    // memcmp against a zero page: fast in debug builds too (recovery runs in tests).
    return zeroPage.withUnsafeBytes { zeros in
      var index = offset
      while index < bytes.count {
        let count = min(zeros.count, bytes.count - index)
        if memcmp(base + index, zeros.baseAddress!, count) != 0 { return false }
        index += count
      }
      return true
    }
  }

  private static let zeroPage = [UInt8](repeating: 0, count: 64 * 1024)

  // MARK: Records

  /// Room for a record with this payload size?
  func fits(payload: Int) -> Bool {
    end + Self.recordHeaderSize + payload <= capacity
  }

  /// The largest payload a record can have in a segment of this capacity.
  static func maximumPayload(capacity: Int, destinationIDs: [String]) -> Int {
    let header = headerBytes(number: 0, destinationIDs: destinationIDs).count
    return capacity - ((header + 7) & ~7) - recordHeaderSize
  }

  /// Appends a record at `end`: the payload is written by `write` (which returns its length), then the
  /// checksum, then the length. Caller holds the journal's lock and has checked `fits`.
  func append(payloadSize: Int, _ write: (UnsafeMutableRawPointer) -> Int) {
    let recordStart = base + end
    let payload = recordStart + Self.recordHeaderSize
    let written = write(payload)
    let crc = RecordChecksum.of(UnsafeRawBufferPointer(start: payload, count: written))
    recordStart.storeBytes(of: crc.littleEndian, toByteOffset: 4, as: UInt32.self)
    recordStart.storeBytes(of: UInt32(written).littleEndian, toByteOffset: 0, as: UInt32.self)
    end += Self.recordHeaderSize + written
  }

  /// The record at `offset`, if a whole, good one is there before `limit`.
  func record(at offset: Int, limit: Int, verify: Bool) -> (payload: UnsafeRawBufferPointer, next: Int)? {
    guard offset >= recordsStart, offset + Self.recordHeaderSize <= limit, limit <= capacity else { return nil }
    let length = Int(UInt32(littleEndian: (base + offset).loadUnaligned(as: UInt32.self)))
    guard length > 0, length <= limit - offset - Self.recordHeaderSize else { return nil }
    let payload = UnsafeRawBufferPointer(start: base + offset + Self.recordHeaderSize, count: length)
    if verify {
      let crc = UInt32(littleEndian: (base + offset + 4).loadUnaligned(as: UInt32.self))
      guard crc == RecordChecksum.of(payload) else { return nil }
    }
    return (payload, offset + Self.recordHeaderSize + length)
  }

  /// Lets the kernel take a sealed file segment's pages out of the process (they stay in the page cache
  /// and the file; a reader faults them back in), so that a backlog on disk does not count as the app's
  /// memory. Linux only: elsewhere the hint's meaning for shared mappings differs.
  func releaseResidentPages() {
    #if os(Linux)
      guard !isInMemory else { return }
      madvise(base, mappedLength, MADV_DONTNEED)
    #endif
  }

  /// Flushes the given range to the file (power-loss settings).
  func sync(from start: Int, to end: Int) {
    guard !isInMemory, end > start else { return }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let alignedStart = start / page * page
    msync(base + alignedStart, end - alignedStart, MS_SYNC)
  }

  static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let pointer = bytes.baseAddress, bytes.count > 0 else { return UInt32(crc32(0, nil, 0)) }
    return UInt32(truncatingIfNeeded: crc32(0, pointer.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
  }
}

/// The checksum of a record's payload: a 64-bit multiply–rotate hash over 8-byte words, folded to 32
/// bits. It catches torn writes and damaged bytes like a CRC does (it is not meant against an
/// adversary), at several times zlib's CRC-32 speed here, which matters twice: on every `track()`, and
/// when a backlog is validated at start.
enum RecordChecksum {
  static func of(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    let count = bytes.count
    var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ (UInt64(count) &* 0xC2B2_AE3D_27D4_EB4F)
    guard let base = bytes.baseAddress else { return fold(hash) }
    var offset = 0
    while offset + 8 <= count {
      let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      hash = (hash ^ (word &* 0x87C3_7B91_1142_53D5))
      hash = ((hash << 27) | (hash >> 37)) &* 0x4CF5_AD43_2745_937F
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < count {
      tail |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) << shift
      shift += 8
      offset += 1
    }
    let mixed = hash ^ (tail &* 0x87C3_7B91_1142_53D5)
    return fold(((mixed << 31) | (mixed >> 33)) &* 0x4CF5_AD43_2745_937F)
  }

  private static func fold(_ value: UInt64) -> UInt32 {
    var hash = value
    hash ^= hash >> 33
    hash = hash &* 0xFF51_AFD7_ED55_8CCD
    hash ^= hash >> 33
    hash = hash &* 0xC4CE_B9FE_1A85_EC53
    hash ^= hash >> 33
    return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
  }
}

/// Why the journal could not do something with its files.
enum JournalError: Error, Sendable, CustomStringConvertible {
  case system(String, Int32)
  case segmentTooSmall

  var description: String {
    switch self {
    case .system(let call, let code): return "\(call): \(Self.describe(code))"
    case .segmentTooSmall: return "segment too small"
    }
  }

  var errorNumber: Int32? {
    if case .system(_, let code) = self { return code }
    return nil
  }

  static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

/// File-system helpers of the journal.
enum JournalFiles {
  static func syncDirectory(_ path: String) {
    let descriptor = openFile(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }
}

/// `open(2)` (a name that does not clash with `Segment.open`).
func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
  open(path, flags, mode)
}
