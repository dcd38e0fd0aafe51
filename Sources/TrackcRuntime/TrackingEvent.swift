import Foundation

/// An event as destinations receive it.
public struct TrackingEvent: Sendable, Hashable {
  public enum Source: Sendable, Hashable {
    case page(PagePhase)
    case control(handler: String)
    /// Tracked by hand with an event ID.
    case manual
    /// The app identified the user (`Tracker.identify(userID:traits:)`); its properties are the traits
    /// that call set. Only collector destinations receive it (others see the identity on each event),
    /// told to leave out the destinations consent refuses (`withheldFrom`).
    case identify
    /// The app merged an earlier identity into the user's (`Tracker.alias(_:)`). Collector destinations only.
    case alias(previousID: String)
  }

  /// The event ID from the config (empty for identify and alias calls).
  public let id: String
  /// The name the event goes by on the wire, where the plan gives one (`wire_name`): a track call's
  /// event name, or a screen call's screen name; nil where that is the ID (or the screen).
  public let wireName: String?
  /// The name destinations know the event by: its `wire_name`, else its ID.
  public var name: String { wireName ?? id }
  /// A page's enter event that goes as a track call (`call: track` in the plan) rather than a screen call.
  let sendsEnterAsTrack: Bool
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
  /// For a collector destination, when `forwardedTo` is nil (the event is for every destination): the
  /// plan's destinations it must not reach, because the person refused their consent category (the
  /// collector is told so, as Segment's `integrations` says: `"All": true` and each of these `false`).
  /// Empty when none is left out.
  public let withheldFrom: [String]
  /// For a collector, with consent categories in the plan: each category, by the workspace's name for it,
  /// and whether this event may reach its destinations (what Segment's consent management reads in
  /// `context.consent.categoryPreferences`). Set when a lane hands the event over.
  var categoryPreferences: [String: Bool] = [:]
  /// The identity and context in force when `track()` returned.
  let snapshot: EventSnapshot

  /// Who the event is about, as it was when the event was tracked.
  public var identity: TrackingIdentity { snapshot.identity }
  /// Where the event came from: app, device, OS, locale, time zone, screen.
  public var context: TrackingContext { snapshot.context }

  public init(
    id: String, source: Source, screen: String?, properties: [String: PropertyValue], timestamp: Date, messageID: UUID,
    identity: TrackingIdentity = TrackingIdentity(anonymousID: ""), context: TrackingContext = TrackingContext(), forwardedTo: [String]? = nil,
    withheldFrom: [String] = []
  ) {
    self.init(
      id: id, source: source, screen: screen, properties: properties, timestamp: timestamp, messageID: messageID,
      snapshot: EventSnapshot(identity: identity, context: context), forwardedTo: forwardedTo, withheldFrom: withheldFrom)
  }

  init(
    id: String, source: Source, screen: String?, properties: [String: PropertyValue], timestamp: Date, messageID: UUID,
    snapshot: EventSnapshot, forwardedTo: [String]?, withheldFrom: [String] = [], wireName: String? = nil, sendsEnterAsTrack: Bool = false
  ) {
    self.id = id
    self.wireName = wireName
    self.sendsEnterAsTrack = sendsEnterAsTrack
    self.source = source
    self.screen = screen
    self.properties = properties
    self.timestamp = timestamp
    self.messageID = messageID
    self.snapshot = snapshot
    self.forwardedTo = forwardedTo
    self.withheldFrom = forwardedTo == nil ? withheldFrom : []
  }

  public var handler: String? {
    if case .control(let handler) = source { return handler }
    return nil
  }
}
