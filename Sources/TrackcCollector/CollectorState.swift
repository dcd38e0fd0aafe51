import SystemPackage

/// The (destination, messageId) keys a collector has seen, the most recent `capacity` of them.
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
  mutating func insert(destination: String?, messageID: String) -> Bool {
    let fingerprint = Self.fingerprint(destination: destination, messageID: messageID)
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

  private static func fingerprint(destination: String?, messageID: String) -> Fingerprint {
    func hash(_ salt: UInt8) -> Int {
      var hasher = Hasher()
      hasher.combine(salt)
      hasher.combine(destination)
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
        FilePath(path), .writeOnly, options: [.append, .create, .closeOnExec], permissions: [.ownerReadWrite, .groupRead, .otherRead])
    } catch {
      throw CollectorError.cannotOpenOutput(path: path, reason: "\(error)")
    }
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
