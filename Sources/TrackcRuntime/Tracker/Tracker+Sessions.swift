import Foundation

extension Tracker {
  // MARK: Sessions

  /// The session the events tracked from now on belong to: when it started, in milliseconds since 1970
  /// (the number Amplitude gives a session). A new session starts at the first launch, and when the app
  /// comes to the foreground (or launches) after more than `sessionTimeout` seconds since it was last
  /// active (it went to the background, or came to the foreground); the session is kept across launches
  /// in the journal's directory. Every event carries it (`context.sessionId` on the wire, and the
  /// `integrations` entry of a destination that counts sessions: `{"session_id": …}`).
  public var sessionID: Int64? { identityLock.withLock { state.session?.id } }

  /// The track calls that open and close a session, as Amplitude's SDKs name them. They go only to the
  /// plan's destinations that count sessions (`TrackingRegistry.sessionDestinations`: Amplitude's),
  /// through the collectors, as consent, remote configuration and sampling allow: `session_end` with
  /// the closing session's ID, dated when the app was last active in it, then `session_start` with the
  /// new one.
  public static let sessionStartEvent = "session_start"
  public static let sessionEndEvent = "session_end"

  /// The snapshot every event tracked from now on carries. Caller holds `identityLock`.
  func currentSnapshot() -> EventSnapshot {
    EventSnapshot(identity: state.identity, context: context, consent: consentStamp, plan: registry.plan, session: state.session?.id)
  }

  /// The app is active now (it launched, or came to the foreground): a new session when there is none,
  /// or when the app was last active more than `sessionTimeout` ago; else the session goes on, and now
  /// is when the app was last active in it.
  func startSessionIfDue() {
    identityLock.lock()
    defer { identityLock.unlock() }
    let now = Self.milliseconds(clock())
    if let session = state.session, now - session.lastActive <= Self.milliseconds(sessionTimeout), now >= session.lastActive {
      state.session?.lastActive = now
      stateFile?.write(state)
      return
    }
    let previous = state.session
    state.session = StateFile.Session(id: now, lastActive: now)
    stateFile?.write(state)
    guard !registry.sessionDestinations.isEmpty else {
      journal.update(currentSnapshot(), call: nil, destinations: 0, date: clock())
      return
    }
    // Each goes where a rule routing to the session destinations would: consent, remote configuration
    // and sampling as for any event.
    if let previous {
      let (destinations, forwardedTo) = route(sessionRule(Self.sessionEndEvent))
      journal.append(
        EventCoding.Draft(eventID: Self.sessionEndEvent, source: .manual, screen: nil, properties: [:], forwardedTo: forwardedTo),
        destinations: destinations, date: Date(timeIntervalSince1970: Double(previous.lastActive) / 1000))
    }
    let (destinations, forwardedTo) = route(sessionRule(Self.sessionStartEvent))
    journal.update(
      currentSnapshot(),
      call: EventCoding.Draft(eventID: Self.sessionStartEvent, source: .manual, screen: nil, properties: [:], forwardedTo: forwardedTo),
      destinations: destinations, date: Date(timeIntervalSince1970: Double(now) / 1000))
  }

  /// The app went to the background: the session's timeout counts from now.
  func noteSessionActivity() {
    identityLock.lock()
    defer { identityLock.unlock() }
    guard state.session != nil else { return }
    state.session?.lastActive = Self.milliseconds(clock())
    stateFile?.write(state)
  }

  private func sessionRule(_ event: String) -> EventRule {
    EventRule(eventID: event, routing: .only(Set(registry.sessionDestinations)))
  }

  static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
  }

  static func milliseconds(_ interval: TimeInterval) -> Int64 {
    Int64((interval * 1000).rounded())
  }
}
