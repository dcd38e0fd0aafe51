import Foundation

/// Turns page phases and handler calls into events, by the generated registry, journals each event
/// once for the destinations its rule allows, remote configuration has not switched off, and sampling
/// keeps, and delivers it to each of them from the journal.
///
/// `track()` (and every interception) returns once the event is in the journal: with a directory
/// journal, it then survives the death of the process (see `Durability` for power loss). It costs a
/// lock, a binary encode into mapped memory and a checksum; no JSON, no I/O, no thread hop. Delivery
/// happens on one thread per destination.
///
/// Thread-safe; events tracked from one thread reach each destination in the order they were tracked.
public final class Tracker: @unchecked Sendable {
  public let registry: any TrackingRegistry
  private let configuration: any DestinationConfiguration
  private let journal: Journal
  private let lanes: [DeliveryLane]
  private let laneIDs: [String]
  private let lock = NSLock()
  // Guarded by `lock`.
  private var screensByType: [ObjectIdentifier: ScreenID?] = [:]
  private var missingBound = 0

  /// At most this many destinations (a bit each in a journal record); further ones get nothing.
  public static let maximumDestinations = 64

  /// - Parameters:
  ///   - destinations: each gets its own delivery thread and cursor; IDs should be unique (a repeated
  ///     ID gets a cursor of its own, and statistics name the first).
  ///   - configuration: which destinations are switched on, and sampling (remote configuration).
  ///   - journal: where events wait for delivery. In memory by default (tests, previews): an app passes
  ///     a directory (`.directory(url)`, or `.applicationSupport()` on Apple platforms) so that events
  ///     survive the process.
  ///   - retry: the backoff between retries of a failing destination.
  ///   - onDeliveryFailure: called (on the destination's thread) each time delivery of an event fails
  ///     and will be retried.
  ///   - onDrop: called (on the destination's thread) with events a destination refused for good
  ///     (a 400 on a single event, another 4xx on a batch).
  public init(
    registry: any TrackingRegistry, destinations: [any TrackingDestination],
    configuration: any DestinationConfiguration = AllDestinationsEnabled(), journal: JournalConfiguration = .inMemory,
    retry: RetryPolicy = .default,
    onDeliveryFailure: @escaping @Sendable (TrackingEvent, any Error, String) -> Void = { _, _, _ in },
    onDrop: @escaping @Sendable ([TrackingEvent], DropReason, String) -> Void = { _, _, _ in }
  ) {
    self.registry = registry
    self.configuration = configuration
    let kept = Array(destinations.prefix(Self.maximumDestinations))
    laneIDs = kept.map(\.id)
    var seen: [String: Int] = [:]
    let keys = kept.map { destination -> String in
      seen[destination.id, default: 0] += 1
      let count = seen[destination.id]!
      return count == 1 ? destination.id : destination.id + "#\(count)"
    }
    let journal = Journal(configuration: journal, keys: keys)
    self.journal = journal
    lanes = kept.enumerated().map { index, destination in
      DeliveryLane(destination: destination, index: index, journal: journal, retry: retry, onFailure: onDeliveryFailure, onDrop: onDrop)
    }
    for case let collector as HTTPCollectorDestination in kept {
      collector.channel.addFlushHandler { [weak journal] in journal?.requestUpload() }
    }
  }

  deinit {
    journal.stop()
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

  /// The same, with the properties its bindings read: `capture` runs only when the screen maps the
  /// handler, so an unmapped call reads nothing.
  public func trackControl(of screenType: Any.Type, handler: HandlerID, capture: (inout CapturedProperties) -> Void) {
    guard let screen = screen(of: screenType), let rule = registry.controlRule(screen: screen, handler: handler) else { return }
    emit(rule, source: .control(handler: registry.name(of: handler)), screen: registry.name(of: screen), capture: capture)
  }

  /// A page phase whose event binds the screen's state.
  public func trackPage(of screenType: Any.Type, _ phase: PagePhase, capture: (inout CapturedProperties) -> Void) {
    guard let screen = screen(of: screenType), let rule = registry.pageRule(screen: screen, phase: phase) else { return }
    emit(rule, source: .page(phase), screen: registry.name(of: screen), capture: capture)
  }

  /// Bound values that were nil without `optional: true` in the config: left out of their events and
  /// counted here (a delivery warning, not a crash).
  public var missingBoundValues: Int {
    lock.lock()
    defer { lock.unlock() }
    return missingBound
  }

  /// The rule's static properties with what `capture` reads added, counting the required values that
  /// were nil. Built in one dictionary (the event's own), after routing decided the event is sent.
  private func captured(_ rule: EventRule, _ capture: (inout CapturedProperties) -> Void) -> [String: PropertyValue] {
    var properties = CapturedProperties(base: rule.properties)
    capture(&properties)
    if properties.missingRequired > 0 {
      lock.lock()
      missingBound += properties.missingRequired
      lock.unlock()
    }
    return properties.values
  }

  /// A handler call by names, as the Objective-C runtime gives them: the class name
  /// (`NSStringFromClass`) and the selector (or a Swift name).
  /// `read` returns the value of a bound property (`rule.keyPathBindings`) by key path from the
  /// action's target or sender; it runs only when the screen maps the handler and the event is sent.
  public func trackControl(screenNamed screenName: String, handlerNamed handlerName: String, read: ((KeyPathBinding) -> Any?)? = nil) {
    guard let screen = screen(named: screenName), let handler = registry.handler(named: handlerName),
      let rule = registry.controlRule(screen: screen, handler: handler)
    else { return }
    emit(rule, source: .control(handler: registry.name(of: handler)), screen: registry.name(of: screen), read: read)
  }

  /// A page phase by the class name, as the Objective-C runtime gives it; `read` as above, from the screen.
  public func trackPage(screenNamed screenName: String, _ phase: PagePhase, read: ((KeyPathBinding) -> Any?)? = nil) {
    guard let screen = screen(named: screenName), let rule = registry.pageRule(screen: screen, phase: phase) else { return }
    emit(rule, source: .page(phase), screen: registry.name(of: screen), read: read)
  }

  /// A view controller's page phase where the view controller may be a hosting controller: the class's
  /// own screen if the config lists it, else the screen its SwiftUI root view is (`rootView`, its type
  /// as `String(reflecting:)` writes it; see `HostedRootView`). `read` reads from the view controller.
  public func trackPage(
    hostingControllerNamed className: String, rootView: String?, _ phase: PagePhase, read: ((KeyPathBinding) -> Any?)? = nil
  ) {
    if let screen = screen(named: className) {
      guard let rule = registry.pageRule(screen: screen, phase: phase) else { return }
      return emit(rule, source: .page(phase), screen: registry.name(of: screen), read: read)
    }
    guard let rootView, let name = HostedRootView.screenTypeName(rootView), let screen = hostedScreen(named: name),
      let rule = registry.pageRule(screen: screen, phase: phase)
    else { return }
    emit(rule, source: .page(phase), screen: registry.name(of: screen), read: nil)
  }

  /// An event reached through the Objective-C runtime: its key-path bindings read with `read`. Without a
  /// reader (a caller that cannot reach the objects) the bound values are not there, and the required
  /// ones are counted as missing.
  private func emit(_ rule: EventRule, source: TrackingEvent.Source, screen: String, read: ((KeyPathBinding) -> Any?)?) {
    guard !rule.keyPathBindings.isEmpty else { return emit(rule, source: source, screen: screen) }
    emit(rule, source: source, screen: screen) { properties in
      for binding in rule.keyPathBindings { properties.add(binding, value: read?(binding)) }
    }
  }

  /// An event tracked by hand, by its generated ID constant; routed as the config routes that ID.
  /// Unknown IDs are ignored.
  public func track<ID: TrackingEventID>(_ id: ID, screen: String? = nil, properties: [String: PropertyValue] = [:]) {
    guard let rule = registry.rule(eventID: id.rawValue) else { return }
    emit(rule, source: .manual, screen: screen, extraProperties: properties)
  }

  /// An event tracked by hand through its generated typed function (`Track.checkoutCompleted(total:)`),
  /// which fills in the properties.
  public func track<ID: TrackingEventID>(_ id: ID, screen: String? = nil, capture: (inout CapturedProperties) -> Void) {
    guard let rule = registry.rule(eventID: id.rawValue) else { return }
    emit(rule, source: .manual, screen: screen, capture: capture)
  }

  /// An event by its generated rule (an entry point's open event, which `PendingRoute` tracks): routed
  /// and carrying the static properties as that rule says, whichever other mapping shares its ID.
  public func track(_ rule: EventRule, screen: String?, properties: [String: PropertyValue] = [:]) {
    emit(rule, source: .manual, screen: screen, extraProperties: properties)
  }

  // MARK: Delivery

  /// Waits until every event tracked so far has been delivered (or dropped) by every destination;
  /// false on timeout (a destination that keeps failing, say). Uploads partial batches at once.
  @discardableResult
  public func flush(timeout: TimeInterval = 5) -> Bool {
    journal.waitUntilDelivered(until: Date(timeIntervalSinceNow: timeout))
  }

  /// Asks every destination to deliver what is waiting now, without waiting for full batches: call it
  /// when the app goes to the background. Returns at once.
  public func uploadNow() {
    journal.requestUpload()
  }

  /// Per destination ID. For each, `accepted == delivered + dropped + queued`.
  public var statistics: [String: DestinationStatistics] {
    var result: [String: DestinationStatistics] = [:]
    for (index, id) in laneIDs.enumerated() where result[id] == nil {
      result[id] = journal.statistics(lane: index)
    }
    return result
  }

  /// The journal's storage and health (quarantined segments, cut tails, memory fallback).
  public var journalStatistics: JournalStatistics { journal.health }

  // MARK: Internals

  private func emit(_ rule: EventRule, source: TrackingEvent.Source, screen: String?, extraProperties: [String: PropertyValue] = [:]) {
    let destinations = destinations(of: rule)
    guard destinations != 0 else { return }
    let properties = extraProperties.isEmpty ? rule.properties : rule.properties.merging(extraProperties) { _, extra in extra }
    append(rule, source: source, screen: screen, properties: properties, destinations: destinations)
  }

  /// The same, with bound properties: `capture` runs only when some destination takes the event.
  private func emit(_ rule: EventRule, source: TrackingEvent.Source, screen: String?, capture: (inout CapturedProperties) -> Void) {
    let destinations = destinations(of: rule)
    guard destinations != 0 else { return }
    append(rule, source: source, screen: screen, properties: captured(rule, capture), destinations: destinations)
  }

  /// The lanes the event goes to: routed, enabled and sampled in.
  private func destinations(of rule: EventRule) -> UInt64 {
    var destinations: UInt64 = 0
    for (index, id) in laneIDs.enumerated() where rule.routing.allows(id) && configuration.isEnabled(id) {
      let rate = configuration.samplingRate(eventID: rule.eventID, destinationID: id)
      if rate < 1 && !(rate > 0 && Double.random(in: 0..<1) < rate) { continue }
      destinations |= 1 << UInt64(index)
    }
    return destinations
  }

  private func append(_ rule: EventRule, source: TrackingEvent.Source, screen: String?, properties: [String: PropertyValue], destinations: UInt64) {
    journal.append(
      EventCoding.Draft(eventID: rule.eventID, source: source, screen: screen, properties: properties), destinations: destinations,
      date: Date())
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

  /// A hosting controller's root view, by its full name, then without the module.
  private func hostedScreen(named name: String) -> ScreenID? {
    if let screen = registry.hostedScreen(named: name) { return screen }
    if let dot = name.firstIndex(of: ".") { return registry.hostedScreen(named: String(name[name.index(after: dot)...])) }
    return nil
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
