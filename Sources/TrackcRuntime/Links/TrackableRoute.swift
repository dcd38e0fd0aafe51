import Foundation
import TrackcLinks

/// What `trackc generate` makes of a config's `entry_points`: a `Route` enum, one case per entry point
/// with typed associated values, read from each source by a matcher of its own (static `switch`es over
/// hashes of literals, so the time to match does not grow with the number of patterns, and no table is
/// built at launch) and written back as a link (`url`). `PendingRoute` holds and tracks values of it.
///
/// The generated code supplies only what depends on the plan; how a source's input is read, refused or
/// counted is here, the same for every app. The requirements are the generated code's: an app reads
/// routes with `init?(url:)`, `init?(notification:)`, `init?(shortcutType:)` and `PendingRoute`. (The
/// link readers take TrackcLinks's types, which only generated code imports; the others are
/// `@_spi(Generated)`.)
public protocol TrackableRoute: Hashable, Sendable {
  /// How the plan reads links (`links.path_case`, `links.trailing_slash`, the bounds).
  static var linkRules: LinkRules { get }
  /// The route a link read by `linkRules` opens; nil when no pattern matches it.
  static func route(link: ParsedLink) -> Self?
  /// The route a notification's payload selects: `.unmatched` when no entry point's selector holds,
  /// `.invalid(.parameters)` when one does but its parameters are missing or not of their types.
  @_spi(Generated) static func route(notification payload: NotificationPayload) -> RouteParse<Self>
  /// The route a home-screen shortcut's type opens.
  @_spi(Generated) static func route(shortcutType: String) -> Self?
  /// The entry point's name in the config (`product`).
  var entryPoint: String { get }
  /// What to track when the app is opened with this route.
  @_spi(Generated) var openEvent: RouteOpenEvent { get }
  /// The route as a link that reads back as the same route; nil for an entry point without links (or
  /// whose optional parameters no pattern can carry).
  var url: URL? { get }
}

// The readers are `@inlinable` so that each generated `Route` gets its own specialization: unspecialized,
// every call instantiated `RouteParse<Self>`'s metadata at run time (`swift_getGenericMetadata`, about a
// tenth of `Route(link:)`).
extension TrackableRoute {
  /// Reads a link (a custom-scheme deep link or a universal link) by the plan's rules: as `parse(url:)`
  /// reads the `URL` Foundation makes of the same text, whichever the app has.
  @inlinable
  public static func parse(link: String) -> RouteParse<Self> {
    switch ParsedLink.parse(link, rules: linkRules) {
    case .failure(.invalidHost) where link.utf8.contains(where: { $0 >= 0x80 }):
      // A host that is not ASCII (`bücher.example`): Foundation's `URL` holds it in its IDNA form
      // (`xn--bcher-kva.example`), which is what the plan's hosts are written in.
      guard let url = URL(string: link), url.absoluteString != link else { return .invalid(.link(.invalidHost)) }
      return parse(link: url.absoluteString)
    case .failure(let rejection): return .invalid(.link(rejection))
    case .success(let parsed): return route(link: parsed).map { .matched($0) } ?? .unmatched
    }
  }

  /// Reads a URL: its text (`absoluteString`), never Foundation's `path`, which on Linux empties a path
  /// with `%FF` in it. What `URL(string:)` escaped on the way in reads as the text it was made from.
  @inlinable
  public static func parse(url: URL) -> RouteParse<Self> {
    parse(link: url.absoluteString)
  }

  /// Reads a notification's `userInfo` by the plan's selectors.
  public static func parse(notification userInfo: [AnyHashable: Any]) -> RouteParse<Self> {
    route(notification: NotificationPayload(userInfo))
  }

  /// Reads a home-screen shortcut's type.
  public static func parse(shortcutType: String) -> RouteParse<Self> {
    route(shortcutType: shortcutType).map { .matched($0) } ?? .unmatched
  }

  /// The route a URL opens; nil when it is refused or matches nothing (`PendingRoute` counts which).
  @inlinable
  public init?(url: URL) {
    guard let route = Self.parse(url: url).route else { return nil }
    self = route
  }

  /// The route a link opens; nil when it is refused or matches nothing.
  @inlinable
  public init?(link: String) {
    guard let route = Self.parse(link: link).route else { return nil }
    self = route
  }

  /// The route a notification selects; nil when none does or its parameters do not read.
  public init?(notification userInfo: [AnyHashable: Any]) {
    guard let route = Self.parse(notification: userInfo).route else { return nil }
    self = route
  }

  /// The route a home-screen shortcut opens.
  public init?(shortcutType: String) {
    guard let route = Self.route(shortcutType: shortcutType) else { return nil }
    self = route
  }
}

/// What reading a source gave: a route, nothing that matches, or input that is not valid.
public enum RouteParse<Route: Sendable>: Sendable {
  case matched(Route)
  /// A valid link, payload or shortcut type that no entry point declares.
  case unmatched
  /// A link refused before matching, or a notification selected by an entry point whose parameters
  /// are missing or not of their types.
  case invalid(RouteProblem)

  /// A selected notification's route, or `.invalid(.parameters)` when its parameters did not read.
  public init(selected route: Route?) {
    self = route.map { .matched($0) } ?? .invalid(.parameters)
  }

  @inlinable
  public var route: Route? {
    if case .matched(let route) = self { return route }
    return nil
  }
}

/// Why a source's input was invalid.
public enum RouteProblem: Sendable, Hashable, CustomStringConvertible {
  case link(LinkRejection)
  case parameters

  public var description: String {
    switch self {
    case .link(let rejection): return rejection.rawValue
    case .parameters: return "parameters"
    }
  }
}

/// How the app was opened: what the open event's `source` property says.
public enum EntrySource: String, Sendable, Hashable, CaseIterable {
  case deepLink = "deep_link"
  case universalLink = "universal_link"
  case notification
  case shortcut
}

/// The event an entry point tracks when the app is opened through it: its rule (routing, static
/// properties), the screen it opens, and the route's parameters as properties (nil ones left out).
@_spi(Generated) public struct RouteOpenEvent: Sendable, Hashable {
  public let rule: EventRule?
  public let screen: String
  public let parameters: [String: PropertyValue]

  public init(rule: EventRule?, screen: String, parameters: [String: PropertyValue?]) {
    self.rule = rule
    self.screen = screen
    self.parameters = parameters.compactMapValues { $0 }
  }

  /// A parameter's property, for the generated `openEvent`.
  public static func property<Value>(_ value: Value?, _ type: RouteValueType<Value>) -> PropertyValue? {
    value.map(type.propertyValue)
  }
}

/// A home-screen shortcut the plan declares, and the conditions under which it is offered (all must
/// hold; none means always).
public struct RouteShortcut: Sendable, Hashable {
  public let type: String
  public let title: String
  public let conditions: [String]

  public init(type: String, title: String, conditions: [String] = []) {
    self.type = type
    self.title = title
    self.conditions = conditions
  }

  /// The shortcuts offered when `conditions` hold, in the plan's order.
  public static func offered<Condition: RawRepresentable>(_ shortcuts: [RouteShortcut], when conditions: Set<Condition>) -> [RouteShortcut]
  where Condition.RawValue == String {
    let holding = Set(conditions.map(\.rawValue))
    return shortcuts.filter { $0.conditions.allSatisfy(holding.contains) }
  }
}
