import Foundation

/// One destination's delivery: a thread that reads the destination's events from the journal after its
/// cursor, hands them over (one by one, or as a batch), and moves the cursor once they are delivered or
/// dropped. At least once and in order: a failure retries the same events after a backoff, and nothing
/// after them goes first. Memory holds one batch, never the backlog.
///
/// With a consent gate, each hand-over (and each retry) first drops the events whose consent category
/// was revoked since they were tracked (`ConsentBook.admit`), counted as `consentRevoked`. While a
/// category the lane depends on waits for its first answer (`default: pending`), the lane holds: it reads
/// nothing and its cursor stays, so what waits is in the journal (and survives the process); it wakes at
/// the answer, or to let the events past the plan's limits go without the pending destinations.
///
/// A collector's lane hands events over with their destinations by the names the collector knows them
/// by (`TrackingRegistry.wireName(ofDestination:)`); consent reads the plan's IDs before that.
final class DeliveryLane: @unchecked Sendable {
  typealias FailureHandler = @Sendable (TrackingEvent, any Error, String) -> Void
  typealias DropHandler = @Sendable ([TrackingEvent], DropReason, String) -> Void

  let destination: any TrackingDestination
  private let index: Int
  private let journal: Journal
  private let retry: RetryPolicy
  private let onFailure: FailureHandler
  private let onDrop: DropHandler
  /// The consent in force, when the plan gates destinations by consent.
  private let consent: ConsentBook?
  /// For a collector: the name it knows a plan destination by, when not the ID.
  private let wireName: (@Sendable (String) -> String?)?
  /// For a collector: the plan destinations the tracker delivers in process (a lane of their own), which
  /// the collector is not to forward to.
  private let deliveredInProcess: [String]
  /// For a collector: the plan destinations that count sessions by the session ID in their
  /// `integrations` entry (`TrackingRegistry.sessionDestinations`).
  private let sessionDestinations: [String]
  /// For a collector: remote configuration, whose switched-off plan destinations a call meant for every
  /// destination leaves out; and the collectors' IDs (which it may switch off too, but are no plan
  /// destinations).
  private let configuration: (any DestinationConfiguration)?
  private let collectorIDs: Set<String>
  /// How many events an in-process destination is given between two cursor writes.
  static let eventsPerCursorWrite = 64

  init(
    destination: any TrackingDestination, index: Int, journal: Journal, retry: RetryPolicy, onFailure: @escaping FailureHandler,
    onDrop: @escaping DropHandler, consent: ConsentBook? = nil, wireName: (@Sendable (String) -> String?)? = nil,
    deliveredInProcess: [String] = [], sessionDestinations: [String] = [], configuration: (any DestinationConfiguration)? = nil,
    collectorIDs: Set<String> = []
  ) {
    self.destination = destination
    self.index = index
    self.journal = journal
    self.retry = retry
    self.onFailure = onFailure
    self.onDrop = onDrop
    self.consent = consent
    self.wireName = destination.role == .collector ? wireName : nil
    self.deliveredInProcess = destination.role == .collector ? deliveredInProcess : []
    self.sessionDestinations = destination.role == .collector ? sessionDestinations : []
    self.configuration = destination.role == .collector ? configuration : nil
    self.collectorIDs = collectorIDs
    let thread = Thread { [self] in run() }
    thread.name = "trackc delivery: \(destination.id)"
    thread.start()
  }

  private func run() {
    let batchDestination = destination as? any BatchTrackingDestination
    while true {
      let limits = batchDestination?.batchLimits ?? BatchLimits(maximumEvents: Self.eventsPerCursorWrite, maximumBytes: 1 << 20, maximumAge: 0)
      guard wait(limits) else { return }
      var expiring = false
      let batch: Journal.Batch
      if let consent, consent.holds(lane: index) {
        switch holdOrExpire(consent.pendingLimits(lane: index), limits) {
        case .stopped: return
        case .held: continue
        case .expired(let expired):
          batch = expired
          expiring = true
        }
      } else {
        batch = journal.nextBatch(lane: index, maximumEvents: limits.maximumEvents, maximumBytes: limits.maximumBytes)
      }
      var dropped: [DropReason: Int] = [:]
      var applicable: [TrackingEvent] = []
      applicable.reserveCapacity(batch.events.count)
      for event in batch.events {
        if destination.isApplicable(to: event) {
          applicable.append(event)
        } else {
          dropped[.notApplicable, default: 0] += 1
        }
      }
      let delivered: Int
      if let batchDestination {
        guard let result = deliver(applicable, to: batchDestination, expiring: expiring) else { return }
        delivered = result.delivered
        dropped.merge(result.dropped, uniquingKeysWith: +)
      } else {
        guard let refused = receiveEach(applicable, expiring: expiring) else { return }
        delivered = applicable.count - refused.values.reduce(0, +)
        dropped.merge(refused, uniquingKeysWith: +)
      }
      journal.acknowledge(lane: index, batch: batch, delivered: delivered, dropped: dropped)
    }
  }

  private enum Hold {
    case stopped
    /// Woken: look again (an answer came, more events wait, or the oldest reached its age limit).
    case held
    /// The oldest events, past the plan's limits: they go without the pending destinations.
    case expired(Journal.Batch)
  }

  /// While the lane holds for a pending consent category: reads the events past the limits (beyond the
  /// newest `limits.events`, or tracked more than `limits.seconds` ago) if there are any, else waits for
  /// the answer, for more events than the limit, or for the oldest to reach its age.
  private func holdOrExpire(_ limits: PendingConsentLimits, _ batchLimits: BatchLimits) -> Hold {
    let excess = journal.unread(lane: index) - limits.events
    let cutoff = Date(timeIntervalSinceNow: -limits.seconds)
    var read = 0
    var oldestKept: Date?
    let batch = journal.nextBatch(lane: index, maximumEvents: batchLimits.maximumEvents, maximumBytes: batchLimits.maximumBytes) { event in
      guard read < excess || event.timestamp < cutoff else {
        oldestKept = event.timestamp
        return false
      }
      read += 1
      return true
    }
    if !batch.events.isEmpty { return .expired(batch) }
    // The oldest waiting event reaches its age at this deadline (none read: look again in a minute).
    let deadline = oldestKept.map { $0.addingTimeInterval(limits.seconds) } ?? Date(timeIntervalSinceNow: 60)
    return journal.hold(lane: index, above: limits.events, until: deadline) ? .stopped : .held
  }

  /// Waits for a batch's worth of events: any at all, then (for a batch destination) until the batch is
  /// full or `maximumAge` has passed since the first. False when the journal stopped.
  private func wait(_ limits: BatchLimits) -> Bool {
    switch journal.waitForWork(lane: index, minimum: 1, until: nil) {
    case .stopped: return false
    case .work, .timeout: break
    }
    guard limits.maximumAge > 0, limits.maximumEvents > 1 else { return true }
    let deadline = Date(timeIntervalSinceNow: limits.maximumAge)
    return journal.waitForWork(lane: index, minimum: limits.maximumEvents, until: deadline) != .stopped
  }

  /// Gives each event to an in-process destination, retrying one that throws; each attempt first asks
  /// consent (`handOver`). The events consent dropped, by reason; nil if stopped meanwhile.
  private func receiveEach(_ events: [TrackingEvent], expiring: Bool) -> [DropReason: Int]? {
    var refused: [DropReason: Int] = [:]
    for event in events {
      var attempt = 0
      while true {
        let outcome = handOver([event], expiring: expiring) { admitted -> Result<Void, any Error> in
          Result { try destination.receive(admitted[0]) }
        }
        guard case .handedOver(let result, _, _) = outcome else {
          if case .refused(let reasons) = outcome { refused.merge(reasons, uniquingKeysWith: +) }
          break
        }
        switch result {
        case .success:
          break
        case .failure(let error):
          attempt += 1
          journal.countFailedAttempt(lane: index, reason: .failed)
          onFailure(event, error, destination.id)
          if journal.pause(lane: index, until: Date(timeIntervalSinceNow: retry.delay(attempt: attempt))) { return nil }
          continue
        }
        break
      }
    }
    return refused
  }

  private enum HandOver<Result> {
    /// `body` ran with the events consent allows (`kept`, as the lane knows them); the others, by reason.
    case handedOver(Result, kept: [TrackingEvent], refused: [DropReason: Int])
    /// Consent allows none of them: `body` did not run.
    case refused([DropReason: Int])
  }

  /// Runs `body` with the events consent still allows (all of them without a gate), under the lane's
  /// hand-over lock: a revocation waits for it (`ConsentBook.waitForHandOvers`). A collector gets them
  /// with their destinations' wire names.
  private func handOver<Result>(_ events: [TrackingEvent], expiring: Bool, _ body: ([TrackingEvent]) -> Result) -> HandOver<Result> {
    guard let consent else { return .handedOver(body(onTheWire(events)), kept: events, refused: [:]) }
    let target: String? = destination.role == .collector ? nil : destination.id
    return consent.handOver(lane: index) {
      let (kept, refused) = consent.admit(events, destination: target, expiring: expiring)
      return kept.isEmpty ? .refused(refused) : .handedOver(body(onTheWire(kept)), kept: kept, refused: refused)
    }
  }

  /// For a collector, the events with the plan destinations they are for named as the collector knows
  /// them (`wire_name`): what `integrations` says. An event for every destination (an identify or alias
  /// call, a rule the plan does not restrict) leaves out the destinations the tracker delivers in process
  /// (as an event whose routing the plan restricts does), those consent refused it and those remote
  /// configuration has switched off when it is handed over. A destination
  /// that counts sessions (`sessionDestinations`) the event goes to gets the event's session ID as its
  /// entry's options. Otherwise as they are.
  private func onTheWire(_ events: [TrackingEvent]) -> [TrackingEvent] {
    guard destination.role == .collector else { return events }
    let wireName = wireName
    func name(_ id: String) -> String { wireName?(id) ?? id }
    // The plan destinations remote configuration has switched off now (not the collectors themselves).
    let switchedOff = configuration?.disabledDestinations.filter { !collectorIDs.contains($0) } ?? []
    return events.map { event in
      var wire = event
      var withheld = event.withheldFrom
      if let targets = event.forwardedTo {
        if let wireName, targets.contains(where: { wireName($0) != nil }) { wire = event.forwarded(to: targets.map(name)) }
      } else {
        for id in deliveredInProcess + switchedOff where !withheld.contains(id) { withheld.append(id) }
        if !withheld.isEmpty { wire = event.withheld(from: withheld.map(name)) }
      }
      guard let session = event.snapshot.session, !sessionDestinations.isEmpty else { return wire }
      for id in sessionDestinations {
        let reaches = event.forwardedTo.map { $0.contains(id) } ?? !withheld.contains(id)
        if reaches { wire.integrationOptions[name(id)] = ["session_id": .int(Int(session))] }
      }
      return wire
    }
  }

  /// Delivers a batch, splitting it when the destination asks and retrying transient failures. Nil if
  /// the journal stopped meanwhile (nothing is acknowledged: the events are delivered again next time).
  private func deliver(_ events: [TrackingEvent], to batchDestination: any BatchTrackingDestination, expiring: Bool = false) -> (
    delivered: Int, dropped: [DropReason: Int]
  )? {
    guard !events.isEmpty else { return (0, [:]) }
    var events = events
    var refusedByConsent: [DropReason: Int] = [:]
    var attempt = 0
    while true {
      // Consent is asked at each attempt: what a retry would send again may have been revoked meanwhile.
      let done = DispatchSemaphore(value: 0)
      let box = OutcomeSlot()
      let handedOver = handOver(events, expiring: expiring) { wire in
        batchDestination.deliver(wire) { outcome in
          box.set(outcome)
          done.signal()
        }
      }
      // What consent kept, as the lane knows them (plan IDs): what a retry asks consent about again.
      switch handedOver {
      case .refused(let reasons): return (0, reasons.merging(refusedByConsent, uniquingKeysWith: +))
      case .handedOver(_, let kept, let refused):
        refusedByConsent.merge(refused, uniquingKeysWith: +)
        events = kept
      }
      done.wait()
      switch box.value ?? .retry(after: nil, reason: .failed) {
      case .delivered:
        return (events.count, refusedByConsent)
      case .drop(let reason):
        onDrop(events, reason, destination.id)
        return (0, refusedByConsent.merging([reason: events.count], uniquingKeysWith: +))
      case .split(let reason):
        if events.count == 1 {
          onDrop(events, reason, destination.id)
          return (0, refusedByConsent.merging([reason: 1], uniquingKeysWith: +))
        }
        let middle = events.count / 2
        guard let first = deliver(Array(events[..<middle]), to: batchDestination, expiring: expiring),
          let second = deliver(Array(events[middle...]), to: batchDestination, expiring: expiring)
        else { return nil }
        return (
          first.delivered + second.delivered,
          first.dropped.merging(second.dropped, uniquingKeysWith: +).merging(refusedByConsent, uniquingKeysWith: +)
        )
      case .retry(let after, let reason):
        attempt += 1
        journal.countFailedAttempt(lane: index, reason: reason)
        let delay = after.map { max(0, $0) } ?? retry.delay(attempt: attempt)
        if delay > 0, journal.pause(lane: index, until: Date(timeIntervalSinceNow: delay)) { return nil }
        if journal.isStopped { return nil }
      }
    }
  }
}

extension DeliveryLane {
  /// Calls `deliver` and waits for its completion.
  static func call(_ destination: any BatchTrackingDestination, _ events: [TrackingEvent]) -> BatchOutcome {
    let done = DispatchSemaphore(value: 0)
    let box = OutcomeSlot()
    destination.deliver(events) { outcome in
      box.set(outcome)
      done.signal()
    }
    done.wait()
    return box.value ?? .retry(after: nil, reason: .failed)
  }
}

private final class OutcomeSlot: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: BatchOutcome?

  func set(_ outcome: BatchOutcome) {
    lock.lock()
    if stored == nil { stored = outcome }
    lock.unlock()
  }

  var value: BatchOutcome? {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
