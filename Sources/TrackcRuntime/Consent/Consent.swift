import Foundation

/// What the person using the app answered, per consent category: kept across launches (and kill -9)
/// in the state file beside the identity (`StateFile`).
///
/// Each category also counts its revocations: an event carries the count of each category granted
/// when it was tracked (`ConsentStamp`), and is delivered only while that count is still the current
/// one. So an event tracked before a revocation is never sent after it, even once the category is
/// granted again.
struct ConsentAnswers: Sendable, Hashable {
  struct Answer: Sendable, Hashable {
    var granted: Bool
    var revocations: UInt32
    /// Refused at its first answer while events waited for it (`default: pending`), and refused since:
    /// what waited is dropped as `consentDenied` rather than `consentRevoked`.
    var refusedWhilePending = false
  }

  /// The categories answered; the others are as the plan's defaults say.
  var categories: [String: Answer] = [:]

  /// Whether `category` is granted: as answered, else as the plan's default says.
  func isGranted(_ category: String, defaults: [String: Bool]) -> Bool {
    categories[category]?.granted ?? defaults[category] ?? false
  }

  /// Whether `category` waits for its first answer: `pending` in the plan, and not answered.
  func isPending(_ category: String, pending: Set<String>) -> Bool {
    categories[category] == nil && pending.contains(category)
  }

  /// Applies `answers` over `defaults` (the plan's): a category granted before and not now is revoked.
  /// A `pending` category not answered before counts as granted until then (what was tracked meanwhile
  /// waits for this answer), so refusing it revokes what waited.
  mutating func apply(_ answers: [String: Bool], defaults: [String: Bool], pending: Set<String> = []) {
    for (category, granted) in answers {
      let waited = isPending(category, pending: pending)
      let current = categories[category] ?? Answer(granted: waited || (defaults[category] ?? false), revocations: 0)
      categories[category] = Answer(
        granted: granted, revocations: current.revocations &+ (current.granted && !granted ? 1 : 0),
        refusedWhilePending: !granted && (waited || current.refusedWhilePending))
    }
  }
}

/// The consent categories granted when an event was tracked, each with its revocation count then:
/// part of the event's snapshot (`EventSnapshot`), journaled with it.
struct ConsentStamp: Sendable, Hashable {
  var granted: [String: UInt32] = [:]
}

/// The consent in force, read by `track()` (which destinations an event may be routed to) and by the
/// delivery lanes (whether a queued event may still be handed over), and the one place answers change.
///
/// A lane hands events over under its lane's lock (`handOver`), checking each against the consent in
/// force at that moment; a revocation waits for every hand-over in progress before it returns. So once
/// `Tracker.setConsent` returns, no event tracked before it is handed to a destination of a category it
/// revoked (one handed over just before is not recalled: an upload already started completes).
///
/// `track()` reads the routing filter under a lock of its own, which only a change of consent takes
/// besides: never one a delivery lane holds. (When it shared the answers' lock, a lane checking a batch
/// held it for the whole batch, and `track()` waited for it: docs/development/benchmarks.md.) A lane holds the
/// answers' lock only to copy them, and checks its events without it.
final class ConsentBook: @unchecked Sendable {
  /// The plan's categories, and whether each is granted before the person answers.
  let defaults: [String: Bool]
  /// The plan's categories that wait for the first answer (`default: pending`), and how much may wait.
  let pendingDefaults: Set<String>
  let pendingLimits: PendingConsentLimits
  private let registry: any TrackingRegistry
  /// The plan's destinations a category gates (`TrackingRegistry.consentGatedDestinations`).
  private let gatedDestinations: [String]
  private let lock = NSLock()
  // Guarded by `lock`.
  private var answers: ConsentAnswers
  /// One per lane: held while the lane checks events and hands them over.
  private let handOverLocks: [NSLock]

  /// What `track()` reads: the plan destinations' lanes consent blocks now, and the categories not
  /// granted (for the plan destinations a collector forwards to). Worked out at each change.
  struct RoutingFilter: Sendable {
    var blockedLanes: UInt64 = 0
    var deniedCategories: Set<String> = []
    /// The categories waiting for their first answer now.
    var pendingCategories: Set<String> = []
  }

  /// The plan destination of each lane (nil for a collector).
  private let laneDestinations: [String?]
  /// What `track()` takes to read `filter`; besides it, only `apply` (a change of consent) takes it.
  private let filterLock = NSLock()
  // Guarded by `filterLock`.
  private var filter = RoutingFilter()

  /// The collectors that have a lane for what waits for a pending category (`Tracker.waitingLanes`), by
  /// their lanes: those never hold.
  private let collectorsWithWaitingLane: Set<Int>

  init(registry: any TrackingRegistry, answers: ConsentAnswers, laneDestinations: [String?], waitingLanes: [Int: Int] = [:]) {
    collectorsWithWaitingLane = Set(waitingLanes.keys)
    self.registry = registry
    defaults = registry.consentDefaults
    pendingDefaults = registry.pendingConsentCategories
    pendingLimits = registry.pendingConsentLimits
    gatedDestinations = registry.consentGatedDestinations
    self.answers = answers
    self.laneDestinations = laneDestinations
    handOverLocks = laneDestinations.map { _ in NSLock() }
    filter = Self.filter(answers, defaults: defaults, pending: pendingDefaults, laneDestinations: laneDestinations, registry: registry)
  }

  /// The routing filter in force (a lock no delivery lane takes, no string hashed: `track()`'s cost).
  var routingFilter: RoutingFilter {
    filterLock.lock()
    defer { filterLock.unlock() }
    return filter
  }

  private static func filter(
    _ answers: ConsentAnswers, defaults: [String: Bool], pending: Set<String>, laneDestinations: [String?], registry: any TrackingRegistry
  ) -> RoutingFilter {
    var filter = RoutingFilter()
    filter.pendingCategories = pending.filter { answers.isPending($0, pending: pending) }
    // A pending category blocks nothing: its destinations get the events, which wait for the answer.
    for category in Set(defaults.keys).union(answers.categories.keys)
    where !answers.isGranted(category, defaults: defaults) && !answers.isPending(category, pending: pending) {
      filter.deniedCategories.insert(category)
    }
    guard !filter.deniedCategories.isEmpty else { return filter }
    for (lane, destination) in laneDestinations.enumerated() {
      if let destination, let category = registry.consentCategory(ofDestination: destination), filter.deniedCategories.contains(category) {
        filter.blockedLanes |= 1 << UInt64(lane)
      }
    }
    return filter
  }

  /// Whether consent blocks a plan destination a collector would forward to, by `filter`.
  func blocks(_ destination: String, by filter: RoutingFilter) -> Bool {
    guard !filter.deniedCategories.isEmpty, let category = registry.consentCategory(ofDestination: destination) else { return false }
    return filter.deniedCategories.contains(category)
  }

  /// How much may wait in a lane that holds: the plan's limits (`privacy.pending`), with the time a plan
  /// destination's own `pending_hours` says; for a collector, the shortest time of the destinations whose
  /// category is pending now (an event waits whole, so no longer than any of them takes it).
  func pendingLimits(lane: Int) -> PendingConsentLimits {
    var limits = pendingLimits
    guard lane < laneDestinations.count else { return limits }
    func hours(_ destination: String) -> Double? { registry.pendingConsentHours(ofDestination: destination) }
    if let destination = laneDestinations[lane] {
      if let hours = hours(destination) { limits.seconds = max(0, hours * 3600) }
      return limits
    }
    let pending = routingFilter.pendingCategories
    for destination in gatedDestinations {
      guard let category = registry.consentCategory(ofDestination: destination), pending.contains(category) else { continue }
      limits.seconds = min(limits.seconds, max(0, (hours(destination) ?? pendingLimits.seconds / 3600) * 3600))
    }
    return limits
  }

  /// Whether an event for `targets` (nil: every destination) waits for a pending category by `filter`:
  /// one of them is gated by a category still waiting for its first answer.
  func waits(_ targets: [String]?, by filter: RoutingFilter) -> Bool {
    guard !filter.pendingCategories.isEmpty else { return false }
    return (targets ?? gatedDestinations).contains { target in
      registry.consentCategory(ofDestination: target).map { filter.pendingCategories.contains($0) } ?? false
    }
  }

  /// Whether the plan declares consent categories at all (without, nothing is gated).
  var isGating: Bool { !defaults.isEmpty }

  private func isGrantedLocked(_ category: String) -> Bool {
    answers.isGranted(category, defaults: defaults)
  }

  /// The categories still waiting for their first answer.
  var pending: Set<String> {
    guard !pendingDefaults.isEmpty else { return [] }
    let answers = lock.withLock { self.answers }
    return pendingDefaults.filter { answers.isPending($0, pending: pendingDefaults) }
  }

  /// Whether a lane holds what it has: a plan destination's while its category is pending; a collector's
  /// lane for what waits while any category is (an event goes to a collector once, with every destination
  /// it is for, and a second copy would be dropped as a duplicate of its message ID: so it waits for the
  /// answers whole). A collector's own lane, when it has a lane for what waits, has only events for no
  /// pending destination, and never holds.
  func holds(lane: Int) -> Bool {
    guard !pendingDefaults.isEmpty, lane < laneDestinations.count else { return false }
    let answers = lock.withLock { self.answers }
    guard let destination = laneDestinations[lane] else {
      guard !collectorsWithWaitingLane.contains(lane) else { return false }
      return pendingDefaults.contains { answers.isPending($0, pending: pendingDefaults) }
    }
    return registry.consentCategory(ofDestination: destination).map { answers.isPending($0, pending: pendingDefaults) } ?? false
  }

  /// Every plan category, granted or not.
  var current: [String: Bool] {
    lock.lock()
    defer { lock.unlock() }
    var result: [String: Bool] = [:]
    for category in defaults.keys { result[category] = isGrantedLocked(category) }
    for (category, answer) in answers.categories { result[category] = answer.granted }
    return result
  }

  /// What events tracked now carry.
  var stamp: ConsentStamp {
    lock.lock()
    defer { lock.unlock() }
    return stampLocked()
  }

  private func stampLocked() -> ConsentStamp {
    var stamp = ConsentStamp()
    // A pending category is in the stamp as granted: what is tracked now waits for its first answer.
    for category in Set(defaults.keys).union(answers.categories.keys)
    where isGrantedLocked(category) || answers.isPending(category, pending: pendingDefaults) {
      stamp.granted[category] = answers.categories[category]?.revocations ?? 0
    }
    return stamp
  }

  /// Records answers; returns the new answers and stamp, whether some category was revoked, and whether
  /// some pending category got its first answer (what waited for it can go, or be dropped, now).
  func apply(_ changes: [String: Bool]) -> (answers: ConsentAnswers, stamp: ConsentStamp, revoked: Bool, answeredPending: Bool) {
    lock.lock()
    defer { lock.unlock() }
    let before = answers
    let answeredPending = changes.keys.contains { answers.isPending($0, pending: pendingDefaults) }
    answers.apply(changes, defaults: defaults, pending: pendingDefaults)
    let filter = Self.filter(answers, defaults: defaults, pending: pendingDefaults, laneDestinations: laneDestinations, registry: registry)
    filterLock.withLock { self.filter = filter }
    let revoked = changes.keys.contains { (answers.categories[$0]?.revocations ?? 0) != (before.categories[$0]?.revocations ?? 0) }
    return (answers, stampLocked(), revoked, answeredPending)
  }

  /// Waits until no lane is handing events over (each hand-over began checked against the consent
  /// before the change that calls this, and ends before it returns).
  func waitForHandOvers() {
    for lock in handOverLocks {
      lock.lock()
      lock.unlock()
    }
  }

  /// Runs `body` (a lane's check and hand-over) with the lane's lock held.
  func handOver<Result>(lane: Int, _ body: () -> Result) -> Result {
    guard lane < handOverLocks.count else { return body() }
    handOverLocks[lane].lock()
    defer { handOverLocks[lane].unlock() }
    return body()
  }

  /// Why an event stamped `stamp` may not go to a destination of `category` under `answers`; nil when it
  /// may: the category is granted, and was granted (or pending) when the event was tracked with no
  /// revocation since.
  private func refusal(_ category: String?, _ stamp: ConsentStamp, _ answers: ConsentAnswers) -> DropReason? {
    guard let category else { return nil }
    let answer = answers.categories[category]
    let revocations = answer?.revocations ?? 0
    guard let tracked = stamp.granted[category] else { return .consentRevoked }
    if answers.isGranted(category, defaults: defaults) && tracked == revocations { return nil }
    // Refused at the first answer, after waiting for it.
    if answer?.refusedWhilePending == true && tracked &+ 1 == revocations { return .consentDenied }
    return .consentRevoked
  }

  /// What a lane may still hand over of `events`: for a plan destination (`destination`), the events
  /// its category allows; for a collector (`destination` nil), each event with the plan destinations it
  /// is for narrowed to those consent allows (none left: not handed over), and each event for every
  /// destination (identify and alias calls among them) with the gated destinations consent refuses it
  /// withheld (`TrackingEvent.withheldFrom`). The others, by reason.
  /// Checked against the answers in force when it is called, copied under the lock, which is not held
  /// while the events are looked at.
  ///
  /// `expiring`: the events waited for a pending category past the plan's limits, and go without it: the
  /// categories still pending count as refused for them (`consentPendingLimit`).
  func admit(_ events: [TrackingEvent], destination: String?, expiring: Bool = false) -> (kept: [TrackingEvent], dropped: [DropReason: Int]) {
    let answers = lock.withLock { self.answers }
    var kept: [TrackingEvent] = []
    kept.reserveCapacity(events.count)
    var dropped: [DropReason: Int] = [:]
    func refusal(_ category: String?, _ event: TrackingEvent) -> DropReason? {
      if expiring, let category, answers.isPending(category, pending: pendingDefaults) { return .consentPendingLimit }
      return self.refusal(category, event.snapshot.consent, answers)
    }
    if let destination {
      let category = registry.consentCategory(ofDestination: destination)
      guard category != nil else { return (events, [:]) }
      for event in events {
        if let reason = refusal(category, event) {
          dropped[reason, default: 0] += 1
        } else {
          kept.append(event)
        }
      }
      return (kept, dropped)
    }
    // A collector's events carry the answers as they stand for each (Segment's consent stamp).
    func stamped(_ event: TrackingEvent) -> TrackingEvent {
      var event = event
      for category in defaults.keys {
        event.categoryPreferences[registry.consentWireName(ofCategory: category) ?? category] = refusal(category, event) == nil
      }
      return event
    }
    for event in events.map(stamped) {
      guard let targets = event.forwardedTo else {
        // For every destination (an identify or alias call, or a rule the plan does not restrict): the
        // collector is told to leave out those whose category this event may not reach.
        let withheld = gatedDestinations.filter { refusal(registry.consentCategory(ofDestination: $0), event) != nil }
        kept.append(withheld.isEmpty ? event : event.withheld(from: withheld))
        continue
      }
      var allowed: [String] = []
      var firstRefusal: DropReason?
      for target in targets {
        if let reason = refusal(registry.consentCategory(ofDestination: target), event) {
          firstRefusal = firstRefusal ?? reason
        } else {
          allowed.append(target)
        }
      }
      if allowed.count == targets.count {
        kept.append(event)
      } else if !allowed.isEmpty {
        kept.append(event.forwarded(to: allowed))
      } else {
        dropped[firstRefusal ?? .consentRevoked, default: 0] += 1
      }
    }
    return (kept, dropped)
  }
}

extension TrackingEvent {
  /// The same event, for fewer plan destinations.
  func forwarded(to destinations: [String]) -> TrackingEvent {
    var event = TrackingEvent(
      id: id, source: source, screen: screen, properties: properties, timestamp: timestamp, messageID: messageID, snapshot: snapshot,
      forwardedTo: destinations, wireName: wireName, sendsEnterAsTrack: sendsEnterAsTrack)
    event.categoryPreferences = categoryPreferences
    return event
  }

  /// The same event, for every destination but `destinations`.
  func withheld(from destinations: [String]) -> TrackingEvent {
    var event = TrackingEvent(
      id: id, source: source, screen: screen, properties: properties, timestamp: timestamp, messageID: messageID, snapshot: snapshot,
      forwardedTo: nil, withheldFrom: destinations, wireName: wireName, sendsEnterAsTrack: sendsEnterAsTrack)
    event.categoryPreferences = categoryPreferences
    return event
  }
}
