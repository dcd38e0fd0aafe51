/// A property value as it arrived.
public enum ReceivedValue: Sendable, Hashable, CustomStringConvertible {
  case string(String)
  /// A finite number, with its text as written (`2`, `0.5`, `1e3`).
  case number(Double, text: String)
  case bool(Bool)
  /// Not a string, finite number or boolean (an object, an array, null, a number beyond Double): what
  /// it is, in words ("an object").
  case other(String)

  /// What a plan calls its type; nil for `.other`.
  public var propertyType: CollectorPlan.PropertyType? {
    switch self {
    case .string: return .string
    case .number: return .number
    case .bool: return .boolean
    case .other: return nil
    }
  }

  public var description: String {
    switch self {
    case .string(let value): return value
    case .number(_, let text): return text
    case .bool(let value): return String(value)
    case .other(let kind): return "(\(kind))"
    }
  }
}

/// The kinds of call of Segment's HTTP API, as `type` names them.
public enum CallType: String, Sendable, Hashable, CaseIterable {
  /// An event: checked against the plan by its `event`.
  case track
  /// A screen view: checked against the plan by its event ID (`context.trackc.event`), or by `name` (the
  /// enter event of the plan's screen of that name).
  case screen
  /// Who the user is (`userId`, `traits`): recorded.
  case identify
  /// A web page view: recorded.
  case page
  /// The user's group or account (`groupId`, `traits`): recorded.
  case group
  /// One identity merged into another (`previousId`, `userId`): recorded.
  case alias

  /// Whether the plan checks calls of this kind.
  public var isChecked: Bool { self == .track || self == .screen }
}

/// One call of an accepted batch, as the collector understood it.
public struct ReceivedEvent: Sendable, Hashable {
  public var type: CallType
  /// The plan's event ID: `context.trackc.event` when the call carries it, else `event` of a track call
  /// (or the event that goes by that name, `wire_name`) or the enter event of the plan's screen named
  /// `name`; empty for calls that carry none.
  public var event: String
  /// The name of a screen or page call, or the `event` of a track call (its name on the wire).
  public var name: String?
  /// As sent, or made by the collector when the call had none (`messageIDWasFilledIn`).
  public var messageID: String
  /// The call came without a `messageId`: the collector made one (as Segment does), so a resend of it
  /// cannot be recognised.
  public var messageIDWasFilledIn = false
  /// The destinations the call is for: the names `integrations` switches on when it switches off `All`;
  /// nil when it does not (every destination).
  public var destinations: [String]?
  /// The destinations `integrations` switches off while `All` stays on: every destination but these
  /// (trackc sends them for a call meant for every destination when the person refused their consent
  /// category). Empty when it switches none off that way.
  public var withheldFrom: [String] = []
  /// `context.consent.categoryPreferences`: the person's answers the call carries, by category (Segment's
  /// consent stamp); nil when it carries none.
  public var categoryPreferences: [String: Bool]?
  /// `context.trackingPlan`: the version and content hash of the plan that built the call (trackc's
  /// runtime sends them); nil when it carries none.
  public var planVersion: String?
  public var planHash: String?
  /// With a plan: where a collector would forward the call, the declared destinations `integrations`
  /// names, by the names the collector knows them by (each `wire_name`, else the ID), in the call's
  /// order (for a call that withholds some, every declared destination but those); nil without a plan,
  /// or when the call names none.
  public var forwardedTo: [String]?
  /// As sent (ISO 8601), or the time the collector received it when the call had none.
  public var timestamp: String
  public var anonymousID: String?
  public var userID: String?
  /// An alias call's `previousId`.
  public var previousID: String?
  /// A group call's `groupId`.
  public var groupID: String?
  public var properties: [String: ReceivedValue]
  /// An identify or group call's `traits` (a track call's `context.traits` is in `json`).
  public var traits: [String: ReceivedValue]
  /// `context.library.name`: the client that sent it (`trackc`, `analytics-python`...).
  public var library: String?
  /// `context.trackc`: where a trackc event came from.
  public var screen: String?
  public var source: String?
  public var handler: String?
  public var phase: String?
  /// What the plan says is wrong with it (empty when it conforms, when there is no plan, or for calls
  /// the plan does not check).
  public var violations: [Violation]
  /// The call's JSON as sent, on one line (whitespace between tokens removed; a `messageId` or
  /// `timestamp` the collector filled in is not in it).
  public var json: String

  public init(
    type: CallType = .track, event: String, name: String? = nil, messageID: String, destinations: [String]? = nil, timestamp: String,
    anonymousID: String? = nil, userID: String? = nil, previousID: String? = nil, groupID: String? = nil,
    properties: [String: ReceivedValue] = [:], traits: [String: ReceivedValue] = [:], library: String? = nil, screen: String? = nil,
    source: String? = nil, handler: String? = nil, phase: String? = nil, violations: [Violation] = [], json: String = "{}"
  ) {
    self.type = type
    self.event = event
    self.name = name
    self.messageID = messageID
    self.destinations = destinations
    self.timestamp = timestamp
    self.anonymousID = anonymousID
    self.userID = userID
    self.previousID = previousID
    self.groupID = groupID
    self.properties = properties
    self.traits = traits
    self.library = library
    self.screen = screen
    self.source = source
    self.handler = handler
    self.phase = phase
    self.violations = violations
    self.json = json
  }

  /// Sent by trackc's runtime (`context.library.name` is `trackc`), which names the destinations of every
  /// call whose routing the plan restricts.
  public var isFromTrackc: Bool { library == "trackc" }
}

/// Something about an event that the tracking plan does not allow. The event is still recorded (the
/// collector is a development tool: it shows what the app sends), unless the collector rejects
/// violations (`--reject-violations`), in which case its batch is answered 400.
public struct Violation: Sendable, Hashable, CustomStringConvertible {
  /// A stable kebab-case id.
  public var rule: Rule
  public var message: String
  public var event: String
  public var messageID: String
  /// The destination the violation is about (`unknown-destination`, `not-routed`).
  public var destination: String?

  public init(rule: Rule, message: String, event: String, messageID: String, destination: String? = nil) {
    self.rule = rule
    self.message = message
    self.event = event
    self.messageID = messageID
    self.destination = destination
  }

  public enum Rule: String, Sendable, Hashable, CaseIterable {
    /// The event ID is not in the plan.
    case unknownEvent = "unknown-event"
    /// A screen call names a screen the plan does not list (and carries no event ID).
    case unknownScreen = "unknown-screen"
    /// The event names a destination the plan does not declare (in `integrations`).
    case unknownDestination = "unknown-destination"
    /// An event from trackc's runtime names no destination although the plan restricts its routing.
    case missingDestination = "missing-destination"
    /// The plan does not route this event ID to a destination it names.
    case notRouted = "not-routed"
    /// A static property of the plan is missing from the event.
    case missingProperty = "missing-property"
    /// A property has another type than the plan's static property of that name.
    case propertyType = "property-type"
    /// A property is not a string, finite number or boolean (what every destination understands).
    case propertyValue = "property-value"
    /// With a plan that declares consent categories: a call from trackc, or a consent preference update,
    /// lacks the consent stamp (`context.consent.categoryPreferences`) or an answer for one of them.
    case missingConsent = "missing-consent"
    /// A track call goes by another name than the plan gives its event (`wire_name`): a build from an
    /// older plan, or a client that names it by hand.
    case wireName = "wire-name"
    /// The call was built from another plan than the one the collector checks (another content hash in
    /// `context.trackingPlan`).
    case otherPlan = "other-plan"
  }

  public var description: String { "\(message) [\(rule.rawValue)]" }
}
