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
}
