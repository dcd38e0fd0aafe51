import CZlib
import Foundation

/// A position in the journal: a segment and a byte offset in it. Offset 0 means the segment's first
/// record; a segment that no longer exists means the next one that does.
struct JournalPosition: Comparable, Sendable {
  var segment: UInt64
  var offset: Int

  static let start = JournalPosition(segment: 0, offset: 0)

  static func < (lhs: JournalPosition, rhs: JournalPosition) -> Bool {
    (lhs.segment, lhs.offset) < (rhs.segment, rhs.offset)
  }
}

/// A destination's persisted cursor (Kafka's consumer offset in miniature): two 32-byte slots written
/// alternately, each `generation u64 | segment u64 | offset u64 | crc32 u32 | 0 u32`. A write torn by a
/// crash spoils one slot at most; reading takes the valid slot with the higher generation. A cursor is
/// written after its batch was delivered, so a lost write means duplicates, never loss.
final class CursorFile: @unchecked Sendable {
  private let descriptor: Int32
  private var generation: UInt64 = 0
  private let syncs: Bool

  private init(descriptor: Int32, syncs: Bool) {
    self.descriptor = descriptor
    self.syncs = syncs
  }

  deinit { close(descriptor) }

  /// The file name for a destination: its ID in hex, so that no ID can name another path.
  static func fileName(for key: String) -> String {
    let hex = key.utf8.prefix(100).map { byte -> String in
      let digits = String(byte, radix: 16)
      return digits.count == 1 ? "0" + digits : digits
    }
    return hex.joined() + ".cursor"
  }

  static func open(directory: String, key: String, syncs: Bool) -> CursorFile? {
    let descriptor = openFile(directory + "/" + fileName(for: key), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return nil }
    return CursorFile(descriptor: descriptor, syncs: syncs)
  }

  enum Stored {
    case none
    case position(JournalPosition)
    /// Bytes were there but neither slot is valid.
    case unreadable
  }

  func read() -> Stored {
    var bytes = [UInt8](repeating: 0, count: 64)
    let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 64, 0) }
    guard count > 0 else { return .none }
    var best: (UInt64, JournalPosition)?
    bytes.withUnsafeBytes { raw in
      for slot in 0..<2 where (slot + 1) * 32 <= count {
        let base = slot * 32
        let stored = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: base + 24, as: UInt32.self))
        let crc = UInt32(truncatingIfNeeded: crc32(0, raw.baseAddress!.advanced(by: base).assumingMemoryBound(to: Bytef.self), 24))
        guard stored == crc else { continue }
        let generation = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base, as: UInt64.self))
        let segment = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 8, as: UInt64.self))
        let offset = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 16, as: UInt64.self))
        guard offset < 1 << 31 else { continue }
        if best == nil || generation > best!.0 { best = (generation, JournalPosition(segment: segment, offset: Int(offset))) }
      }
    }
    guard let best else { return .unreadable }
    generation = best.0
    return .position(best.1)
  }

  /// False when the write failed (the position is then only in memory).
  @discardableResult
  func write(_ position: JournalPosition) -> Bool {
    generation &+= 1
    var slot = [UInt8](repeating: 0, count: 32)
    slot.withUnsafeMutableBytes { raw in
      raw.storeBytes(of: generation.littleEndian, toByteOffset: 0, as: UInt64.self)
      raw.storeBytes(of: position.segment.littleEndian, toByteOffset: 8, as: UInt64.self)
      raw.storeBytes(of: UInt64(position.offset).littleEndian, toByteOffset: 16, as: UInt64.self)
      let crc = UInt32(truncatingIfNeeded: crc32(0, raw.baseAddress!.assumingMemoryBound(to: Bytef.self), 24))
      raw.storeBytes(of: crc.littleEndian, toByteOffset: 24, as: UInt32.self)
    }
    let offset = off_t((generation & 1) * 32)
    let written = slot.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, 32, offset) }
    if syncs { fsync(descriptor) }
    return written == 32
  }
}
