import Foundation

extension Tracker {
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
  ///
  /// When the answers change, collector destinations that take it (`receivesConsentUpdates`) get a `Segment Consent Preference Updated` track
  /// call (`consentUpdatedEvent`); every call a collector gets carries the answers as they stand for it
  /// (`context.consent.categoryPreferences`).
  public func setConsent(_ answers: [String: Bool]) {
    identityLock.lock()
    let before = (consentBook.current, consentBook.pending)
    let (stored, stamp, revoked, answeredPending) = consentBook.apply(answers)
    state.consent = stored
    stateFile?.write(state)
    consentStamp = stamp
    // A change goes to the collectors as Segment's consent plugin sends it: a track call of its own,
    // stamped with the new answers like every call.
    let changed = before != (consentBook.current, consentBook.pending)
    var collectors: UInt64 = 0
    if changed {
      for (index, id) in collectorLanes where consentUpdateLanes.contains(index) && configuration.isEnabled(id) {
        collectors |= 1 << UInt64(index)
      }
    }
    journal.update(
      currentSnapshot(),
      call: changed ? EventCoding.Draft(eventID: Self.consentUpdatedEvent, source: .manual, screen: nil, properties: [:]) : nil,
      destinations: collectors, date: Date())
    identityLock.unlock()
    guard revoked || answeredPending else { return }
    // What a lane is handing over now was checked before; wait for it, then have the lanes look again
    // (and the lanes that held for a pending category, read what waited).
    if revoked { consentBook.waitForHandOvers() }
    journal.interruptPause(lanes: gatedLanes)
    journal.requestUpload()
  }

  /// The track call a change of the answers sends to collectors: the name Segment's consent management
  /// gives it (and its consent plugins send).
  public static let consentUpdatedEvent = "Segment Consent Preference Updated"

  /// The same, for one category.
  public func setConsent(_ category: String, granted: Bool) {
    setConsent([category: granted])
  }
}
