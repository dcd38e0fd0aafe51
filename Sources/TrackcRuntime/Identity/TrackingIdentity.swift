import Foundation

/// Who an event is about, as Segment's API names it: the install's anonymous ID, the user ID once the
/// app has identified the user, and the user's traits. Fixed when `track()` returns and journaled with
/// the event (by reference: see `EventSnapshot`), so that an event queued before `identify`, `reset` or a
/// restart goes out under the identity it was tracked with.
public struct TrackingIdentity: Sendable, Hashable {
  /// Made once per install (and again by `reset()`): a random UUID, lower case.
  public let anonymousID: String
  /// Set by `identify(userID:traits:)` and `alias(_:)`, cleared by `reset()`.
  public let userID: String?
  /// What `identify` said about the user (merged across calls for the same user), sent as
  /// `context.traits` with every event and as `traits` with the identify call.
  public let traits: [String: PropertyValue]

  public init(anonymousID: String, userID: String? = nil, traits: [String: PropertyValue] = [:]) {
    self.anonymousID = anonymousID
    self.userID = userID
    self.traits = traits
  }

  /// A new install's identity: a fresh anonymous ID, no user.
  static func fresh() -> TrackingIdentity {
    TrackingIdentity(anonymousID: UUID().uuidString.lowercased())
  }
}

/// Where events come from, as Segment's `context` names it: the app, the device, the operating system,
/// the locale and time zone, the screen, and this library. Collected once when the tracker starts (and
/// again when the locale or time zone changes), and journaled by reference, so `track()` pays nothing
/// for it. On Apple platforms from the bundle and UIKit; on Linux from `uname` and the environment.
public struct TrackingContext: Sendable, Hashable {
  public struct App: Sendable, Hashable {
    public var name: String?
    /// `CFBundleShortVersionString`.
    public var version: String?
    /// `CFBundleVersion`.
    public var build: String?
    /// The bundle identifier (Segment's `namespace`).
    public var namespace: String?

    public init(name: String? = nil, version: String? = nil, build: String? = nil, namespace: String? = nil) {
      self.name = name
      self.version = version
      self.build = build
      self.namespace = namespace
    }
  }

  public struct Device: Sendable, Hashable {
    /// The hardware model (`iPhone15,2`; on Linux the machine, `x86_64`).
    public var model: String?
    public var manufacturer: String?
    /// `ios`, `ipados`, `macos`, `linux`...
    public var type: String?

    public init(model: String? = nil, manufacturer: String? = nil, type: String? = nil) {
      self.model = model
      self.manufacturer = manufacturer
      self.type = type
    }
  }

  public struct OS: Sendable, Hashable {
    public var name: String?
    public var version: String?

    public init(name: String? = nil, version: String? = nil) {
      self.name = name
      self.version = version
    }
  }

  /// The main screen in points (nil where there is none).
  public struct Screen: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// Pixels per point.
    public var density: Double?

    public init(width: Int, height: Int, density: Double? = nil) {
      self.width = width
      self.height = height
      self.density = density
    }
  }

  public var app: App
  public var device: Device
  public var os: OS
  /// BCP 47 (`en-GB`).
  public var locale: String?
  /// IANA (`Europe/Paris`).
  public var timezone: String?
  public var screen: Screen?

  public init(
    app: App = App(), device: Device = Device(), os: OS = OS(), locale: String? = nil, timezone: String? = nil, screen: Screen? = nil
  ) {
    self.app = app
    self.device = device
    self.os = os
    self.locale = locale
    self.timezone = timezone
    self.screen = screen
  }

  /// This library, as `context.library` names it.
  public static let libraryName = "trackc"
  public static let libraryVersion = "0.2.0"
}
