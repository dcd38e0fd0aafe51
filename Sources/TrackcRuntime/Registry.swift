/// What `trackc generate` writes from a tracking config, and the tracker reads: which event a page
/// phase or a handler of a screen emits, with its routing and static properties.
///
/// Lookups are `switch`es generated at compile time (no table is built at start-up); screens and
/// handlers are numbered so that intercepted calls compare integers, not strings.
public protocol TrackingRegistry: Sendable {
  /// The screen a type is, by its name as `String(reflecting:)` writes it (`Home.HomeViewController`)
  /// or without the module (`HomeViewController`); also for subclasses that the config does not list
  /// but whose superclass it does.
  func screen(named name: String) -> ScreenID?
  /// A handler by its Swift name (`open(item:at:)`) or its Objective-C selector (`openWithItem:at:`).
  func handler(named name: String) -> HandlerID?
  func pageRule(screen: ScreenID, phase: PagePhase) -> EventRule?
  func controlRule(screen: ScreenID, handler: HandlerID) -> EventRule?
  /// The rule an event ID is mapped by (the first, in config order), for events tracked by hand.
  func rule(eventID: String) -> EventRule?
  /// The screen's name as the config writes it, for the events.
  func name(of screen: ScreenID) -> String
  /// The handler's Swift name, for the events.
  func name(of handler: HandlerID) -> String
  /// The consent category that gates a destination (its `consent:` in the plan); nil when none does.
  func consentCategory(ofDestination id: String) -> String?
  /// The plan's consent categories (`privacy.consent`), each with whether it counts as granted before the
  /// person answers; empty when the plan declares none (then no destination is gated).
  var consentDefaults: [String: Bool] { get }
  /// The screen a SwiftUI view is when a hosting controller shows it as its root view (under
  /// `interception: objc-runtime`), by the view's type name; nil for a view that reports its own
  /// appearance with `.tracked(_:)` in its body, which would otherwise be reported twice.
  func hostedScreen(named name: String) -> ScreenID?
}

extension TrackingRegistry {
  /// A registry generated from a plan without consent categories gates nothing.
  public func consentCategory(ofDestination id: String) -> String? { nil }
  public var consentDefaults: [String: Bool] { [:] }
  /// Every screen a view can be: no view of the plan reports its own appearance.
  public func hostedScreen(named name: String) -> ScreenID? { screen(named: name) }
}

/// A screen of the config, numbered by the generator.
public struct ScreenID: RawRepresentable, Hashable, Sendable {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }
}

/// A handler name of the config, numbered by the generator (the same name on two screens is one ID).
public struct HandlerID: RawRepresentable, Hashable, Sendable {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }
}

public enum PagePhase: String, Sendable, Hashable, CaseIterable {
  case enter, leave
}

/// A static event property from the config.
public enum PropertyValue: Sendable, Hashable, CustomStringConvertible {
  case string(String)
  case int(Int)
  case double(Double)
  case bool(Bool)

  public var description: String {
    switch self {
    case .string(let value): return value
    case .int(let value): return String(value)
    case .double(let value): return String(value)
    case .bool(let value): return String(value)
    }
  }
}

/// Where an event may go.
public enum Routing: Sendable, Hashable {
  /// The config declares no destinations: every destination the tracker has.
  case unrestricted
  /// Only these destination IDs (the config's `destinations`, or its defaults minus `exclude`).
  case only(Set<String>)

  public func allows(_ destinationID: String) -> Bool {
    switch self {
    case .unrestricted: return true
    case .only(let destinations): return destinations.contains(destinationID)
    }
  }
}

/// One event mapping of the config.
public struct EventRule: Sendable, Hashable {
  public let eventID: String
  public let routing: Routing
  public let properties: [String: PropertyValue]
  /// Under `interception: objc-runtime`, the bound properties the adapter reads by key path.
  public let keyPathBindings: [KeyPathBinding]
  /// The destinations of `.only` routing, sorted once (what a collector is told, in a stable order).
  let destinationIDs: [String]

  public init(eventID: String, routing: Routing, properties: [String: PropertyValue] = [:], keyPathBindings: [KeyPathBinding] = []) {
    self.eventID = eventID
    self.routing = routing
    self.properties = properties
    self.keyPathBindings = keyPathBindings
    if case .only(let destinations) = routing { destinationIDs = destinations.sorted() } else { destinationIDs = [] }
  }
}

/// The typed event IDs that `trackc generate` writes (an enum with the ID as raw value) conform to
/// this, so that code which tracks by hand names events the compiler can check.
public protocol TrackingEventID: RawRepresentable, Sendable where RawValue == String {}
