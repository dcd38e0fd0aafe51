import Foundation

/// The route that arrived before the app was ready to show it, held until the app becomes active and
/// handed out once (a deep-link manager, with what shipping apps learn the hard way):
///
/// - **One slot**: a newer route replaces an older one, which is dropped as `superseded`.
/// - **Once**: `consume()` hands the route out and empties the slot.
/// - **No double delivery**: the same route arriving again within `duplicateWindow` of the last one
///   accepted (cold start delivers a link through two callbacks: DeepLinkKit #3, Braze #170) is dropped
///   as `duplicate`, whether or not the first was consumed.
/// - **Expiry**: a route nobody consumed within `lifetime` is dropped as `expired`.
/// - **Every outcome counted**: opened (with the entry point's open event tracked, source and
///   parameters as properties), consumed, dropped with its reason; links that match nothing are
///   `unmatched`, links that are not valid `invalid`. `statistics` and `onOutcome` make lost links
///   measurable.
///
/// Thread-safe. Plain Swift: the UIKit adapter (`#if canImport(UIKit)`) only feeds it.
public final class PendingRoute<Route: TrackableRoute>: @unchecked Sendable {
  public struct Settings: Sendable {
    /// How long after a route is accepted the same route is a duplicate.
    public var duplicateWindow: TimeInterval
    /// How long a route waits to be consumed.
    public var lifetime: TimeInterval

    public init(duplicateWindow: TimeInterval = 2, lifetime: TimeInterval = 120) {
      self.duplicateWindow = duplicateWindow
      self.lifetime = lifetime
    }
  }

  public enum DropReason: String, Sendable, Hashable, CaseIterable {
    case expired
    case superseded
    case invalid
    case unmatched
    case duplicate
  }

  public enum Outcome: Sendable, Hashable {
    /// Accepted into the slot; the entry point's open event was tracked.
    case opened(Route, EntrySource)
    case consumed(Route, EntrySource)
    /// The route when there was one (not for invalid or unmatched input).
    case dropped(DropReason, EntrySource, Route?)
  }

  public struct Statistics: Sendable, Hashable {
    public var opened = 0
    public var consumed = 0
    public var dropped: [DropReason: Int] = [:]
    /// Invalid inputs by what was wrong (`invalid-escape`, `parameters`...).
    public var invalid: [String: Int] = [:]

    public var droppedTotal: Int { dropped.values.reduce(0, +) }
  }

  private struct Held {
    let route: Route
    let source: EntrySource
    let arrived: TimeInterval
  }

  private let tracker: Tracker?
  private let settings: Settings
  private let now: @Sendable () -> TimeInterval
  private let onOutcome: @Sendable (Outcome) -> Void
  private let lock = NSLock()
  // Guarded by `lock`.
  private var held: Held?
  private var lastAccepted: (route: Route, at: TimeInterval)?
  private var counts = Statistics()

  /// - Parameters:
  ///   - tracker: where open events go; nil to track nothing (outcomes are still counted).
  ///   - now: a monotonic clock in seconds (the system's uptime by default; tests pass their own).
  ///   - onOutcome: called with every outcome, after the slot has changed, outside the lock.
  public init(
    tracker: Tracker?, settings: Settings = Settings(), now: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime },
    onOutcome: @escaping @Sendable (Outcome) -> Void = { _ in }
  ) {
    self.tracker = tracker
    self.settings = settings
    self.now = now
    self.onOutcome = onOutcome
  }

  // MARK: Receiving

  /// A deep link or universal link (the source follows the scheme). True when it opens a route (a
  /// duplicate included), for the app delegate's answer.
  @discardableResult
  public func receive(url: URL) -> Bool {
    receive(link: url.absoluteString)
  }

  /// A link as text.
  @discardableResult
  public func receive(link: String) -> Bool {
    let web = link.utf8.prefix(8).map { $0 | 0x20 }
    let source: EntrySource = web.starts(with: "https:".utf8) || web.starts(with: "http:".utf8) ? .universalLink : .deepLink
    return receive(Route.parse(link: link), source: source)
  }

  /// A notification the user opened.
  @discardableResult
  public func receive(notification userInfo: [AnyHashable: Any]) -> Bool {
    receive(Route.parse(notification: userInfo), source: .notification)
  }

  /// A home-screen shortcut.
  @discardableResult
  public func receive(shortcutType: String) -> Bool {
    receive(Route.parse(shortcutType: shortcutType), source: .shortcut)
  }

  /// A route read some other way.
  @discardableResult
  public func receive(_ route: Route, source: EntrySource) -> Bool {
    receive(.matched(route), source: source)
  }

  private func receive(_ parse: RouteParse<Route>, source: EntrySource) -> Bool {
    let route: Route
    switch parse {
    case .matched(let matched):
      route = matched
    case .unmatched:
      report([.dropped(.unmatched, source, nil)])
      return false
    case .invalid(let problem):
      report([.dropped(.invalid, source, nil)], invalid: problem.description)
      return false
    }
    let time = now()
    var outcomes: [Outcome] = []
    lock.lock()
    if let last = lastAccepted, last.route == route, time - last.at <= settings.duplicateWindow {
      lock.unlock()
      report([.dropped(.duplicate, source, route)])
      return true
    }
    if let previous = held {
      let reason: DropReason = time - previous.arrived > settings.lifetime ? .expired : .superseded
      outcomes.append(.dropped(reason, previous.source, previous.route))
    }
    held = Held(route: route, source: source, arrived: time)
    lastAccepted = (route, time)
    lock.unlock()
    outcomes.append(.opened(route, source))
    report(outcomes)
    let event = route.openEvent
    if let tracker, let rule = event.rule {
      var properties = event.parameters
      properties["source"] = .string(source.rawValue)
      tracker.track(rule, screen: event.screen, properties: properties)
    }
    return true
  }

  // MARK: Consuming

  /// The pending route, once: call it when the app becomes active. Nil when there is none, or when it
  /// waited past `lifetime` (dropped as `expired`).
  public func consume() -> Route? {
    let time = now()
    lock.lock()
    guard let taken = held else {
      lock.unlock()
      return nil
    }
    held = nil
    lock.unlock()
    if time - taken.arrived > settings.lifetime {
      report([.dropped(.expired, taken.source, taken.route)])
      return nil
    }
    report([.consumed(taken.route, taken.source)])
    return taken.route
  }

  /// The route waiting, without taking it.
  public var pending: Route? {
    lock.lock()
    defer { lock.unlock() }
    return held?.route
  }

  public var statistics: Statistics {
    lock.lock()
    defer { lock.unlock() }
    return counts
  }

  private func report(_ outcomes: [Outcome], invalid: String? = nil) {
    lock.lock()
    for outcome in outcomes {
      switch outcome {
      case .opened: counts.opened += 1
      case .consumed: counts.consumed += 1
      case .dropped(let reason, _, _): counts.dropped[reason, default: 0] += 1
      }
    }
    if let invalid { counts.invalid[invalid, default: 0] += 1 }
    lock.unlock()
    for outcome in outcomes { onOutcome(outcome) }
  }
}
