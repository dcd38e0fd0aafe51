import SystemPackage

/// The message IDs a collector has seen, the most recent `capacity` of them (Segment deduplicates by
/// `messageId` alone).
///
/// Each key is kept as a 128-bit fingerprint (two SipHash values with this process's random seed), so a
/// million keys take about 50 MB whatever the IDs look like; two different keys share a fingerprint
/// with a probability of about n² / 2¹²⁹, nil in practice. Beyond the capacity the oldest key is
/// forgotten: that event, sent again, is accepted as new.
struct DeduplicationWindow: Sendable {
  private struct Fingerprint: Hashable, Sendable {
    var high: Int
    var low: Int
  }

  let capacity: Int
  private var keys: Set<Fingerprint> = []
  private var order: [Fingerprint] = []
  private var oldest = 0
  private(set) var forgotten = 0

  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// Remembers the key; false when it was already remembered.
  @discardableResult
  mutating func insert(messageID: String) -> Bool {
    let fingerprint = Self.fingerprint(messageID: messageID)
    guard !keys.contains(fingerprint) else { return false }
    if order.count < capacity {
      order.append(fingerprint)
    } else {
      keys.remove(order[oldest])
      order[oldest] = fingerprint
      oldest = (oldest + 1) % capacity
      forgotten += 1
    }
    keys.insert(fingerprint)
    return true
  }

  mutating func removeAll() {
    keys = []
    order = []
    oldest = 0
    forgotten = 0
  }

  private static func fingerprint(messageID: String) -> Fingerprint {
    func hash(_ salt: UInt8) -> Int {
      var hasher = Hasher()
      hasher.combine(salt)
      hasher.combine(messageID)
      return hasher.finalize()
    }
    return Fingerprint(high: hash(1), low: hash(2))
  }
}

/// The most recent `capacity` elements appended, oldest first.
struct RecentElements<Element: Sendable>: Sendable {
  let capacity: Int
  private var storage: [Element] = []
  private var oldest = 0
  private(set) var dropped = 0

  init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  mutating func append(_ element: Element) {
    guard capacity > 0 else {
      dropped += 1
      return
    }
    if storage.count < capacity {
      storage.append(element)
    } else {
      storage[oldest] = element
      oldest = (oldest + 1) % capacity
      dropped += 1
    }
  }

  var elements: [Element] { Array(storage[oldest...] + storage[..<oldest]) }

  mutating func removeAll() {
    storage = []
    oldest = 0
    dropped = 0
  }
}

/// Appends lines to the `--output` file (opened for appending, created when missing).
final class OutputFile: Sendable {
  let path: String
  private let descriptor: FileDescriptor

  init(path: String) throws(CollectorError) {
    self.path = path
    do {
      descriptor = try FileDescriptor.open(
        FilePath(path), .readWrite, options: [.append, .create, .closeOnExec], permissions: [.ownerReadWrite, .groupRead, .otherRead])
      // A collector killed in the middle of a write leaves part of a line: end it, so that the next line
      // starts on a line of its own (the torn one is not read back, and its call was never answered 2xx).
      let size = try descriptor.seek(offset: 0, from: .end)
      if size > 0 {
        var last: UInt8 = 0
        let read = try withUnsafeMutableBytes(of: &last) { try descriptor.read(fromAbsoluteOffset: size - 1, into: $0) }
        if read == 1 && last != UInt8(ascii: "\n") { _ = try descriptor.writeAll("\n".utf8) }
      }
    } catch {
      throw CollectorError.cannotOpenOutput(path: path, reason: "\(error)")
    }
  }

  /// Calls `found` with the message ID of every call an earlier run recorded in the output file, oldest
  /// first (lines that are not a whole recorded call, such as one torn by a kill, are skipped); the count.
  /// A file that does not exist yet holds none.
  static func recordedMessageIDs(path: String, _ found: (String) -> Void) throws(CollectorError) -> Int {
    let file: FileDescriptor
    do {
      file = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
    } catch Errno.noSuchFileOrDirectory {
      return 0
    } catch {
      throw CollectorError.cannotOpenOutput(path: path, reason: "\(error)")
    }
    defer { try? file.close() }
    var count = 0
    var pending: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    func line(_ bytes: ArraySlice<UInt8>) {
      guard let id = CollectorRecord.messageID(ofOutputLine: Array(bytes)) else { return }
      found(id)
      count += 1
    }
    do {
      while true {
        let read = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
        if read == 0 { break }
        pending += chunk[..<read]
        var start = pending.startIndex
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
          line(pending[start..<newline])
          start = newline + 1
        }
        pending.removeSubrange(..<start)
      }
    } catch {
      throw CollectorError.cannotOpenOutput(path: path, reason: "cannot read it: \(error)")
    }
    return count
  }

  deinit { try? descriptor.close() }

  /// Writes everything; false on an error.
  func append(_ text: String) -> Bool {
    (try? descriptor.writeAll(text.utf8)) != nil
  }
}

/// Why a collector could not start.
public enum CollectorError: Error, Sendable, Hashable, CustomStringConvertible {
  case cannotOpenOutput(path: String, reason: String)
  case invalidConfiguration(String)
  case cannotListen(host: String, port: Int, reason: String)

  public var description: String {
    switch self {
    case .cannotOpenOutput(let path, let reason): return "cannot open '\(path)' for writing: \(reason)"
    case .invalidConfiguration(let problem): return problem
    case .cannotListen(let host, let port, let reason): return "cannot listen on \(host):\(port): \(reason)"
    }
  }
}
