import Foundation

/// The compact binary form of an event in the journal: what `track()` writes, so that the tracking path
/// does no JSON encoding and no UUID formatting (JSON is made when a batch is uploaded).
///
/// Layout (little-endian), after the record header, in segments of version 2:
///
///     destinations  u64      bit i: routed to the segment's destination i
///     messageID     16 bytes UUIDv7, fixed here and never regenerated
///     timestamp     i64      microseconds since 1970
///     kind          u8       0 page enter, 1 page leave, 2 control, 3 manual, 4 identify, 5 alias
///     flags         u8       bit 0: a screen follows; bit 1: the plan's destinations follow; bit 2: a
///                            wire name follows; bit 3: a page's enter event goes as a track call
///     snapshot      varint   the number of the segment's snapshot record (identity and context)
///     eventID       string   (an alias call: the previous ID; an identify call: empty)
///     screen        string   (when flagged)
///     handler       string   (control events)
///     wireName      string   (when flagged) the name the event goes by on the wire (`wire_name`)
///     destinations  varint count, then strings: the plan's destinations a collector destination
///                            forwards the event to (when flagged; not flagged: every destination)
///     count         varint   properties (an identify call: the traits it set), then each: key
///                            string, tag u8, value (0 string, 1 int i64, 2 double f64, 3 false, 4 true)
///
/// Bits 2 and 3 came later within version 2: a release before them drops (and counts) a record that
/// has them, whose wire name it cannot read.
///
/// Version 1 (earlier releases) has no snapshot and no destinations list, and kinds 0 to 3 only; its
/// events are read with the identity in force when the journal opened.
///
/// A string is a varint byte count and UTF-8. Decoding checks every bound: a record that passed its
/// checksum but does not decode (written by a newer version, say) is dropped and counted, never trusted.
enum EventCoding {
  /// The fields of an event being tracked, before it has an ID and a time. Made with the memberwise
  /// initializer: with an initializer of its own, the optimizer copied the whole draft on every event.
  struct Draft {
    var eventID: String
    var source: TrackingEvent.Source
    var screen: String?
    /// In order, a later pair of a key winning when the event is read back: usually the rule's static
    /// properties (its own array, shared, not copied per event).
    var properties: PropertyPairs
    /// Written after `properties` as if appended to them: an event's bound values, or those passed to
    /// `track()`. Kept apart so that an event's own values never copy the rule's.
    var extra: PropertyPairs = []
    /// For collector destinations: the plan destinations it goes to; nil for all.
    var forwardedTo: [String]? = nil
    /// The plan's `wire_name` for the event; nil for its ID.
    var wireName: String? = nil
    /// A page's enter event that goes as a track call.
    var sendsEnterAsTrack = false
  }

  static let fixedSize = 8 + 16 + 8 + 1 + 1

  static func encodedSize(_ draft: Draft, snapshot: Int) -> Int {
    var size = fixedSize + varintSize(UInt64(snapshot))
    switch draft.source {
    case .alias(let previous): size += stringSize(previous)
    case .identify: size += 1
    default: size += stringSize(draft.eventID)
    }
    if let screen = draft.screen { size += stringSize(screen) }
    if case .control(let handler) = draft.source { size += stringSize(handler) }
    if let wireName = draft.wireName { size += stringSize(wireName) }
    if let forwarded = draft.forwardedTo {
      size += varintSize(UInt64(forwarded.count))
      for name in forwarded { size += stringSize(name) }
    }
    return size + propertiesSize(draft.properties, then: draft.extra)
  }

  static func propertiesSize(_ properties: [String: PropertyValue]) -> Int {
    propertiesSize(PropertyPairs(properties))
  }

  /// The size of `properties` followed by `extra`, written as one list.
  static func propertiesSize(_ properties: PropertyPairs, then extra: PropertyPairs = []) -> Int {
    varintSize(UInt64(properties.count + extra.count)) + pairsSize(properties) + pairsSize(extra)
  }

  private static func pairsSize(_ pairs: PropertyPairs) -> Int {
    var size = 0
    for (key, value) in pairs {
      size += stringSize(key) + 1
      switch value {
      case .string(let string): size += stringSize(string)
      case .int, .double: size += 8
      case .bool: break
      }
    }
    return size
  }

  /// Writes the payload; `destination` has room for `encodedSize(draft, snapshot:)` bytes.
  static func encode(
    _ draft: Draft, destinations: UInt64, messageID: uuid_t, microseconds: Int64, snapshot: Int, into destination: UnsafeMutableRawPointer
  ) -> Int {
    var writer = Writer(pointer: destination)
    writer.u64(destinations)
    withUnsafeBytes(of: messageID) { writer.bytes($0) }
    writer.u64(UInt64(bitPattern: microseconds))
    switch draft.source {
    case .page(.enter): writer.u8(0)
    case .page(.leave): writer.u8(1)
    case .control: writer.u8(2)
    case .manual: writer.u8(3)
    case .identify: writer.u8(4)
    case .alias: writer.u8(5)
    }
    writer.u8(
      (draft.screen == nil ? 0 : 1) | (draft.forwardedTo == nil ? 0 : 2) | (draft.wireName == nil ? 0 : 4) | (draft.sendsEnterAsTrack ? 8 : 0))
    writer.varint(UInt64(snapshot))
    switch draft.source {
    case .alias(let previous): writer.string(previous)
    case .identify: writer.string("")
    default: writer.string(draft.eventID)
    }
    if let screen = draft.screen { writer.string(screen) }
    if case .control(let handler) = draft.source { writer.string(handler) }
    if let wireName = draft.wireName { writer.string(wireName) }
    if let forwarded = draft.forwardedTo {
      writer.varint(UInt64(forwarded.count))
      for name in forwarded { writer.string(name) }
    }
    writer.properties(draft.properties, then: draft.extra)
    return writer.offset
  }

  /// The destinations mask, without decoding the rest.
  static func destinations(of payload: UnsafeRawBufferPointer) -> UInt64? {
    guard payload.count >= 8 else { return nil }
    return UInt64(littleEndian: payload.loadUnaligned(as: UInt64.self))
  }

  /// An event of a segment of `version`, with the segment's snapshots (by number); `fallback` for a
  /// version 1 record, which has none. Nil when it does not decode, or refers to a snapshot the segment
  /// does not have.
  static func decode(
    _ payload: UnsafeRawBufferPointer, version: UInt16 = Segment.version, snapshots: [EventSnapshot?] = [],
    fallback: EventSnapshot = .unknown
  ) -> TrackingEvent? {
    var reader = Reader(buffer: payload)
    guard reader.u64() != nil, let idBytes = reader.bytes(16), let microseconds = reader.u64(), let kind = reader.u8(),
      let flags = reader.u8()
    else { return nil }
    let snapshot: EventSnapshot
    if version >= 2 {
      guard let number = reader.varint(), number < UInt64(snapshots.count), let found = snapshots[Int(number)] else { return nil }
      snapshot = found
    } else {
      guard kind <= 3 else { return nil }
      snapshot = fallback
    }
    guard let eventID = reader.string() else { return nil }
    var screen: String?
    if flags & 1 != 0 {
      guard let value = reader.string() else { return nil }
      screen = value
    }
    let source: TrackingEvent.Source
    switch kind {
    case 0: source = .page(.enter)
    case 1: source = .page(.leave)
    case 2:
      guard let handler = reader.string() else { return nil }
      source = .control(handler: handler)
    case 3: source = .manual
    case 4: source = .identify
    case 5: source = .alias(previousID: eventID)
    default: return nil
    }
    var wireName: String?
    if flags & 4 != 0 {
      guard let value = reader.string() else { return nil }
      wireName = value
    }
    var forwardedTo: [String]?
    if flags & 2 != 0 {
      guard version >= 2, let count = reader.varint(), count <= UInt64(payload.count) else { return nil }
      var names: [String] = []
      for _ in 0..<count {
        guard let name = reader.string() else { return nil }
        names.append(name)
      }
      forwardedTo = names
    }
    guard let properties = reader.properties(), reader.offset == payload.count else { return nil }
    let id = UUID(uuid: idBytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
    let timestamp = Date(timeIntervalSince1970: Double(Int64(bitPattern: microseconds)) / 1_000_000)
    let name: String
    switch source {
    case .identify, .alias: name = ""
    default: name = eventID
    }
    return TrackingEvent(
      id: name, source: source, screen: screen, properties: properties, timestamp: timestamp, messageID: id, snapshot: snapshot,
      forwardedTo: forwardedTo, wireName: wireName, sendsEnterAsTrack: flags & 8 != 0)
  }

  static func stringSize(_ string: String) -> Int {
    let count = string.utf8.count
    return varintSize(UInt64(count)) + count
  }

  static func varintSize(_ value: UInt64) -> Int {
    var value = value
    var size = 1
    while value >= 0x80 {
      value >>= 7
      size += 1
    }
    return size
  }

  struct Writer {
    let pointer: UnsafeMutableRawPointer
    var offset = 0

    mutating func u8(_ value: UInt8) {
      pointer.storeBytes(of: value, toByteOffset: offset, as: UInt8.self)
      offset += 1
    }

    mutating func u64(_ value: UInt64) {
      pointer.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
      offset += 8
    }

    mutating func varint(_ value: UInt64) {
      var value = value
      while value >= 0x80 {
        u8(UInt8(truncatingIfNeeded: value) | 0x80)
        value >>= 7
      }
      u8(UInt8(value))
    }

    mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
      guard let base = bytes.baseAddress, bytes.count > 0 else { return }
      (pointer + offset).copyMemory(from: base, byteCount: bytes.count)
      offset += bytes.count
    }

    mutating func properties(_ properties: [String: PropertyValue]) {
      self.properties(PropertyPairs(properties))
    }

    /// `properties` followed by `extra`, as one list.
    mutating func properties(_ properties: PropertyPairs, then extra: PropertyPairs = []) {
      varint(UInt64(properties.count + extra.count))
      pairs(properties)
      pairs(extra)
    }

    private mutating func pairs(_ pairs: PropertyPairs) {
      for (key, value) in pairs {
        string(key)
        switch value {
        case .string(let text):
          u8(0)
          string(text)
        case .int(let int):
          u8(1)
          u64(UInt64(bitPattern: Int64(int)))
        case .double(let double):
          u8(2)
          u64(double.bitPattern)
        case .bool(let bool): u8(bool ? 4 : 3)
        }
      }
    }

    mutating func string(_ string: String) {
      let count = string.utf8.count
      varint(UInt64(count))
      let copied = string.utf8.withContiguousStorageIfAvailable { utf8 in
        bytes(UnsafeRawBufferPointer(utf8))
        return true
      }
      if copied == nil {
        for byte in string.utf8 { u8(byte) }
      }
    }
  }

  struct Reader {
    let buffer: UnsafeRawBufferPointer
    var offset = 0

    mutating func u8() -> UInt8? {
      guard offset < buffer.count else { return nil }
      defer { offset += 1 }
      return buffer[offset]
    }

    mutating func u64() -> UInt64? {
      guard buffer.count - offset >= 8 else { return nil }
      defer { offset += 8 }
      return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    mutating func varint() -> UInt64? {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while shift < 64 {
        guard let byte = u8() else { return nil }
        value |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 { return value }
        shift += 7
      }
      return nil
    }

    mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer? {
      guard count >= 0, buffer.count - offset >= count else { return nil }
      defer { offset += count }
      return UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + count)])
    }

    mutating func string() -> String? {
      guard let length = varint(), length <= UInt64(buffer.count - offset), let bytes = bytes(Int(length)) else { return nil }
      return String(decoding: bytes, as: UTF8.self)
    }

    mutating func properties() -> [String: PropertyValue]? {
      guard let count = varint(), count <= UInt64(buffer.count) else { return nil }
      var properties: [String: PropertyValue] = [:]
      properties.reserveCapacity(Int(count))
      for _ in 0..<count {
        guard let key = string(), let tag = u8() else { return nil }
        switch tag {
        case 0:
          guard let value = string() else { return nil }
          properties[key] = .string(value)
        case 1:
          guard let value = u64() else { return nil }
          properties[key] = .int(Int(truncatingIfNeeded: Int64(bitPattern: value)))
        case 2:
          guard let value = u64() else { return nil }
          properties[key] = .double(Double(bitPattern: value))
        case 3: properties[key] = .bool(false)
        case 4: properties[key] = .bool(true)
        default: return nil
        }
      }
      return properties
    }
  }
}

extension EventCoding.Draft {
  init(
    eventID: String, source: TrackingEvent.Source, screen: String?, properties: [String: PropertyValue], forwardedTo: [String]? = nil,
    wireName: String? = nil, sendsEnterAsTrack: Bool = false
  ) {
    self.init(
      eventID: eventID, source: source, screen: screen, properties: PropertyPairs(properties), forwardedTo: forwardedTo, wireName: wireName,
      sendsEnterAsTrack: sendsEnterAsTrack)
  }
}

/// Message IDs in UUIDv7 form (RFC 9562): the acceptance time in milliseconds, then 74 bits that are
/// random per process (drawn once) mixed with a per-process counter. Unique within a process for 2^62
/// events whatever the clock does (an odd multiplier is a bijection), unique across processes like
/// random UUIDs, and without asking the system for randomness or formatting a string on every event.
struct MessageIDGenerator: Sendable {
  private let randomA: UInt16
  private let randomB: UInt64

  init() {
    var generator = SystemRandomNumberGenerator()
    randomA = UInt16.random(in: 0...0x0FFF, using: &generator)
    randomB = generator.next()
  }

  func id(milliseconds: UInt64, sequence: UInt64) -> uuid_t {
    let low = (randomB &+ sequence &* 0x9E37_79B9_7F4A_7C15) & 0x3FFF_FFFF_FFFF_FFFF
    let millis = milliseconds & 0xFFFF_FFFF_FFFF
    return (
      UInt8(truncatingIfNeeded: millis >> 40), UInt8(truncatingIfNeeded: millis >> 32), UInt8(truncatingIfNeeded: millis >> 24),
      UInt8(truncatingIfNeeded: millis >> 16), UInt8(truncatingIfNeeded: millis >> 8), UInt8(truncatingIfNeeded: millis),
      0x70 | UInt8(truncatingIfNeeded: randomA >> 8), UInt8(truncatingIfNeeded: randomA),
      0x80 | UInt8(truncatingIfNeeded: low >> 56), UInt8(truncatingIfNeeded: low >> 48), UInt8(truncatingIfNeeded: low >> 40),
      UInt8(truncatingIfNeeded: low >> 32), UInt8(truncatingIfNeeded: low >> 24), UInt8(truncatingIfNeeded: low >> 16),
      UInt8(truncatingIfNeeded: low >> 8), UInt8(truncatingIfNeeded: low)
    )
  }
}
