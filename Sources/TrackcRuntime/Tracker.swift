import Foundation

/// Turns page phases and handler calls into events, by the generated registry, journals each event
/// once for the destinations its rule allows, remote configuration has not switched off, sampling
/// keeps and consent allows, and delivers it to each of them from the journal. Each event is stamped,
/// when `track()` returns, with the identity (`identify`, `alias`, `reset`), the context and the consent
/// (`setConsent`) in force.
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
  /// The lanes of plan destinations (by ID) and of collectors, for routing.
  private let planLanes: [(index: Int, id: String)]
  private let collectorLanes: [(index: Int, id: String)]
  private let planLaneIDs: Set<String>
  private let lock = NSLock()
  // Guarded by `lock`.
  private var screensByType: [ObjectIdentifier: ScreenID?] = [:]
  private var missingBound = 0
  /// Identity changes, one at a time (`identify`, `alias`, `reset`, a new context).
  private let identityLock = NSLock()
  // Guarded by `identityLock`.
  private var state: StateFile.State
  private var context: TrackingContext
  private var consentStamp: ConsentStamp
  private let stateFile: StateFile?
  /// The consent categories the plan declares, what the person answered, and the gate delivery asks.
  private let consentBook: ConsentBook
  /// The lanes of destinations a consent category gates, and the collectors (what a revocation wakes).
  private let gatedLanes: [Int]
  /// Whether the plan gates destinations by consent (fixed by the registry).
  private let gating: Bool
  /// Whether an earlier launch left its state (so this one is not a first install).
  private var launched: Bool
  /// The notification observers of the lifecycle, removed when the tracker goes.
  private var observers: [any NSObjectProtocol] = []

  /// At most this many destinations (a bit each in a journal record); further ones get nothing.
  public static let maximumDestinations = 64

  /// - Parameters:
  ///   - destinations: each gets its own delivery thread and cursor; IDs should be unique (a repeated
  ///     ID gets a cursor of its own, and statistics name the first).
  ///   - configuration: which destinations are switched on, and sampling (remote configuration).
  ///   - journal: where events wait for delivery. In memory by default (tests, previews): an app passes
  ///     a directory (`.applicationSupport()`, or `.directory(url)`) so that events survive the
  ///     process. The identity is kept in the same directory.
  ///   - retry: the backoff between retries of a failing destination (the one retry layer).
  ///   - context: what events say about the app, device and OS; collected from the system by default.
  ///   - migration: analytics SDKs the app used before trackc, whose identity and last-seen version trackc
  ///     takes over at its first start (no state in the journal's directory yet): the first that left any.
  ///   - onDeliveryFailure: called (on the destination's thread) each time delivery of an event fails
  ///     and will be retried.
  ///   - onDrop: called (on the destination's thread) with events a destination refused for good
  ///     (a 400 on a single event, another 4xx on a batch).
  public init(
    registry: any TrackingRegistry, destinations: [any TrackingDestination],
    configuration: any DestinationConfiguration = AllDestinationsEnabled(), journal: JournalConfiguration = .inMemory,
    retry: RetryPolicy = .default, context: TrackingContext = .current, migration: [Migration] = [],
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
    planLanes = kept.enumerated().filter { $0.element.role == .planDestination }.map { ($0.offset, $0.element.id) }
    collectorLanes = kept.enumerated().filter { $0.element.role == .collector }.map { ($0.offset, $0.element.id) }
    planLaneIDs = Set(planLanes.map(\.id))

    // The identity of the install: from the journal's directory, else (an app updated from a release
    // that kept only an anonymous ID in the user defaults) from there, else from the analytics SDK the
    // app used before (with the version and build it last saw: the app was there), else a new one.
    stateFile = journal.directory.flatMap { directory in
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      return StateFile.open(directory: directory)
    }
    if let stored = stateFile?.read() {
      state = stored
      launched = stored.launched
    } else if let legacy = LegacyAnonymousID.stored {
      state = StateFile.State(identity: TrackingIdentity(anonymousID: legacy))
      launched = false
      stateFile?.write(state)
    } else if let found = Migration.read(migration) {
      state = StateFile.State(identity: found.identity, appVersion: found.version, appBuild: found.build, launched: found.hadApp)
      launched = found.hadApp
      stateFile?.write(state)
    } else {
      state = StateFile.State(identity: .fresh())
      launched = false
      stateFile?.write(state)
    }
    self.context = context
    // Consent: the plan's categories and defaults, and what the person answered (kept with the identity).
    let consentBook = ConsentBook(
      registry: registry, answers: state.consent, laneDestinations: kept.map { $0.role == .collector ? nil : $0.id })
    self.consentBook = consentBook
    consentStamp = consentBook.stamp
    let gating = consentBook.isGating
    self.gating = gating
    gatedLanes =
      gating ? kept.indices.filter { kept[$0].role == .collector || registry.consentCategory(ofDestination: kept[$0].id) != nil } : []
    let journal = Journal(
      configuration: journal, keys: keys, snapshot: EventSnapshot(identity: state.identity, context: context, consent: consentStamp))
    self.journal = journal
    let wireName: @Sendable (String) -> String? = { registry.wireName(ofDestination: $0) }
    lanes = kept.enumerated().map { index, destination in
      DeliveryLane(
        destination: destination, index: index, journal: journal, retry: retry, onFailure: onDeliveryFailure, onDrop: onDrop,
        consent: gating ? consentBook : nil, wireName: wireName)
    }
  }

  deinit {
    for observer in observers { NotificationCenter.default.removeObserver(observer) }
    journal.stop()
  }

  func keep(_ more: [any NSObjectProtocol]) {
    identityLock.withLock { observers += more }
  }

  // MARK: Identity

  /// Who the events tracked from now on are about.
  public var identity: TrackingIdentity { identityLock.withLock { state.identity } }

  /// What the events tracked from now on say about the app, device and OS.
  public var currentContext: TrackingContext { identityLock.withLock { context } }

  /// The user signed in (or the app learnt more about them): the events tracked from now on carry
  /// `userID` and the traits, and collector destinations get an identify call. Traits merge with those
  /// of earlier calls for the same user; another user starts afresh. Kept across launches (and kill -9)
  /// in the journal's directory. Traits too large to keep (over about 60 KB) are not kept.
  public func identify(userID: String, traits: [String: PropertyValue] = [:]) {
    change { state in
      let merged = state.identity.userID == userID ? state.identity.traits.merging(traits) { _, new in new } : traits
      state.identity = TrackingIdentity(anonymousID: state.identity.anonymousID, userID: userID, traits: merged)
      if !StateFile.fits(state) {
        state.identity = TrackingIdentity(anonymousID: state.identity.anonymousID, userID: userID)
      }
      return EventCoding.Draft(eventID: "", source: .identify, screen: nil, properties: traits)
    }
  }

  /// The user's identity so far (their user ID, else the anonymous ID) is merged into `userID`, which
  /// the events tracked from now on carry; collector destinations get an alias call. Traits are kept.
  public func alias(_ userID: String) {
    change { state in
      let previous = state.identity.userID ?? state.identity.anonymousID
      state.identity = TrackingIdentity(anonymousID: state.identity.anonymousID, userID: userID, traits: state.identity.traits)
      return EventCoding.Draft(eventID: "", source: .alias(previousID: previous), screen: nil, properties: [:])
    }
  }

  /// The user signed out: a new anonymous ID, no user ID, no traits, from the next event on (events
  /// tracked before keep theirs). Nothing is sent.
  public func reset() {
    change { state in
      state.identity = .fresh()
      return nil
    }
  }

  /// The journal, for the lifecycle's wait for delivery.
  var journalForLifecycle: Journal { journal }

  /// Remembers the app's version and build, and returns those of the last launch (nil on the first).
  func rememberApplication(version: String?, build: String?) -> (version: String?, build: String?)? {
    identityLock.lock()
    defer { identityLock.unlock() }
    let previous = launched ? (state.appVersion, state.appBuild) : nil
    launched = true
    state.launched = true
    state.appVersion = version
    state.appBuild = build
    stateFile?.write(state)
    return previous
  }

  /// Re-reads the context from the system (the locale or time zone changed).
  func refreshContext(_ context: TrackingContext = .current) {
    identityLock.lock()
    defer { identityLock.unlock() }
    guard context != self.context else { return }
    self.context = context
    journal.update(EventSnapshot(identity: state.identity, context: context, consent: consentStamp), call: nil, destinations: 0, date: Date())
  }

  /// Applies a change of identity: persisted first, then the new snapshot and the call (if any) go into
  /// the journal together, so no event falls between them.
  private func change(_ apply: (inout StateFile.State) -> EventCoding.Draft?) {
    identityLock.lock()
    defer { identityLock.unlock() }
    let call = apply(&state)
    stateFile?.write(state)
    var destinations: UInt64 = 0
    for (index, id) in collectorLanes where configuration.isEnabled(id) { destinations |= 1 << UInt64(index) }
    journal.update(
      EventSnapshot(identity: state.identity, context: context, consent: consentStamp), call: call, destinations: destinations, date: Date())
  }

  // MARK: Consent

  /// The plan's consent categories (`privacy.consent`), each granted or not now: as the person answered
  /// (`setConsent`), else as the plan's default says. Empty when the plan declares none.
  public var consent: [String: Bool] { consentBook.current }

  /// The plan's consent categories still waiting for the person's first answer (`default: pending`):
  /// ask now. Events for their destinations are held in the journal until the answer (within the plan's
  /// `privacy.pending` limits), then delivered on a grant or dropped on a refusal (`consentDenied`).
  /// Empty once every such category is answered, and for a plan without any.
  public var pendingConsent: Set<String> { consentBook.pending }

  /// The person granted or refused consent categories (a consent dialog's answers, all at once). Kept
  /// across launches (and kill -9) with the identity, written before this returns. From now on, an
  /// event goes only to destinations whose category is granted (a destination the plan gates by no
  /// category is not affected). Revoking a category drops what is queued for its destinations
  /// (counted as `DropReason.consentRevoked`): once this returns, no event tracked before it is handed
  /// to them, even if the category is granted again later (an upload already under way completes).
  ///
  /// The first answer about a pending category (`default: pending`) releases what waited for it: granted,
  /// it goes at once; refused, it is dropped (counted as `DropReason.consentDenied`).
  public func setConsent(_ answers: [String: Bool]) {
    identityLock.lock()
    let (stored, stamp, revoked, answeredPending) = consentBook.apply(answers)
    state.consent = stored
    stateFile?.write(state)
    consentStamp = stamp
    journal.update(EventSnapshot(identity: state.identity, context: context, consent: stamp), call: nil, destinations: 0, date: Date())
    identityLock.unlock()
    guard revoked || answeredPending else { return }
    // What a lane is handing over now was checked before; wait for it, then have the lanes look again
    // (and the lanes that held for a pending category, read what waited).
    if revoked { consentBook.waitForHandOvers() }
    journal.interruptPause(lanes: gatedLanes)
    journal.requestUpload()
  }

  /// The same, for one category.
  public func setConsent(_ category: String, granted: Bool) {
    setConsent([category: granted])
  }

  // MARK: Tracking

  /// A page phase of a screen, by the screen's type (a subclass the config does not list counts as its
  /// listed superclass). Nothing happens for a screen or phase the config does not map.
  @_spi(Generated) public func trackPage(of screenType: Any.Type, _ phase: PagePhase) {
    guard let screen = screen(of: screenType), let rule = registry.pageRule(screen: screen, phase: phase) else { return }
    emit(rule, source: .page(phase), screen: registry.name(of: screen))
  }

  /// A handler call on a screen, by the screen's type and the handler's generated ID.
  @_spi(Generated) public func trackControl(of screenType: Any.Type, handler: HandlerID) {
    guard let screen = screen(of: screenType), let rule = registry.controlRule(screen: screen, handler: handler) else { return }
    emit(rule, source: .control(handler: registry.name(of: handler)), screen: registry.name(of: screen))
  }

  /// The same, with the properties its bindings read: `capture` runs only when the screen maps the
  /// handler, so an unmapped call reads nothing.
  @_spi(Generated) public func trackControl(of screenType: Any.Type, handler: HandlerID, capture: (inout CapturedProperties) -> Void) {
    guard let screen = screen(of: screenType), let rule = registry.controlRule(screen: screen, handler: handler) else { return }
    emit(rule, source: .control(handler: registry.name(of: handler)), screen: registry.name(of: screen), capture: capture)
  }

  /// The same, for a handler reached through the Objective-C runtime (`ObjCHandlerHook`): `read` returns a
  /// bound property's value by key path (`EventRule.keyPathBindings`), from the object or an argument.
  @_spi(Generated) public func trackControl(of screenType: Any.Type, handler: HandlerID, read: (KeyPathBinding) -> Any?) {
    guard let screen = screen(of: screenType), let rule = registry.controlRule(screen: screen, handler: handler) else { return }
    withoutActuallyEscaping(read) { read in
      emit(rule, source: .control(handler: registry.name(of: handler)), screen: registry.name(of: screen), read: read)
    }
  }

  /// A page phase whose event binds the screen's state.
  @_spi(Generated) public func trackPage(of screenType: Any.Type, _ phase: PagePhase, capture: (inout CapturedProperties) -> Void) {
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

  /// What `capture` reads (written after the rule's static properties), counting the required values
  /// that were nil. Read only once routing has decided the event is sent.
  private func captured(_ capture: (inout CapturedProperties) -> Void) -> PropertyPairs {
    var properties = CapturedProperties()
    capture(&properties)
    if properties.missingRequired > 0 {
      lock.lock()
      missingBound += properties.missingRequired
      lock.unlock()
    }
    return properties.pairs
  }

  /// A page phase by the view controller's type name (`String(reflecting:)`), as the UIKit hooks give it;
  /// `read` returns a bound property's value by key path from the screen.
  @_spi(Generated) public func trackPage(screenNamed screenName: String, _ phase: PagePhase, read: ((KeyPathBinding) -> Any?)? = nil) {
    guard let screen = screen(named: screenName), let rule = registry.pageRule(screen: screen, phase: phase) else { return }
    emit(rule, source: .page(phase), screen: registry.name(of: screen), read: read)
  }

  /// A view controller's page phase where the view controller may be a hosting controller: the class's
  /// own screen if the config lists it, else the screen its SwiftUI root view is (`rootView`, its type
  /// as `String(reflecting:)` writes it; see `HostedRootView`). `read` reads from the view controller.
  @_spi(Generated) public func trackPage(
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
  @_spi(Generated) public func track<ID: TrackingEventID>(_ id: ID, screen: String? = nil, capture: (inout CapturedProperties) -> Void) {
    guard let rule = registry.rule(eventID: id.rawValue) else { return }
    emit(rule, source: .manual, screen: screen, capture: capture)
  }

  /// An event by its generated rule (an entry point's open event, which `PendingRoute` tracks): routed
  /// and carrying the static properties as that rule says, whichever other mapping shares its ID.
  @_spi(Generated) public func track(_ rule: EventRule, screen: String?, properties: [String: PropertyValue] = [:]) {
    emit(rule, source: .manual, screen: screen, extraProperties: properties)
  }

  // MARK: Delivery

  /// Waits until every event tracked so far has been delivered (or dropped) by every destination;
  /// false on timeout (a destination that keeps failing, say). Uploads partial batches at once. The
  /// wait is on a thread of its own: the caller's (the main actor, say) is free meanwhile.
  @discardableResult
  public func flush(timeout: TimeInterval = 5) async -> Bool {
    let journal = journal
    let deadline = Date(timeIntervalSinceNow: timeout)
    return await withCheckedContinuation { continuation in
      DispatchQueue.global(qos: .utility).async { continuation.resume(returning: journal.waitUntilDelivered(until: deadline)) }
    }
  }

  /// The same, blocking the calling thread: for scripts and tests, never an app's main thread.
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

  // MARK: Waiting (tests)

  /// Waits until `condition` holds; false once `timeout` passes with it still false (or the tracker
  /// stopped). `condition` is asked at once, then again at each change on the delivery side (a batch
  /// acknowledged, a failed attempt, recovered events counted, an identity or consent change, or
  /// `wakeWaiters`), never on a timer. What `track()` changes is there when it returns, so it wakes
  /// nobody (the tracking path stays as it was). For tests (`@testable`): an app waits with `flush`.
  func waitUntil(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
    journal.waitUntil(Date(timeIntervalSinceNow: timeout), condition)
  }

  /// The same, without holding the caller's thread (the wait is on a thread of its own, as `flush`'s).
  func waitUntil(timeout: TimeInterval, _ condition: @escaping @Sendable () -> Bool) async -> Bool {
    let journal = journal
    let deadline = Date(timeIntervalSinceNow: timeout)
    return await withCheckedContinuation { continuation in
      DispatchQueue.global(qos: .utility).async { continuation.resume(returning: journal.waitUntil(deadline, condition)) }
    }
  }

  /// Has `waitUntil` ask its condition again now: for a condition that depends on more than the tracker.
  func wakeWaiters() {
    journal.wakeWaiters()
  }

  // MARK: Internals

  private func emit(_ rule: EventRule, source: TrackingEvent.Source, screen: String?, extraProperties: [String: PropertyValue] = [:]) {
    let (destinations, forwardedTo) = route(rule)
    guard destinations != 0 else { return }
    let extra = extraProperties.isEmpty ? [] : PropertyPairs(extraProperties)
    append(rule, source: source, screen: screen, extra: extra, destinations: destinations, forwardedTo: forwardedTo)
  }

  /// The same, with bound properties: `capture` runs only when some destination takes the event.
  private func emit(_ rule: EventRule, source: TrackingEvent.Source, screen: String?, capture: (inout CapturedProperties) -> Void) {
    let (destinations, forwardedTo) = route(rule)
    guard destinations != 0 else { return }
    append(rule, source: source, screen: screen, extra: captured(capture), destinations: destinations, forwardedTo: forwardedTo)
  }

  /// The lanes the event goes to, and for collectors the plan destinations it is for: a plan destination
  /// when the rule routes there, remote configuration has it on and sampling keeps the event; a
  /// collector when some destination the rule routes to (on, and sampled in) has no lane of its own
  /// (every destination, when the plan does not restrict routing).
  private func route(_ rule: EventRule) -> (UInt64, [String]?) {
    // Consent, when the plan gates destinations by it: the lanes and categories not granted now.
    let consent = gating ? consentBook.routingFilter : ConsentBook.RoutingFilter()
    var destinations: UInt64 = 0
    for (index, id) in planLanes where rule.routes(to: id) && isOn(id, for: rule) {
      destinations |= 1 << UInt64(index)
    }
    destinations &= ~consent.blockedLanes
    guard !collectorLanes.isEmpty else { return (destinations, nil) }
    var forwardedTo: [String]?
    if case .only = rule.routing {
      let routed = rule.destinationIDs
      var kept = routed
      if !planLaneIDs.isEmpty || !(configuration is AllDestinationsEnabled) || !consent.deniedCategories.isEmpty {
        kept = routed.filter { !planLaneIDs.contains($0) && !consentBook.blocks($0, by: consent) && isOn($0, for: rule) }
      }
      guard !kept.isEmpty else { return (destinations, nil) }
      forwardedTo = kept
    }
    for (index, id) in collectorLanes where isOn(id, for: rule) { destinations |= 1 << UInt64(index) }
    return (destinations, forwardedTo)
  }

  /// Remote configuration has the destination on, and sampling keeps this event for it.
  private func isOn(_ id: String, for rule: EventRule) -> Bool {
    guard configuration.isEnabled(id) else { return false }
    let rate = configuration.samplingRate(eventID: rule.eventID, destinationID: id)
    return rate >= 1 || (rate > 0 && Double.random(in: 0..<1) < rate)
  }

  private func append(
    _ rule: EventRule, source: TrackingEvent.Source, screen: String?, extra: PropertyPairs, destinations: UInt64, forwardedTo: [String]?
  ) {
    journal.append(
      EventCoding.Draft(
        eventID: rule.eventID, source: source, screen: screen, properties: rule.propertyPairs, extra: extra, forwardedTo: forwardedTo),
      destinations: destinations, date: Date())
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
