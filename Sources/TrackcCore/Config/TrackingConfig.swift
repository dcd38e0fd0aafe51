/// A value read from the config, with the range it was written at.
public struct Located<Value: Sendable>: Sendable {
  public var value: Value
  public var range: SourceRange

  public init(_ value: Value, at range: SourceRange) {
    self.value = value
    self.range = range
  }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}

/// The tracking config, version 1, as decoded from YAML.
///
/// Decoding is lenient: a part with a structural error is left out (and reported), the rest is kept, so
/// that one run reports every problem rather than stopping at the first.
public struct TrackingConfig: Sendable {
  public static let supportedVersion = 1
  public static let defaultEventIDPattern = "^[A-Z][A-Z0-9_]*$"

  public var version: Located<Int>?
  /// `plan_version`: the plan's own version (the team's: `2026.11`, `42`), stamped with the plan's
  /// content hash on every event (`context.trackingPlan`); nil when not written.
  public var planVersion: Located<String>?
  public var conventions = Conventions()
  /// Declared destinations in file order; nil when the config has no `destinations` section, in which
  /// case routing is not restricted and any destination registered at run time receives every event.
  public var destinations: [Destination]?
  public var defaults = Defaults()
  public var screens: [Screen] = []
  /// The plan's shared property names and their types (`properties: {product_id: string}`), in file
  /// order; nil when the config has no `properties` section.
  public var propertyDeclarations: [PropertyDeclaration]?

  public init() {}

  /// A property name the whole plan agrees on the type of.
  public struct PropertyDeclaration: Sendable {
    public var name: Located<String>
    /// nil when the type is not one of `PropertyType` (`wrong-type` reports it), or not written.
    public var type: Located<PropertyType>?
    /// What personal data a property of this name is, in the long form (`{type: string, data: email_address}`).
    public var classification: DataClassification? = nil
  }

  /// Swift sources to check the config against, relative to the config file (`--sources` overrides).
  public var sources: [Located<String>]?
  /// How handler calls are intercepted at run time; decides what makes a handler reachable.
  public var interception: Located<Interception>?
  /// `links`: the schemes, hosts and reading rules of the plan's link patterns (Config/EntryPoints.swift).
  public var links: Links?
  /// `entry_points`, in file order.
  public var entryPoints: [EntryPoint] = []
  /// `privacy`: consent categories, the identity's classification and the manifest's path (Config/Privacy.swift).
  public var privacy: Privacy?
  /// `application`: the lifecycle events the runtime tracks, in file order (Config/ApplicationEvents.swift);
  /// empty when the plan declares none, and then the runtime tracks none.
  public var application: [ApplicationMapping] = []

  public enum Interception: String, Sendable, CaseIterable {
    /// UIKit target-action and view controller lifecycle, through the Objective-C runtime.
    case objcRuntime = "objc-runtime"
    /// Swift-native: generated `@_dynamicReplacement(for:)` functions.
    case dynamicReplacement = "dynamic-replacement"

    public static let `default` = Interception.objcRuntime
  }

  public struct Conventions: Sendable {
    public var eventIDPattern: Located<String>?
    /// What marks a handler that must be tracked (the reverse check, `untracked-handler`).
    public var requireTracking: TrackingMarker?
    /// Base classes whose subclasses must all be listed as screens (`unmapped-screen`).
    public var requireScreens: [Located<String>]?
    /// The methods that carry page events, replaced under `dynamic-replacement`.
    public var lifecycle = Lifecycle()
    /// Classes the sources inherit from but do not declare (a binary framework's), each with its
    /// superclass, added to the Apple classes trackc knows (`FrameworkClasses`).
    public var frameworkClasses: [FrameworkClass] = []
    public init() {}
  }

  /// `DSViewController: UIViewController` in `conventions.framework_classes`.
  public struct FrameworkClass: Sendable {
    public var name: Located<String>
    public var superclass: Located<String>
  }

  /// A naming suffix (`_UA`), a doc-comment tag (`@tracked`), or both: a handler with either is marked.
  public struct TrackingMarker: Sendable {
    public var suffix: Located<String>?
    public var tag: Located<String>?
    public var range: SourceRange
  }

  /// The methods whose calls are page events under `dynamic-replacement`: for each phase, the first of
  /// its methods that a screen's type (or a superclass in the sources) declares. The default serves view
  /// controllers and SwiftUI view models alike.
  public struct Lifecycle: Sendable {
    public static let defaultEnter = ["viewDidAppear(_:)", "onAppear()"]
    public static let defaultLeave = ["viewDidDisappear(_:)", "onDisappear()"]

    /// As written: one method or a list; nil for the default.
    public var enter: [Located<String>]?
    public var leave: [Located<String>]?

    public init() {}

    /// The candidates for a phase, in order.
    public func methods(for phase: PagePhase) -> [String] {
      switch phase {
      case .enter: return enter?.map(\.value) ?? Self.defaultEnter
      case .leave: return leave?.map(\.value) ?? Self.defaultLeave
      }
    }
  }

  public struct Destination: Sendable {
    /// The name a collector is told to forward to (`integrations`): `wire_name`, else the ID.
    public var nameOnTheWire: String { wireName?.value ?? id.value }

    public var id: Located<String>
    public var description: Located<String>?
    /// The name the collector knows the destination by (`wire_name: Mixpanel`, Segment's catalogue name),
    /// sent in `integrations` instead of the ID; nil when it is the ID.
    public var wireName: Located<String>? = nil
    /// How its settings are written, for a fix that adds one (`wire_name`).
    public var settings: SettingsStyle = .none

    public enum SettingsStyle: Sendable, Hashable {
      /// `mixpanel:` alone, or a value that is not a mapping.
      case none
      /// `{...}`: a key goes at `insertAt`, before the first key (right after the brace when there is none).
      case flow(insertAt: SourcePosition, isEmpty: Bool)
      /// A key per line: a key goes before the first, at `firstKey`.
      case block(firstKey: SourcePosition)
    }
    /// What it uses data for, the consent category that gates it and its tracking domains.
    public var privacy = DestinationPrivacy()
  }

  public struct Defaults: Sendable {
    /// Where an event goes unless it says otherwise; nil means every declared destination.
    public var destinations: [Located<String>]?
    public init() {}
  }

  public struct Screen: Sendable {
    /// The key as written (`Shop.HomeViewController`).
    public var name: Located<String>
    /// The parsed type name, or why the key is not one.
    public var typeName: Result<SwiftTypeName, SwiftTypeName.ParseError>
    public var pageEvents: [PageEvent] = []
    public var controlEvents: [ControlEvent] = []
    /// True when the screen was written with no events at all (`Home: {}`, `Home:`, empty sections).
    /// A screen whose entries all had errors, or whose only key is a typo, is not "empty": its problem
    /// is already reported.
    public var isEmptyAsWritten = false
  }

  public enum PagePhase: String, Sendable, CaseIterable {
    case enter
    case leave
  }

  public struct PageEvent: Sendable {
    public var phase: Located<PagePhase>
    public var event: EventRule
  }

  public struct ControlEvent: Sendable {
    /// The handler key as written.
    public var key: Located<String>
    /// The parsed handler name, or why it could not be parsed.
    public var handler: Result<HandlerName, HandlerName.ParseError>
    public var event: EventRule

    /// Written without spaces or backticks, so that the key is its own canonical form.
    public var isCanonicallySpelt: Bool {
      if case .success(let name) = handler { return name.canonical.utf8.count == key.value.utf8.count }
      return !key.value.utf8.contains { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "`") }
    }
  }

  /// What one event is: its ID, where it goes, and what it carries.
  public struct EventRule: Sendable {
    public var id: Located<String>
    /// What only the long form says; nil for the short form (`handler: EVENT_ID`), which is most events,
    /// so that an event is three words to copy, not ten.
    public var details: Details?

    public init(id: Located<String>, details: Details? = nil) {
      self.id = id
      self.details = details
    }

    /// `destinations:` — only these (key range, then entries).
    public var only: DestinationList? { details?.only }
    /// `exclude:` — all defaults but these.
    public var exclude: DestinationList? { details?.exclude }
    public var properties: [Property] { details?.properties ?? [] }
    /// `wire_name:` — the name the event goes by on the wire, where it is not the ID.
    public var wireName: Located<String>? { details?.wireName }
    /// `call:` as written; nil for the trigger's own (`Call.default(for:)`).
    public var call: Located<Call>? { details?.call }

    public final class Details: Sendable {
      public let only: DestinationList?
      public let exclude: DestinationList?
      public let properties: [Property]
      public let wireName: Located<String>?
      public let call: Located<Call>?

      public init(
        only: DestinationList?, exclude: DestinationList?, properties: [Property], wireName: Located<String>? = nil,
        call: Located<Call>? = nil
      ) {
        self.only = only
        self.exclude = exclude
        self.properties = properties
        self.wireName = wireName
        self.call = call
      }
    }
  }

  /// The Segment call an event goes as (`call:`): a page's enter event goes as a `screen` call and every
  /// other event as a `track` call, unless the plan says `call: track` for an enter event (an app that
  /// has always sent its screen views as events keeps doing so).
  public enum Call: String, Sendable, CaseIterable {
    case track
    case screen

    /// The call `rule` goes as: its `call:`, else a screen call for a page's enter event (`isEnter`) and
    /// a track call for every other. Only an enter event can go as a screen call (`screen-call` reports
    /// the rest, which go as track calls).
    public static func of(_ rule: borrowing EventRule, isEnter: Bool) -> Call {
      guard let written = rule.call?.value, written == .track || isEnter else { return isEnter ? .screen : .track }
      return written
    }
  }

  public struct DestinationList: Sendable {
    public var keyRange: SourceRange
    public var entries: [Located<String>]
  }

  public struct Property: Sendable {
    public var key: Located<String>
    /// The static value; nil for a binding, and when it is neither a string, finite number or boolean nor
    /// a binding (`invalid-property-value` reports it, saying what was found).
    public var value: PropertyValue?
    public var valueRange: SourceRange
    /// What was written.
    public var found: FoundValue
    /// A value read when the event fires (`{from: id}`), when the property is written as one.
    public var binding: Binding?

    public init(key: Located<String>, value: PropertyValue?, valueRange: SourceRange, found: FoundValue, binding: Binding? = nil) {
      self.key = key
      self.value = value
      self.valueRange = valueRange
      self.found = found
      self.binding = binding
    }
  }

  /// A property whose value is read when the event fires: `{from: id}`, `{from: self.cart.total, type:
  /// double}`, `{from: self.coupon, optional: true}`.
  public struct Binding: Sendable {
    /// `from:` as written; nil when it is missing or not a string (reported by the structure rules).
    public var source: Located<String>?
    /// `from:` read as a path, or why it is not one (`invalid-binding-path`); nil without a source.
    public var path: Result<BindingPath, BindingPath.ParseError>?
    /// `type:`; nil when not written (the Swift type decides) or not one of `PropertyType`.
    public var declaredType: Located<PropertyType>?
    /// `optional: true`: a nil value is left out of the event. Without it, a nil is left out and counted.
    public var isOptional: Bool
    /// The whole mapping.
    public var range: SourceRange
    /// What personal data the value is (`data:`, `linked:`, `tracking:`, `purposes:` beside `from:`).
    public var classification: DataClassification? = nil
    /// Written as a flow mapping (`{from: id}`), where a key can be added after the last value.
    public var isFlowMapping = false
  }
}

extension TrackingConfig {
  /// Where an event rule is mapped from: a page phase, or the index of a screen's control event. Plain
  /// values, so that walking a hundred thousand events copies nothing.
  public enum Trigger: Sendable, Hashable {
    case page(PagePhase)
    case control(index: Int)
    /// The open event of `entryPoints[index]`, tracked when the app is opened through it.
    case entryPoint(index: Int)
    /// An application event (`application:`), tracked by the runtime on no screen.
    case application(ApplicationEvent)
  }
}

extension TrackingConfig.Screen {
  /// Calls `body` for every event rule of this screen: page events, then control events.
  public func forEachEvent(_ body: (TrackingConfig.Trigger, borrowing TrackingConfig.EventRule) throws -> Void) rethrows {
    // Through buffer pointers, which spare copying each page or control event whole; the event rule
    // itself is still copied to be passed (see `ResolvedPlan.forEachEvent`).
    try pageEvents.withUnsafeBufferPointer { pageEvents in
      for index in pageEvents.indices {
        try body(.page(pageEvents[index].phase.value), pageEvents[index].event)
      }
    }
    try controlEvents.withUnsafeBufferPointer { controlEvents in
      for index in controlEvents.indices {
        try body(.control(index: index), controlEvents[index].event)
      }
    }
  }

  /// "the enter page event of 'Home'", "handler 'onFav(_:)' of 'Home'": words for messages.
  public func describe(_ trigger: TrackingConfig.Trigger) -> String {
    switch trigger {
    case .page(let phase): return "the \(phase.rawValue) page event of '\(name.value)'"
    case .control(let index): return "handler '\(Diagnostic.excerpt(controlEvents[index].key.value))' of '\(name.value)'"
    case .entryPoint: return "an entry point of '\(name.value)'"
    case .application(let event): return "the application event '\(event.rawValue)'"
    }
  }
}

/// A static event property value: the scalar types every analytics destination understands.
public enum PropertyValue: Sendable, Hashable {
  case string(String)
  case int(Int)
  case double(Double)
  case bool(Bool)

  /// The wire type of the value.
  public var type: PropertyType {
    switch self {
    case .string: return .string
    case .int: return .int
    case .double: return .double
    case .bool: return .bool
    }
  }

  public init?(_ value: YAMLValue) {
    switch value {
    case .string(let string): self = .string(string)
    case .int(let int): self = .int(int)
    case .float(let double) where double.isFinite: self = .double(double)
    case .bool(let bool): self = .bool(bool)
    default: return nil
    }
  }
}
