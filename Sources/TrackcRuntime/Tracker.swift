import Foundation

/// Turns page phases and handler calls into events, by the generated registry, and hands each to the
/// destinations its rule allows, remote configuration has not switched off, and that want it.
///
/// Thread-safe; events tracked from one thread reach each destination in the order they were tracked.
public final class Tracker: @unchecked Sendable {
  public let registry: any TrackingRegistry
  private let configuration: any DestinationConfiguration
  private let lanes: [DeliveryLane]
  private let messageIDs = MessageIDGenerator()
  private let lock = NSLock()
  // Guarded by `lock`.
  private var sequence: UInt64 = 0
  private var screensByType: [ObjectIdentifier: ScreenID?] = [:]

  /// - Parameters:
  ///   - destinations: each gets its own delivery thread; IDs should be unique.
  ///   - configuration: which destinations are switched on (remote configuration).
  ///   - capacity: how many events a destination may fall behind before the oldest are dropped.
  ///   - onDeliveryFailure: called (on the destination's thread) when a destination throws.
  public init(
    registry: any TrackingRegistry, destinations: [any TrackingDestination],
    configuration: any DestinationConfiguration = AllDestinationsEnabled(), capacity: Int = 10_000,
    onDeliveryFailure: @escaping @Sendable (TrackingEvent, any Error, String) -> Void = { _, _, _ in }
  ) {
    self.registry = registry
    self.configuration = configuration
    lanes = destinations.map { DeliveryLane(destination: $0, capacity: capacity, failureHandler: onDeliveryFailure) }
  }

  deinit {
    for lane in lanes { lane.stop() }
  }

  // MARK: Tracking

  /// A page phase of a screen, by the screen's type (a subclass the config does not list counts as its
  /// listed superclass). Nothing happens for a screen or phase the config does not map.
  public func trackPage(of screenType: Any.Type, _ phase: PagePhase) {
    guard let screen = screen(of: screenType), let rule = registry.pageRule(screen: screen, phase: phase) else { return }
    emit(rule, source: .page(phase), screen: registry.name(of: screen))
  }

  /// A handler call on a screen, by the screen's type and the handler's generated ID.
  public func trackControl(of screenType: Any.Type, handler: HandlerID) {
    guard let screen = screen(of: screenType), let rule = registry.controlRule(screen: screen, handler: handler) else { return }
    emit(rule, source: .control(handler: registry.name(of: handler)), screen: registry.name(of: screen))
  }

  /// A handler call by names, as the Objective-C runtime gives them: the class name
  /// (`NSStringFromClass`) and the selector (or a Swift name).
  public func trackControl(screenNamed screenName: String, handlerNamed handlerName: String) {
    guard let screen = screen(named: screenName), let handler = registry.handler(named: handlerName),
      let rule = registry.controlRule(screen: screen, handler: handler)
    else { return }
    emit(rule, source: .control(handler: registry.name(of: handler)), screen: registry.name(of: screen))
  }

  /// A page phase by the class name, as the Objective-C runtime gives it.
  public func trackPage(screenNamed screenName: String, _ phase: PagePhase) {
    guard let screen = screen(named: screenName), let rule = registry.pageRule(screen: screen, phase: phase) else { return }
    emit(rule, source: .page(phase), screen: registry.name(of: screen))
  }

  /// An event tracked by hand, by its generated ID constant; routed as the config routes that ID.
  /// Unknown IDs are ignored.
  public func track<ID: TrackingEventID>(_ id: ID, screen: String? = nil, properties: [String: PropertyValue] = [:]) {
    guard let rule = registry.rule(eventID: id.rawValue) else { return }
    emit(rule, source: .manual, screen: screen, extraProperties: properties)
  }

  // MARK: Delivery

  /// Waits until every event tracked so far has been handed to its destinations; false on timeout.
  @discardableResult
  public func flush(timeout: TimeInterval = 5) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    return lanes.allSatisfy { $0.flush(until: deadline) }
  }

  /// Per destination ID.
  public var statistics: [String: DestinationStatistics] {
    Dictionary(lanes.map { ($0.destination.id, $0.statistics) }, uniquingKeysWith: { first, _ in first })
  }

  // MARK: Internals

  private func emit(_ rule: EventRule, source: TrackingEvent.Source, screen: String?, extraProperties: [String: PropertyValue] = [:]) {
    lock.lock()
    sequence &+= 1
    let number = sequence
    lock.unlock()
    let properties = extraProperties.isEmpty ? rule.properties : rule.properties.merging(extraProperties) { _, extra in extra }
    let event = TrackingEvent(
      id: rule.eventID, source: source, screen: screen, properties: properties, timestamp: Date(), messageID: messageIDs.id(number))
    for lane in lanes where rule.routing.allows(lane.destination.id) && configuration.isEnabled(lane.destination.id) {
      lane.enqueue(event)
    }
  }

  /// The screen a type is, remembered per type (working it out builds the type's name).
  private func screen(of type: Any.Type) -> ScreenID? {
    let key = ObjectIdentifier(type)
    lock.lock()
    if let known = screensByType[key] {
      lock.unlock()
      return known
    }
    lock.unlock()
    let resolved = screen(named: String(reflecting: type))
    lock.lock()
    screensByType[key] = resolved
    lock.unlock()
    return resolved
  }

  /// By the full name (`Home.HomeViewController`), then without generic arguments, then without the module.
  private func screen(named name: String) -> ScreenID? {
    if let screen = registry.screen(named: name) { return screen }
    let base = name.firstIndex(of: "<").map { String(name[..<$0]) } ?? name
    if base != name, let screen = registry.screen(named: base) { return screen }
    if let dot = base.firstIndex(of: ".") { return registry.screen(named: String(base[base.index(after: dot)...])) }
    return nil
  }
}
