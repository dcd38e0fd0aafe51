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
  /// A UUIDv7 fixed when `track()` accepted the event and never regenerated (a retried upload carries
  /// the same one), for destinations that deduplicate.
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
