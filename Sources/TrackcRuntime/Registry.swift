#if canImport(ObjectiveC)
  import ObjectiveC
#endif

/// What `trackc generate` writes from a tracking config, and the tracker reads: which event a page
/// phase or a handler of a screen emits, with its routing and static properties.
///
/// Lookups are `switch`es generated at compile time (no table is built at start-up); screens and
/// handlers are numbered so that intercepted calls compare integers, not strings.
public protocol TrackingRegistry: Sendable {
  // Every requirement is for generated code alone (`@_spi(Generated) import TrackcRuntime`): an app
  // passes its registry to `Trackc.start` and never calls it.

  /// The screen a type is, by its name as `String(reflecting:)` writes it (`Home.HomeViewController`)
  /// or without the module (`HomeViewController`); also for subclasses that the config does not list
  /// but whose superclass it does.
  @_spi(Generated) func screen(named name: String) -> ScreenID?
  /// A handler by its Swift name (`open(item:at:)`) or its Objective-C selector (`openWithItem:at:`).
  @_spi(Generated) func handler(named name: String) -> HandlerID?
  @_spi(Generated) func pageRule(screen: ScreenID, phase: PagePhase) -> EventRule?
  @_spi(Generated) func controlRule(screen: ScreenID, handler: HandlerID) -> EventRule?
  /// The rule an event ID is mapped by (the first, in config order), for events tracked by hand.
  @_spi(Generated) func rule(eventID: String) -> EventRule?
  /// The screen's name as the config writes it, for the events.
  @_spi(Generated) func name(of screen: ScreenID) -> String
  /// The handler's Swift name, for the events.
  @_spi(Generated) func name(of handler: HandlerID) -> String
  /// The consent category that gates a destination (its `consent:` in the plan); nil when none does.
  @_spi(Generated) func consentCategory(ofDestination id: String) -> String?
  /// The plan's consent categories (`privacy.consent`), each with whether it counts as granted before the
  /// person answers; empty when the plan declares none (then no destination is gated).
  @_spi(Generated) var consentDefaults: [String: Bool] { get }
  /// The plan's destinations a consent category gates, by ID, in the plan's order: those a collector is
  /// told to leave out (`integrations`, `false`) of a call for every destination when the person refused
  /// their category. Empty when the plan declares no categories.
  @_spi(Generated) var consentGatedDestinations: [String] { get }
  /// A category's name in the workspace's consent settings (`wire_name`: what Segment's
  /// `context.consent.categoryPreferences` names it); nil when it is the plan's name.
  @_spi(Generated) func consentWireName(ofCategory category: String) -> String?
  /// The categories that wait for the person's first answer (`default: pending`): until it, events for
  /// their destinations are journaled and held, not sent and not dropped. Empty when none waits.
  @_spi(Generated) var pendingConsentCategories: Set<String> { get }
  /// How many events, and for how long, may wait for a pending category (`privacy.pending`).
  @_spi(Generated) var pendingConsentLimits: PendingConsentLimits { get }
  /// How long an event may wait for a destination's pending category where the plan says so for the
  /// destination (`pending_hours`), in hours; nil where `pendingConsentLimits` says.
  @_spi(Generated) func pendingConsentHours(ofDestination id: String) -> Double?
  /// The name a collector knows a plan destination by (its `wire_name`, such as Segment's catalogue name
  /// `Mixpanel`), sent in `integrations`; nil when it is the destination's ID.
  @_spi(Generated) func wireName(ofDestination id: String) -> String?
  /// The plan the registry was generated from (its `plan_version` and content hash), stamped on every
  /// call a collector gets (`context.trackingPlan`); nil for a registry written by hand.
  @_spi(Generated) var plan: PlanStamp? { get }
  /// The screen a SwiftUI view is when a hosting controller shows it as its root view (under
  /// `interception: objc-runtime`), by the view's type name; nil for a view that reports its own
  /// appearance with `.tracked(_:)` in its body, which would otherwise be reported twice.
  @_spi(Generated) func hostedScreen(named name: String) -> ScreenID?
  /// The rule of an application event the plan declares (`application:`); nil when it declares none.
  @_spi(Generated) func applicationRule(_ event: ApplicationEvent) -> EventRule?
  /// Whether the plan's handlers and pages are seen through UIKit's hooks (`interception:
  /// objc-runtime`): `Trackc.start` then installs them on Apple platforms.
  @_spi(Generated) var hooksUIKit: Bool { get }
  /// Under `interception: objc-runtime`, each mapped handler's class and selector, whose implementation
  /// the runtime replaces at start (`ObjCHandlerHook`): the screen's class, and each subclass in the
  /// sources that overrides the handler.
  @_spi(Generated) var objcHandlerHooks: [ObjCHandlerHook] { get }
  #if canImport(ObjectiveC)
    /// The implementation that replaces `original` for a hook: a block (`imp_implementationWithBlock`)
    /// of the hook's shape of Objective-C signature, that reports the call and calls `original` with
    /// `selector`; nil for a shape the registry does not know.
    @_spi(Generated) func objcReplacement(for hook: ObjCHandlerHook, original: IMP, selector: Selector) -> Any?
  #endif
}

extension TrackingRegistry {
  /// A registry generated from a plan without consent categories gates nothing.
  @_spi(Generated) public func consentCategory(ofDestination id: String) -> String? { nil }
  @_spi(Generated) public var consentDefaults: [String: Bool] { [:] }
  @_spi(Generated) public var consentGatedDestinations: [String] { [] }
  @_spi(Generated) public func consentWireName(ofCategory category: String) -> String? { nil }
  @_spi(Generated) public var pendingConsentCategories: Set<String> { [] }
  @_spi(Generated) public var pendingConsentLimits: PendingConsentLimits { .default }
  @_spi(Generated) public func pendingConsentHours(ofDestination id: String) -> Double? { nil }
  @_spi(Generated) public func wireName(ofDestination id: String) -> String? { nil }
  @_spi(Generated) public var plan: PlanStamp? { nil }
  @_spi(Generated) public func applicationRule(_ event: ApplicationEvent) -> EventRule? { nil }
  /// Generated for dynamic replacement (or written by hand): no hooks.
  @_spi(Generated) public var hooksUIKit: Bool { false }
  @_spi(Generated) public var objcHandlerHooks: [ObjCHandlerHook] { [] }
  #if canImport(ObjectiveC)
    @_spi(Generated) public func objcReplacement(for hook: ObjCHandlerHook, original: IMP, selector: Selector) -> Any? { nil }
  #endif
  /// Every screen a view can be: no view of the plan reports its own appearance.
  @_spi(Generated) public func hostedScreen(named name: String) -> ScreenID? { screen(named: name) }
}

/// Which plan built an event: the plan's `plan_version` (nil when it gives none) and the hash of its
/// config file's content (`fnv1a64:` and 16 hex digits), as `trackc generate` wrote them into the
/// registry. Every call a collector gets carries them (`context.trackingPlan`), so that a collector or a
/// warehouse can tell which plan an event was checked against.
public struct PlanStamp: Sendable, Hashable {
  public var version: String?
  public var hash: String

  public init(version: String?, hash: String) {
    self.version = version
    self.hash = hash
  }
}

/// How much may wait for a consent category whose first answer is pending (`privacy.pending` in the
/// plan): at most `events` events per destination (the oldest go first), none longer than `seconds`
/// after it was tracked. An event past either goes without the destinations it waited for; one with no
/// other destination is dropped, counted as `DropReason.consentPendingLimit`.
@_spi(Generated) public struct PendingConsentLimits: Sendable, Hashable {
  public var events: Int
  public var seconds: Double

  public init(events: Int, seconds: Double) {
    self.events = max(1, events)
    self.seconds = max(0, seconds)
  }

  /// The plan's defaults (`Defaults.pendingConsentEvents`, `Defaults.pendingConsentAge`).
  public static let `default` = PendingConsentLimits(events: Defaults.pendingConsentEvents, seconds: Defaults.pendingConsentAge)
}

/// A screen of the config, numbered by the generator.
@_spi(Generated) public struct ScreenID: RawRepresentable, Hashable, Sendable {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }
}

/// A handler name of the config, numbered by the generator (the same name on two screens is one ID).
@_spi(Generated) public struct HandlerID: RawRepresentable, Hashable, Sendable {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }
}

public enum PagePhase: String, Sendable, Hashable, CaseIterable {
  case enter, leave
}

/// Event properties as the tracking path keeps them: key and value pairs in order, a later pair of a
/// key winning over an earlier one.
typealias PropertyPairs = [(key: String, value: PropertyValue)]

extension PropertyPairs {
  static func dictionary(_ pairs: PropertyPairs) -> [String: PropertyValue] {
    Dictionary(pairs, uniquingKeysWith: { _, later in later })
  }

  /// A dictionary's pairs, sorted by key (so that what is written does not depend on hashing).
  init(_ properties: [String: PropertyValue]) {
    self = properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }
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
@_spi(Generated) public enum Routing: Sendable, Hashable {
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

/// One event mapping of the config. A class, made once per mapping by the generated registry: handing a
/// rule to the tracker on each intercepted call is one reference, not a copy of its fields.
@_spi(Generated) public final class EventRule: Sendable, Hashable {
  public let eventID: String
  /// The name the event goes by on the wire (`wire_name`): a track call's event name, a screen call's
  /// screen name; nil for the ID (or the screen's name).
  public let wireName: String?
  /// A page's enter event that goes as a track call (`call: track`) rather than a screen call.
  public let sendsEnterAsTrack: Bool
  public let routing: Routing
  public let properties: [String: PropertyValue]
  /// Under `interception: objc-runtime`, the bound properties the adapter reads by key path.
  public let keyPathBindings: [KeyPathBinding]
  /// The destinations of `.only` routing, sorted once (what a collector is told, in a stable order).
  let destinationIDs: [String]
  /// `properties` as pairs sorted by key, made once: what the journal writes for each event.
  let propertyPairs: PropertyPairs

  public init(
    eventID: String, wireName: String? = nil, sendsEnterAsTrack: Bool = false, routing: Routing, properties: [String: PropertyValue] = [:],
    keyPathBindings: [KeyPathBinding] = []
  ) {
    self.eventID = eventID
    self.wireName = wireName
    self.sendsEnterAsTrack = sendsEnterAsTrack
    self.routing = routing
    self.properties = properties
    self.keyPathBindings = keyPathBindings
    if case .only(let destinations) = routing { destinationIDs = destinations.sorted() } else { destinationIDs = [] }
    propertyPairs = properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  /// Whether the rule routes events to `destinationID`: a scan of its few destinations, which costs
  /// less than hashing the ID on every event.
  func routes(to destinationID: String) -> Bool {
    switch routing {
    case .unrestricted: return true
    case .only: return destinationIDs.contains(destinationID)
    }
  }

  public static func == (lhs: EventRule, rhs: EventRule) -> Bool {
    lhs.eventID == rhs.eventID && lhs.wireName == rhs.wireName && lhs.sendsEnterAsTrack == rhs.sendsEnterAsTrack && lhs.routing == rhs.routing
      && lhs.properties == rhs.properties && lhs.keyPathBindings == rhs.keyPathBindings
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(eventID)
    hasher.combine(routing)
  }
}

/// The typed event IDs that `trackc generate` writes (an enum with the ID as raw value) conform to
/// this, so that code which tracks by hand names events the compiler can check.
public protocol TrackingEventID: RawRepresentable, Sendable where RawValue == String {}
