import Foundation

/// An event as destinations receive it.
public struct TrackingEvent: Sendable, Hashable {
  public enum Source: Sendable, Hashable {
    case page(PagePhase)
    case control(handler: String)
    /// Tracked by hand with an event ID.
    case manual
    /// The app identified the user (`Tracker.identify(userID:traits:)`); its properties are the traits
    /// that call set. Only collector destinations receive it (others see the identity on each event).
    case identify
    /// The app merged an earlier identity into the user's (`Tracker.alias(_:)`). Collector destinations only.
    case alias(previousID: String)
  }

  /// The event ID from the config (empty for identify and alias calls).
  public let id: String
  public let source: Source
  /// The screen as the config names it; nil for events tracked by hand without one.
  public let screen: String?
  public let properties: [String: PropertyValue]
  public let timestamp: Date
  /// A UUIDv7 fixed when `track()` accepted the event and never regenerated (a retried upload carries
  /// the same one), for destinations that deduplicate.
  public let messageID: UUID
  /// For a collector destination: the plan's destinations the event is for (the collector forwards it
  /// to those, as Segment's `integrations` says); nil when the plan does not restrict its routing.
  public let forwardedTo: [String]?
  /// The identity and context in force when `track()` returned.
  let snapshot: EventSnapshot

  /// Who the event is about, as it was when the event was tracked.
  public var identity: TrackingIdentity { snapshot.identity }
  /// Where the event came from: app, device, OS, locale, time zone, screen.
  public var context: TrackingContext { snapshot.context }

  public init(
    id: String, source: Source, screen: String?, properties: [String: PropertyValue], timestamp: Date, messageID: UUID,
    identity: TrackingIdentity = TrackingIdentity(anonymousID: ""), context: TrackingContext = TrackingContext(), forwardedTo: [String]? = nil
  ) {
    self.init(
      id: id, source: source, screen: screen, properties: properties, timestamp: timestamp, messageID: messageID,
      snapshot: EventSnapshot(identity: identity, context: context), forwardedTo: forwardedTo)
  }

  init(
    id: String, source: Source, screen: String?, properties: [String: PropertyValue], timestamp: Date, messageID: UUID,
    snapshot: EventSnapshot, forwardedTo: [String]?
  ) {
    self.id = id
    self.source = source
    self.screen = screen
    self.properties = properties
    self.timestamp = timestamp
    self.messageID = messageID
    self.snapshot = snapshot
    self.forwardedTo = forwardedTo
  }

  public var handler: String? {
    if case .control(let handler) = source { return handler }
    return nil
  }
}
