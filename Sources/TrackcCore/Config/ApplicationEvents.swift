/// `application:` in the plan: the app's lifecycle events, which the runtime tracks itself (as Segment's
/// libraries do) when the plan maps them to event IDs.
extension TrackingConfig {
  /// One of the lifecycle events the runtime tracks, as the runtime's `ApplicationEvent` names it.
  public enum ApplicationEvent: String, Sendable, Hashable, CaseIterable {
    /// The first launch on this device (Segment's "Application Installed").
    case installed
    /// The first launch of another version or build ("Application Updated").
    case updated
    /// Every launch, and every return from the background ("Application Opened").
    case opened
    /// The app went to the background ("Application Backgrounded").
    case backgrounded

    /// The properties the runtime itself sends with the event, in the order messages list them: the
    /// app's version and build (`CFBundleShortVersionString`, `CFBundleVersion`; left out when the app
    /// has none), the last launch's for an update, and whether an open is a return from the background.
    /// The plan declares none of them, and cannot set them: the runtime's values win.
    public var sentProperties: [(key: String, type: PropertyType)] {
      let app: [(key: String, type: PropertyType)] = [("version", .string), ("build", .string)]
      switch self {
      case .installed: return app
      case .updated: return app + [("previous_version", .string), ("previous_build", .string)]
      case .opened: return [("from_background", .bool)] + app
      case .backgrounded: return []
      }
    }
  }

  /// One entry of `application:`: which lifecycle event, and the plan's event for it.
  public struct ApplicationMapping: Sendable {
    public var kind: Located<ApplicationEvent>
    public var event: EventRule
  }
}
