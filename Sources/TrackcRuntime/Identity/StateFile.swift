import CZlib
import Foundation

/// What the runtime keeps between launches besides the journal: the identity (anonymous ID, user ID,
/// traits) and the app version and build it last saw (for the lifecycle events). In the journal's
/// directory, one file of two 64 KB slots written alternately, each
/// `generation u64 | length u32 | crc32 u32 | payload`, like a destination's cursor (`CursorFile`):
/// a write torn by a crash spoils one slot at most, and reading takes the valid slot with the higher
/// generation, so a crash never leaves half an identity. Written with pwrite(2): in the kernel's page
/// cache when the call returns, so it survives kill -9; power loss as the journal's `processDeath`
/// setting says. No fsync: the calls that write it (`identify`, `reset`) may run on the main thread.
///
/// The payload is a count of fields, then each as a string (empty: none), in `State` order; a reader
/// takes the fields it knows. The consent answers come after the app's version and build: their count,
/// then each category's name, granted (`1`) or not (`0`; `2`: refused at its first answer, after events
/// waited for it), and revocation count; then whether the app
/// launched with this state before (`1`; for the lifecycle's Application Installed); then the session's ID
/// and when the app was last seen active in it (milliseconds since 1970; empty: no session yet).
final class StateFile: @unchecked Sendable {
  struct State: Sendable, Hashable {
    var identity: TrackingIdentity
    var appVersion: String?
    var appBuild: String?
    /// What the person answered about consent.
    var consent = ConsentAnswers()
    /// The app launched with this state before (it is not a first install).
    var launched = false
    /// The session events belong to, kept across launches (`Tracker.sessionID`).
    var session: Session?
  }

  /// A session: its ID (when it started, in milliseconds since 1970, as Amplitude numbers sessions) and
  /// when the app was last seen active in it (it came to the foreground, or went to the background).
  struct Session: Sendable, Hashable {
    var id: Int64
    var lastActive: Int64
  }

  static let slotBytes = 64 * 1024
  static let headerBytes = 16
  private let descriptor: Int32
  private let lock = NSLock()
  private var generation: UInt64 = 0

  private init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// `<directory>/state`, created when missing; nil when it cannot be opened (the state then lives in
  /// memory for the process).
  static func open(directory: URL) -> StateFile? {
    let descriptor = openFile(directory.appendingPathComponent("state").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    return descriptor >= 0 ? StateFile(descriptor: descriptor) : nil
  }

  func read() -> State? {
    lock.lock()
    defer { lock.unlock() }
    var best: (generation: UInt64, payload: [UInt8])?
    var header = [UInt8](repeating: 0, count: Self.headerBytes)
    for slot in 0..<2 {
      let base = off_t(slot * Self.slotBytes)
      guard header.withUnsafeMutableBytes({ pread(descriptor, $0.baseAddress, Self.headerBytes, base) }) == Self.headerBytes else { continue }
      let (generation, length, crc) = header.withUnsafeBytes {
        (
          UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)), Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self))),
          UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        )
      }
      guard generation > 0, length <= Self.slotBytes - Self.headerBytes, best.map({ generation > $0.generation }) ?? true else { continue }
      var payload = [UInt8](repeating: 0, count: length)
      guard payload.withUnsafeMutableBytes({ pread(descriptor, $0.baseAddress, length, base + off_t(Self.headerBytes)) }) == length,
        Self.checksum(payload) == crc
      else { continue }
      best = (generation, payload)
    }
    guard let best else { return nil }
    generation = best.generation
    return Self.decode(best.payload)
  }

  /// False when the write failed (the state is then only in memory).
  @discardableResult
  func write(_ state: State) -> Bool {
    let payload = Self.encode(state)
    guard payload.count <= Self.slotBytes - Self.headerBytes else { return false }
    lock.lock()
    defer { lock.unlock() }
    generation &+= 1
    var bytes = [UInt8](repeating: 0, count: Self.headerBytes)
    bytes.withUnsafeMutableBytes { raw in
      raw.storeBytes(of: generation.littleEndian, toByteOffset: 0, as: UInt64.self)
      raw.storeBytes(of: UInt32(payload.count).littleEndian, toByteOffset: 8, as: UInt32.self)
      raw.storeBytes(of: Self.checksum(payload).littleEndian, toByteOffset: 12, as: UInt32.self)
    }
    bytes += payload
    let offset = off_t(Int(generation & 1) * Self.slotBytes)
    return bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, offset) } == bytes.count
  }

  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { raw in
      UInt32(truncatingIfNeeded: crc32(0, raw.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(raw.count)))
    }
  }

  /// The largest traits a state can hold (what `identify` keeps; larger ones are not kept).
  static func fits(_ state: State) -> Bool { encode(state).count <= slotBytes - headerBytes }

  static func encode(_ state: State) -> [UInt8] {
    let identity = state.identity
    let categories = state.consent.categories.keys.sorted()
    let consent =
      [String(categories.count)]
      + categories.flatMap { category -> [String] in
        let answer = state.consent.categories[category]!
        return [category, answer.granted ? "1" : answer.refusedWhilePending ? "2" : "0", String(answer.revocations)]
      }
    let fields =
      [identity.anonymousID, identity.userID ?? "", state.appVersion ?? "", state.appBuild ?? ""] + consent + [state.launched ? "1" : ""]
      + [state.session.map { String($0.id) } ?? "", state.session.map { String($0.lastActive) } ?? ""]
    var size = EventCoding.varintSize(UInt64(fields.count)) + EventCoding.propertiesSize(identity.traits)
    for field in fields { size += EventCoding.stringSize(field) }
    var bytes = [UInt8](repeating: 0, count: size)
    bytes.withUnsafeMutableBytes { raw in
      var writer = EventCoding.Writer(pointer: raw.baseAddress!)
      writer.varint(UInt64(fields.count))
      for field in fields { writer.string(field) }
      writer.properties(identity.traits)
    }
    return bytes
  }

  static func decode(_ bytes: [UInt8]) -> State? {
    bytes.withUnsafeBytes { raw -> State? in
      var reader = EventCoding.Reader(buffer: raw)
      guard let count = reader.varint(), count >= 2, count <= UInt64(raw.count) else { return nil }
      var fields: [String] = []
      for _ in 0..<count {
        guard let field = reader.string() else { return nil }
        fields.append(field)
      }
      guard let traits = reader.properties(), !fields[0].isEmpty else { return nil }
      func field(_ index: Int) -> String? { index < fields.count && !fields[index].isEmpty ? fields[index] : nil }
      var consent = ConsentAnswers()
      // Then the consent (a count of categories, then each as three fields), then whether the app launched.
      var index = 5
      if fields.count > 4, let categories = Int(fields[4]), categories > 0 {
        for _ in 0..<categories {
          guard index + 2 < fields.count, let revocations = UInt32(fields[index + 2]) else { break }
          consent.categories[fields[index]] = ConsentAnswers.Answer(
            granted: fields[index + 1] == "1", revocations: revocations, refusedWhilePending: fields[index + 1] == "2")
          index += 3
        }
      }
      let launched = field(index) == "1"
      // Then the session (a state of an earlier release has none).
      var session: Session?
      if let id = field(index + 1).flatMap(Int64.init), let lastActive = field(index + 2).flatMap(Int64.init) {
        session = Session(id: id, lastActive: lastActive)
      }
      return State(
        identity: TrackingIdentity(anonymousID: fields[0], userID: field(1), traits: traits), appVersion: field(2), appBuild: field(3),
        consent: consent, launched: launched, session: session)
    }
  }
}
