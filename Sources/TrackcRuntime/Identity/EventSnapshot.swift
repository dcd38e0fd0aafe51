import Foundation

/// What identifies every event tracked until it changes: the identity and the context. The journal
/// writes each snapshot once, as a record of its own, and each event record refers to it by its number
/// in the segment (a varint), so `track()` stamps the identity and context of the moment it returns
/// without copying them. Each segment starts with the snapshot in force, so a segment is read on its own
/// (after a restart, or once older segments are deleted).
///
/// Anything else fixed per event that changes rarely belongs here the same way: the consent in force
/// (`ConsentStamp`) is one more part of the snapshot and its record, nothing per event.
final class EventSnapshot: Sendable, Hashable {
  let identity: TrackingIdentity
  let context: TrackingContext
  /// The consent categories granted when the events of this snapshot were tracked.
  let consent: ConsentStamp
  /// The plan that built the events of this snapshot (`TrackingRegistry.plan`).
  let plan: PlanStamp?
  /// The session the events of this snapshot belong to (`Tracker.sessionID`); nil for events of a
  /// release without sessions.
  let session: Int64?
  /// Written once: what every event of this snapshot carries on the wire (`BatchJSON`).
  let wire: [UInt8]

  init(
    identity: TrackingIdentity, context: TrackingContext, consent: ConsentStamp = ConsentStamp(), plan: PlanStamp? = nil, session: Int64? = nil
  ) {
    self.identity = identity
    self.context = context
    self.consent = consent
    self.plan = plan
    self.session = session
    wire = BatchJSON.snapshotFields(identity: identity, context: context, plan: plan, session: session)
  }

  /// The same snapshot with another identity (the one without traits, when the traits do not fit).
  func with(identity: TrackingIdentity) -> EventSnapshot {
    EventSnapshot(identity: identity, context: context, consent: consent, plan: plan, session: session)
  }

  static func == (lhs: EventSnapshot, rhs: EventSnapshot) -> Bool {
    lhs === rhs
      || (lhs.identity == rhs.identity && lhs.context == rhs.context && lhs.consent == rhs.consent && lhs.plan == rhs.plan
        && lhs.session == rhs.session)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(identity)
    hasher.combine(context)
    hasher.combine(consent)
    hasher.combine(plan)
    hasher.combine(session)
  }

  /// For events made outside a journal (tests, destinations that build their own).
  static let unknown = EventSnapshot(identity: TrackingIdentity(anonymousID: ""), context: TrackingContext())
}

/// The journal form of a snapshot: a record routed to no destination (its destinations mask is 0, so
/// every reader skips it as not its own) that starts with a marker, then its number in the segment.
///
///     destinations  u64     0
///     marker        u8      0xA5
///     number        varint  0 for the segment's first, then 1, 2...
///     anonymousID   string
///     userID        string  (empty: none)
///     traits        varint count, then key string, tag u8, value (as event properties)
///     fields        varint count, then that many strings (empty: none), in `contextFields` order;
///                   a reader takes the fields it knows and skips the rest. After the context's:
///                   the consent categories granted (`consentFields`): their count, then each
///                   category's name and revocation count; then the plan (`planFields`): its version
///                   (empty: none) and hash; then the session ID (`sessionFields`, decimal
///                   milliseconds; a record of an earlier release has none)
enum SnapshotCoding {
  static let marker: UInt8 = 0xA5

  /// The context as strings, in the order the record keeps them (new fields go at the end).
  static func contextFields(_ context: TrackingContext) -> [String] {
    [
      context.app.name, context.app.version, context.app.build, context.app.namespace, context.device.model,
      context.device.manufacturer, context.device.type, context.os.name, context.os.version, context.locale, context.timezone,
      context.screen.map { String($0.width) }, context.screen.map { String($0.height) }, context.screen?.density.map { String($0) },
    ].map { $0 ?? "" }
  }

  static func context(fields: [String]) -> TrackingContext {
    func field(_ index: Int) -> String? { index < fields.count && !fields[index].isEmpty ? fields[index] : nil }
    var context = TrackingContext(
      app: .init(name: field(0), version: field(1), build: field(2), namespace: field(3)),
      device: .init(model: field(4), manufacturer: field(5), type: field(6)), os: .init(name: field(7), version: field(8)),
      locale: field(9), timezone: field(10))
    if let width = field(11).flatMap(Int.init), let height = field(12).flatMap(Int.init) {
      context.screen = .init(width: width, height: height, density: field(13).flatMap(Double.init))
    }
    return context
  }

  /// How many of the fields are the context's (written by every version so far).
  static let contextFieldCount = 14

  /// The consent granted, as fields after the context's: a count, then name and revocation count of
  /// each, sorted by name (the same consent is always the same bytes).
  static func consentFields(_ stamp: ConsentStamp) -> [String] {
    guard !stamp.granted.isEmpty else { return [] }
    return [String(stamp.granted.count)] + stamp.granted.keys.sorted().flatMap { [$0, String(stamp.granted[$0]!)] }
  }

  static func consent(fields: [String]) -> ConsentStamp {
    var stamp = ConsentStamp()
    guard fields.count > contextFieldCount, let count = Int(fields[contextFieldCount]), count > 0 else { return stamp }
    var index = contextFieldCount + 1
    for _ in 0..<count {
      guard index + 1 < fields.count, let revocations = UInt32(fields[index + 1]) else { break }
      stamp.granted[fields[index]] = revocations
      index += 2
    }
    return stamp
  }

  /// The plan, after the consent's (whose count is then written even when 0): version and hash.
  static func planFields(_ plan: PlanStamp?) -> [String] {
    guard let plan else { return [] }
    return [plan.version ?? "", plan.hash]
  }

  static func plan(fields: [String]) -> PlanStamp? {
    guard fields.count > contextFieldCount, let count = Int(fields[contextFieldCount]), count >= 0 else { return nil }
    let index = contextFieldCount + 1 + 2 * count
    guard index + 1 < fields.count, !fields[index + 1].isEmpty else { return nil }
    return PlanStamp(version: fields[index].isEmpty ? nil : fields[index], hash: fields[index + 1])
  }

  /// The session, after the plan's (whose two fields are then written even when empty): its ID.
  static func sessionFields(_ session: Int64?) -> [String] {
    session.map { [String($0)] } ?? []
  }

  static func session(fields: [String]) -> Int64? {
    guard fields.count > contextFieldCount, let count = Int(fields[contextFieldCount]), count >= 0 else { return nil }
    let index = contextFieldCount + 1 + 2 * count + 2
    return index < fields.count ? Int64(fields[index]) : nil
  }

  static func fields(_ snapshot: EventSnapshot) -> [String] {
    var consent = consentFields(snapshot.consent)
    if (snapshot.plan != nil || snapshot.session != nil) && consent.isEmpty { consent = ["0"] }
    var plan = planFields(snapshot.plan)
    if snapshot.session != nil && plan.isEmpty { plan = ["", ""] }
    return contextFields(snapshot.context) + consent + plan + sessionFields(snapshot.session)
  }

  static func encodedSize(_ snapshot: EventSnapshot, number: Int) -> Int {
    let identity = snapshot.identity
    var size = 8 + 1 + EventCoding.varintSize(UInt64(number)) + EventCoding.stringSize(identity.anonymousID)
    size += EventCoding.stringSize(identity.userID ?? "") + EventCoding.propertiesSize(identity.traits)
    let fields = fields(snapshot)
    size += EventCoding.varintSize(UInt64(fields.count))
    for field in fields { size += EventCoding.stringSize(field) }
    return size
  }

  static func encode(_ snapshot: EventSnapshot, number: Int, into pointer: UnsafeMutableRawPointer) -> Int {
    var writer = EventCoding.Writer(pointer: pointer)
    writer.u64(0)
    writer.u8(marker)
    writer.varint(UInt64(number))
    writer.string(snapshot.identity.anonymousID)
    writer.string(snapshot.identity.userID ?? "")
    writer.properties(snapshot.identity.traits)
    let fields = fields(snapshot)
    writer.varint(UInt64(fields.count))
    for field in fields { writer.string(field) }
    return writer.offset
  }

  /// Whether a record is a snapshot (its destinations mask is 0 and the marker follows).
  static func isSnapshot(_ payload: UnsafeRawBufferPointer) -> Bool {
    payload.count > 9 && EventCoding.destinations(of: payload) == 0 && payload[8] == marker
  }

  /// The snapshot and its number; nil when the record does not decode (it is then like a missing one:
  /// the events that refer to it are counted as undecodable).
  static func decode(_ payload: UnsafeRawBufferPointer) -> (number: Int, snapshot: EventSnapshot)? {
    guard isSnapshot(payload) else { return nil }
    var reader = EventCoding.Reader(buffer: payload, offset: 9)
    guard let number = reader.varint(), number < UInt64(Int32.max), let anonymousID = reader.string(), let userID = reader.string(),
      let traits = reader.properties(), let count = reader.varint(), count <= UInt64(payload.count)
    else { return nil }
    var fields: [String] = []
    for _ in 0..<count {
      guard let field = reader.string() else { return nil }
      fields.append(field)
    }
    guard reader.offset == payload.count else { return nil }
    let identity = TrackingIdentity(anonymousID: anonymousID, userID: userID.isEmpty ? nil : userID, traits: traits)
    return (
      Int(number),
      EventSnapshot(
        identity: identity, context: context(fields: fields), consent: consent(fields: fields), plan: plan(fields: fields),
        session: session(fields: fields))
    )
  }
}
