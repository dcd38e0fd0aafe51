import Foundation

/// An event as destinations receive it.
public struct TrackingEvent: Sendable, Hashable {
  public enum Source: Sendable, Hashable {
    case page(PagePhase)
    case control(handler: String)
    /// Tracked by hand with an event ID.
    case manual
  }

  /// The event ID from the config.
  public let id: String
  public let source: Source
  /// The screen as the config names it; nil for events tracked by hand without one.
  public let screen: String?
  public let properties: [String: PropertyValue]
  public let timestamp: Date
  /// Unique per event, for destinations that deduplicate (a retried delivery, say).
  public let messageID: UUID

  public init(id: String, source: Source, screen: String?, properties: [String: PropertyValue], timestamp: Date, messageID: UUID) {
    self.id = id
    self.source = source
    self.screen = screen
    self.properties = properties
    self.timestamp = timestamp
    self.messageID = messageID
  }

  public var handler: String? {
    if case .control(let handler) = source { return handler }
    return nil
  }
}

/// Message IDs: a random 128-bit base per process plus a counter, in UUID (version 4) form. Unique like
/// random UUIDs across processes, without asking the system for randomness on every event.
struct MessageIDGenerator: Sendable {
  private let high: UInt64
  private let low: UInt64

  init() {
    var generator = SystemRandomNumberGenerator()
    high = generator.next()
    low = generator.next()
  }

  func id(_ sequence: UInt64) -> UUID {
    // The counter is spread over the low half (an odd multiplier is a bijection), so IDs differ early.
    let mixed = low ^ (sequence &* 0x9E37_79B9_7F4A_7C15)
    var bytes = (high.bigEndian, mixed.bigEndian)
    return withUnsafeMutableBytes(of: &bytes) { raw in
      raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
      raw[8] = (raw[8] & 0x3F) | 0x80  // RFC 4122 variant
      return UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7], raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
    }
  }
}
