/// An analytics destination (a plugin): Firebase, Mixpanel, a collector of your own.
///
/// Each destination receives its events on its own delivery thread, in the order they were tracked;
/// one that is slow or throws never delays or breaks the others. A destination that sends over the
/// network does its own buffering and retrying inside `receive` (or hands events to a queue there).
public protocol TrackingDestination: AnyObject, Sendable {
  /// The ID the config's `destinations` use.
  var id: String { get }
  /// Whether this destination wants the event (a plan that excludes some events, say). Called on the
  /// destination's delivery thread, just before `receive`.
  func isApplicable(to event: TrackingEvent) -> Bool
  /// Delivers one event. A thrown error is counted and reported; the next event is delivered anyway.
  func receive(_ event: TrackingEvent) throws
}

extension TrackingDestination {
  public func isApplicable(to event: TrackingEvent) -> Bool { true }
}

/// Which destinations remote configuration has switched on. Asked once per event and destination on
/// the tracking thread, so it must answer from memory (keep the fetched configuration in a snapshot).
public protocol DestinationConfiguration: Sendable {
  func isEnabled(_ destinationID: String) -> Bool
}

/// Every destination on: the default.
public struct AllDestinationsEnabled: DestinationConfiguration {
  public init() {}
  public func isEnabled(_ destinationID: String) -> Bool { true }
}

/// A fixed set of enabled destinations (tests, or a configuration that never changes).
public struct FixedDestinationConfiguration: DestinationConfiguration {
  public let enabled: Set<String>
  public init(enabled: Set<String>) { self.enabled = enabled }
  public func isEnabled(_ destinationID: String) -> Bool { enabled.contains(destinationID) }
}
