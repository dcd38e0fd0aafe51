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
  }

  /// The categories answered; the others are as the plan's defaults say.
  var categories: [String: Answer] = [:]

  /// Whether `category` is granted: as answered, else as the plan's default says.
  func isGranted(_ category: String, defaults: [String: Bool]) -> Bool {
    categories[category]?.granted ?? defaults[category] ?? false
  }

  /// Applies `answers` over `defaults` (the plan's): a category granted before and not now is revoked.
  mutating func apply(_ answers: [String: Bool], defaults: [String: Bool]) {
    for (category, granted) in answers {
      let current = categories[category] ?? Answer(granted: defaults[category] ?? false, revocations: 0)
      categories[category] = Answer(granted: granted, revocations: current.revocations &+ (current.granted && !granted ? 1 : 0))
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
/// held it for the whole batch, and `track()` waited for it: docs/performance.md.) A lane holds the
/// answers' lock only to copy them, and checks its events without it.
final class ConsentBook: @unchecked Sendable {
  /// The plan's categories, and whether each is granted before the person answers.
  let defaults: [String: Bool]
  private let registry: any TrackingRegistry
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
  }

  /// The plan destination of each lane (nil for a collector).
  private let laneDestinations: [String?]
  /// What `track()` takes to read `filter`; besides it, only `apply` (a change of consent) takes it.
  private let filterLock = NSLock()
  // Guarded by `filterLock`.
  private var filter = RoutingFilter()

  init(registry: any TrackingRegistry, answers: ConsentAnswers, laneDestinations: [String?]) {
    self.registry = registry
    defaults = registry.consentDefaults
    self.answers = answers
    self.laneDestinations = laneDestinations
    handOverLocks = laneDestinations.map { _ in NSLock() }
    filter = Self.filter(answers, defaults: defaults, laneDestinations: laneDestinations, registry: registry)
  }

  /// The routing filter in force (a lock no delivery lane takes, no string hashed: `track()`'s cost).
  var routingFilter: RoutingFilter {
    filterLock.lock()
    defer { filterLock.unlock() }
    return filter
  }

  private static func filter(
    _ answers: ConsentAnswers, defaults: [String: Bool], laneDestinations: [String?], registry: any TrackingRegistry
  ) -> RoutingFilter {
    var filter = RoutingFilter()
    for category in Set(defaults.keys).union(answers.categories.keys) where !answers.isGranted(category, defaults: defaults) {
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

  /// Whether the plan declares consent categories at all (without, nothing is gated).
  var isGating: Bool { !defaults.isEmpty }

  private func isGrantedLocked(_ category: String) -> Bool {
    answers.isGranted(category, defaults: defaults)
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
    for category in Set(defaults.keys).union(answers.categories.keys) where isGrantedLocked(category) {
      stamp.granted[category] = answers.categories[category]?.revocations ?? 0
    }
    return stamp
  }

  /// Records answers; returns the new answers and stamp, and whether some category was revoked.
  func apply(_ changes: [String: Bool]) -> (answers: ConsentAnswers, stamp: ConsentStamp, revoked: Bool) {
    lock.lock()
    defer { lock.unlock() }
    let before = answers
    answers.apply(changes, defaults: defaults)
    let filter = Self.filter(answers, defaults: defaults, laneDestinations: laneDestinations, registry: registry)
    filterLock.withLock { self.filter = filter }
    let revoked = changes.keys.contains { (answers.categories[$0]?.revocations ?? 0) != (before.categories[$0]?.revocations ?? 0) }
    return (answers, stampLocked(), revoked)
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

  /// Whether an event stamped `stamp` may go to a destination of `category` under `answers`: the
  /// category is granted, and was granted when the event was tracked with no revocation since.
  private func allows(_ category: String?, _ stamp: ConsentStamp, _ answers: ConsentAnswers) -> Bool {
    guard let category else { return true }
    guard answers.isGranted(category, defaults: defaults), let tracked = stamp.granted[category] else { return false }
    return tracked == (answers.categories[category]?.revocations ?? 0)
  }

  /// What a lane may still hand over of `events`: for a plan destination (`destination`), the events
  /// its category allows; for a collector (`destination` nil), each event with the plan destinations it
  /// is for narrowed to those consent allows (none left: not handed over). The count of the others.
  /// Checked against the answers in force when it is called, copied under the lock, which is not held
  /// while the events are looked at.
  func admit(_ events: [TrackingEvent], destination: String?) -> (kept: [TrackingEvent], revoked: Int) {
    let answers = lock.withLock { self.answers }
    var kept: [TrackingEvent] = []
    kept.reserveCapacity(events.count)
    if let destination {
      let category = registry.consentCategory(ofDestination: destination)
      guard category != nil else { return (events, 0) }
      for event in events where allows(category, event.snapshot.consent, answers) { kept.append(event) }
      return (kept, events.count - kept.count)
    }
    for event in events {
      guard let targets = event.forwardedTo else {
        kept.append(event)
        continue
      }
      let allowed = targets.filter { allows(registry.consentCategory(ofDestination: $0), event.snapshot.consent, answers) }
      if allowed.count == targets.count {
        kept.append(event)
      } else if !allowed.isEmpty {
        kept.append(event.forwarded(to: allowed))
      }
    }
    return (kept, events.count - kept.count)
  }
}

extension TrackingEvent {
  /// The same event, for fewer plan destinations.
  func forwarded(to destinations: [String]) -> TrackingEvent {
    TrackingEvent(
      id: id, source: source, screen: screen, properties: properties, timestamp: timestamp, messageID: messageID, snapshot: snapshot,
      forwardedTo: destinations)
  }
}
