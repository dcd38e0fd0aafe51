import Foundation

extension Tracker {
  // MARK: Identity

  /// Who the events tracked from now on are about.
  public var identity: TrackingIdentity { identityLock.withLock { state.identity } }

  /// What the events tracked from now on say about the app, device and OS.
  public var currentContext: TrackingContext { identityLock.withLock { context } }

  /// The user signed in (or the app learnt more about them): the events tracked from now on carry
  /// `userID` and the traits, and collector destinations get an identify call (for every destination
  /// but those delivered in process and those consent refuses it, as an event is). Traits merge with those
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
    journal.update(
      currentSnapshot(), call: nil, destinations: 0, date: Date())
  }

  /// Applies a change of identity: persisted first, then the new snapshot and the call (if any) go into
  /// the journal together, so no event falls between them.
  private func change(_ apply: (inout StateFile.State) -> EventCoding.Draft?) {
    identityLock.lock()
    defer { identityLock.unlock() }
    let call = apply(&state)
    stateFile?.write(state)
    var destinations: UInt64 = 0
    // For every destination: it waits with what waits for a pending category, if any category gating one is.
    let waits = !waitingLanes.isEmpty && consentBook.waits(nil, by: consentBook.routingFilter)
    for (index, id) in collectorLanes where configuration.isEnabled(id) {
      destinations |= 1 << UInt64(waits ? waitingLanes[index] ?? index : index)
    }
    journal.update(
      currentSnapshot(), call: call, destinations: destinations,
      date: Date())
  }
}
