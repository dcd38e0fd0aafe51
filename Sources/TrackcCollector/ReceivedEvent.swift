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

/// One event of an accepted batch, as the collector understood it.
public struct ReceivedEvent: Sendable, Hashable {
  /// The event ID (`event`).
  public var event: String
  public var messageID: String
  /// `context.trackc.destination`, or the collector's default destination when the event names none.
  public var destination: String?
  /// As sent: ISO 8601.
  public var timestamp: String
  public var anonymousID: String?
  public var userID: String?
  public var properties: [String: ReceivedValue]
  /// `context.trackc`: where the event came from.
  public var screen: String?
  public var source: String?
  public var handler: String?
  public var phase: String?
  /// What the plan says is wrong with it (empty when it conforms, or when there is no plan).
  public var violations: [Violation]
  /// The event's JSON as sent, on one line (whitespace between tokens removed).
  public var json: String

  public init(
    event: String, messageID: String, destination: String? = nil, timestamp: String, anonymousID: String? = nil,
    userID: String? = nil, properties: [String: ReceivedValue] = [:], screen: String? = nil, source: String? = nil,
    handler: String? = nil, phase: String? = nil, violations: [Violation] = [], json: String = "{}"
  ) {
    self.event = event
    self.messageID = messageID
    self.destination = destination
    self.timestamp = timestamp
    self.anonymousID = anonymousID
    self.userID = userID
    self.properties = properties
    self.screen = screen
    self.source = source
    self.handler = handler
    self.phase = phase
    self.violations = violations
    self.json = json
  }
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
  public var destination: String?

  public init(rule: Rule, message: String, event: String, messageID: String, destination: String?) {
    self.rule = rule
    self.message = message
    self.event = event
    self.messageID = messageID
    self.destination = destination
  }

  public enum Rule: String, Sendable, Hashable, CaseIterable {
    /// The event ID is not in the plan.
    case unknownEvent = "unknown-event"
    /// The event names a destination the plan does not declare.
    case unknownDestination = "unknown-destination"
    /// The plan declares destinations but the event names none (no `context.trackc.destination`).
    case missingDestination = "missing-destination"
    /// The plan does not route this event ID to the destination it arrived for.
    case notRouted = "not-routed"
    /// A static property of the plan is missing from the event.
    case missingProperty = "missing-property"
    /// A property has another type than the plan's static property of that name.
    case propertyType = "property-type"
    /// A property is not a string, finite number or boolean (what every destination understands).
    case propertyValue = "property-value"
  }

  public var description: String { "\(message) [\(rule.rawValue)]" }
}
