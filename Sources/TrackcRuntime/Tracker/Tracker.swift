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
  let configuration: any DestinationConfiguration
  let journal: Journal
  private let lanes: [DeliveryLane]
  let laneIDs: [String]
  /// The lanes of plan destinations (by ID) and of collectors, for routing.
  let planLanes: [(index: Int, id: String)]
  let collectorLanes: [(index: Int, id: String)]
  let planLaneIDs: Set<String>
  /// Each collector lane's second lane, for the events that wait for a pending consent category (while
  /// one is pending, an event for any of its destinations goes there, and waits for the answer); empty
  /// when the plan has no pending category.
  let waitingLanes: [Int: Int]
  /// The collectors' lanes that take the call a change of consent sends (`receivesConsentUpdates`).
  let consentUpdateLanes: Set<Int>
  let lock = NSLock()
  // Guarded by `lock`.
  var screensByType: [ObjectIdentifier: ScreenID?] = [:]
  var missingBound = 0
  /// Identity changes, one at a time (`identify`, `alias`, `reset`, a new context).
  let identityLock = NSLock()
  // Guarded by `identityLock`.
  var state: StateFile.State
  var context: TrackingContext
  var consentStamp: ConsentStamp
  let stateFile: StateFile?
  /// The consent categories the plan declares, what the person answered, and the gate delivery asks.
  let consentBook: ConsentBook
  /// The lanes of destinations a consent category gates, and the collectors (what a revocation wakes).
  let gatedLanes: [Int]
  /// Whether the plan gates destinations by consent (fixed by the registry).
  let gating: Bool
  /// Whether an earlier launch left its state (so this one is not a first install).
  var launched: Bool
  /// How long the app may be inactive before it starts a new session (`sessionID`).
  let sessionTimeout: TimeInterval
  /// What sessions read the time from (the system's; tests move it).
  let clock: @Sendable () -> Date
  /// The notification observers of the lifecycle, removed when the tracker goes.
  private var observers: [any NSObjectProtocol] = []
  /// What the migrations (`migration:`) found at trackc's first start on this device: the SDK whose
  /// identity was taken over, or each store looked at and found empty (also written to standard error).
  /// Nil when none was asked for, or when trackc had its own state already.
  public let migrationReport: MigrationReport?

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
  ///   - sessionTimeout: how long the app may stay in the background (or away, between launches) before
  ///     coming back starts a new session (`sessionID`).
  ///   - onDrop: called (on the destination's thread) with events a destination refused for good
  ///     (a 400 on a single event, another 4xx on a batch).
  public convenience init(
    registry: any TrackingRegistry, destinations: [any TrackingDestination],
    configuration: any DestinationConfiguration = AllDestinationsEnabled(), journal: JournalConfiguration = .inMemory,
    retry: RetryPolicy = .default, context: TrackingContext = .current, migration: [Migration] = [],
    sessionTimeout: TimeInterval = Defaults.sessionTimeout,
    onDeliveryFailure: @escaping @Sendable (TrackingEvent, any Error, String) -> Void = { _, _, _ in },
    onDrop: @escaping @Sendable ([TrackingEvent], DropReason, String) -> Void = { _, _, _ in }
  ) {
    self.init(
      registry: registry, destinations: destinations, configuration: configuration, journal: journal, retry: retry, context: context,
      migration: migration, sessionTimeout: sessionTimeout, clock: { Date() }, onDeliveryFailure: onDeliveryFailure, onDrop: onDrop)
  }

  /// The same, with the clock sessions read (tests).
  init(
    registry: any TrackingRegistry, destinations: [any TrackingDestination],
    configuration: any DestinationConfiguration = AllDestinationsEnabled(), journal: JournalConfiguration = .inMemory,
    retry: RetryPolicy = .default, context: TrackingContext = .current, migration: [Migration] = [],
    sessionTimeout: TimeInterval = Defaults.sessionTimeout, clock: @escaping @Sendable () -> Date,
    onDeliveryFailure: @escaping @Sendable (TrackingEvent, any Error, String) -> Void = { _, _, _ in },
    onDrop: @escaping @Sendable ([TrackingEvent], DropReason, String) -> Void = { _, _, _ in }
  ) {
    self.registry = registry
    self.sessionTimeout = sessionTimeout
    self.clock = clock
    self.configuration = configuration
    let kept = Array(destinations.prefix(Self.maximumDestinations))
    laneIDs = kept.map(\.id)
    var seen: [String: Int] = [:]
    var keys = kept.map { destination -> String in
      seen[destination.id, default: 0] += 1
      let count = seen[destination.id]!
      return count == 1 ? destination.id : destination.id + "#\(count)"
    }
    planLanes = kept.enumerated().filter { $0.element.role == .planDestination }.map { ($0.offset, $0.element.id) }
    collectorLanes = kept.enumerated().filter { $0.element.role == .collector }.map { ($0.offset, $0.element.id) }
    planLaneIDs = Set(planLanes.map(\.id))
    // With a category that waits for its first answer, each collector has a second lane for what waits
    // (`waitingLanes`), so that what is for no waiting destination goes meanwhile.
    var laneDestinations = kept
    var waiting: [Int: Int] = [:]
    if !registry.consentDefaults.isEmpty && !registry.pendingConsentCategories.isEmpty {
      for (index, _) in collectorLanes where laneDestinations.count < Self.maximumDestinations {
        waiting[index] = laneDestinations.count
        laneDestinations.append(kept[index])
        keys.append(keys[index] + "#waiting")
      }
    }
    waitingLanes = waiting
    consentUpdateLanes = Set(collectorLanes.map(\.index).filter { kept[$0].receivesConsentUpdates })

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
      migrationReport = nil
    } else if let legacy = LegacyAnonymousID.stored {
      state = StateFile.State(identity: TrackingIdentity(anonymousID: legacy))
      launched = false
      stateFile?.write(state)
      migrationReport = nil
    } else {
      var found: Migration.Found?
      var report: MigrationReport?
      if !migration.isEmpty { (found, report) = Migration.read(migration) }
      migrationReport = report
      if let found {
        // An identity the SDK kept says the app ran here before, whether or not it kept a build.
        state = StateFile.State(
          identity: found.identity, appVersion: found.version, appBuild: found.build, launched: true, session: found.session)
        launched = true
      } else {
        if let report { MigrationReport.log(report) }
        state = StateFile.State(identity: .fresh())
        launched = false
      }
      stateFile?.write(state)
    }
    self.context = context
    // Consent: the plan's categories and defaults, and what the person answered (kept with the identity).
    let consentBook = ConsentBook(
      registry: registry, answers: state.consent, laneDestinations: laneDestinations.map { $0.role == .collector ? nil : $0.id },
      waitingLanes: waiting)
    self.consentBook = consentBook
    consentStamp = consentBook.stamp
    let gating = consentBook.isGating
    self.gating = gating
    gatedLanes =
      gating
      ? laneDestinations.indices.filter {
        laneDestinations[$0].role == .collector || registry.consentCategory(ofDestination: laneDestinations[$0].id) != nil
      } : []
    let journal = Journal(
      configuration: journal, keys: keys,
      snapshot: EventSnapshot(identity: state.identity, context: context, consent: consentStamp, plan: registry.plan, session: state.session?.id))
    self.journal = journal
    let wireName: @Sendable (String) -> String? = { registry.wireName(ofDestination: $0) }
    var inProcess: [String] = []
    for (_, id) in planLanes where !inProcess.contains(id) { inProcess.append(id) }
    let collectorIDs = Set(collectorLanes.map(\.id))
    lanes = laneDestinations.enumerated().map { index, destination in
      DeliveryLane(
        destination: destination, index: index, journal: journal, retry: retry, onFailure: onDeliveryFailure, onDrop: onDrop,
        consent: gating ? consentBook : nil, wireName: wireName, deliveredInProcess: inProcess,
        sessionDestinations: registry.sessionDestinations, configuration: configuration is AllDestinationsEnabled ? nil : configuration,
        collectorIDs: collectorIDs)
    }
    // This launch is the app active: it goes on with the session of the last launch, or starts one.
    startSessionIfDue()
  }

  deinit {
    for observer in observers { NotificationCenter.default.removeObserver(observer) }
    journal.stop()
  }

  func keep(_ more: [any NSObjectProtocol]) {
    identityLock.withLock { observers += more }
  }
}
