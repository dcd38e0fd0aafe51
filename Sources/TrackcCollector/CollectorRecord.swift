import TrackcCore

/// One thing a collector did, for printing and for observers: in the order it happened.
public enum CollectorRecord: Sendable, Hashable {
  /// A new event, recorded (with what the plan says about it).
  case accepted(ReceivedEvent)
  /// An event already recorded for its destination, sent again (a retry); not recorded again.
  case duplicate(ReceivedEvent)
  /// A request refused; `violations` holds what made a batch fail under `rejectViolations`.
  case rejected(Rejection, request: String, violations: [Violation])
  /// A fault injected on purpose.
  case injected(InjectedFault, request: String)
  /// `GET /v1/config` answered with this status (304 when the client's copy is current).
  case servedRemoteConfiguration(status: Int)
}

public enum InjectedFault: Sendable, Hashable {
  /// Answered with this status, nothing recorded.
  case failure(status: Int)
  /// The connection was closed without an answer, nothing recorded.
  case droppedConnection
  /// The batch was recorded, then answered 500.
  case failedAfterRecording
}

/// What a collector has done since it started (or since `reset()`).
public struct CollectorStatistics: Sendable, Hashable {
  /// Requests read to the end (whatever the answer).
  public var requests = 0
  /// Batches answered 2xx.
  public var acceptedBatches = 0
  /// Distinct events recorded.
  public var acceptedEvents = 0
  /// Events that arrived again after being recorded (raw duplicates), in all and by destination
  /// ("" for events without one).
  public var duplicates = 0
  public var duplicatesByDestination: [String: Int] = [:]
  /// Recorded events with at least one violation, and the violations.
  public var eventsWithViolations = 0
  public var violations = 0
  /// Refused requests by status (400, 401, 404, 405, 413, 415...), injected failures not included.
  public var rejectedByStatus: [Int: Int] = [:]
  public var injectedFailures = 0
  public var droppedConnections = 0
  public var failedAfterRecording = 0
  /// Connections closed on arrival because `maxConnections` were open.
  public var refusedConnections = 0
  /// Message IDs deduplication forgot because its window was full (see `Limits.deduplicationWindow`).
  public var forgottenMessageIDs = 0
  /// Events and violations no longer kept in memory (see `Limits.retainedEvents`); every one was printed
  /// and written.
  public var droppedFromMemory = 0
  /// Writes to `outputPath` that failed (the events are still recorded in memory).
  public var outputFailures = 0

  public init() {}
}

extension CollectorRecord {
  /// One or more lines a person reads: the event (ID, destination, screen, source, properties, message
  /// ID), then one line per violation. Strings from the request are escaped, so a hostile event cannot
  /// move the cursor or forge a line.
  public var textLines: [String] {
    switch self {
    case .accepted(let event):
      var lines = ["event      " + Self.summary(event, withProperties: true)]
      for violation in event.violations { lines.append("violation  " + violation.description) }
      return lines
    case .duplicate(let event):
      return ["duplicate  " + Self.summary(event, withProperties: false)]
    case .rejected(let rejection, let request, let violations):
      return ["rejected   \(rejection.status) \(request): \(rejection.message) [\(rejection.code)]"]
        + violations.map { "violation  " + $0.description }
    case .injected(let fault, let request):
      switch fault {
      case .failure(let status): return ["fault      \(status) injected for \(request)"]
      case .droppedConnection: return ["fault      connection dropped without an answer for \(request)"]
      case .failedAfterRecording: return ["fault      500 after recording the batch of \(request)"]
      }
    case .servedRemoteConfiguration(let status):
      return ["config     \(status) GET /v1/config"]
    }
  }

  private static func summary(_ event: ReceivedEvent, withProperties: Bool) -> String {
    var text = BatchDecoder.quoted(event.event) + " -> " + (event.destination.map(BatchDecoder.quoted) ?? "(no destination)")
    var origin: [String] = []
    if let screen = event.screen { origin.append(BatchDecoder.quoted(screen)) }
    if let handler = event.handler { origin.append(BatchDecoder.quoted(handler)) }
    if let phase = event.phase { origin.append(BatchDecoder.quoted(phase)) }
    if let source = event.source { origin.append("(\(BatchDecoder.quoted(source)))") }
    if !origin.isEmpty { text += "  " + origin.joined(separator: " ") }
    if withProperties && !event.properties.isEmpty {
      let properties = event.properties.sorted { $0.key < $1.key }.map { key, value in
        let shown: String
        switch value {
        case .string(let string): shown = "\"" + BatchDecoder.quoted(string) + "\""
        default: shown = value.description
        }
        return BatchDecoder.quoted(key) + ": " + shown
      }
      text += "  {" + properties.joined(separator: ", ") + "}"
    }
    return text + "  " + BatchDecoder.quoted(event.messageID)
  }

  /// One JSON object a program reads (`--format json`; `--output` writes the `event` ones): the event
  /// as it was sent under "event", its violations under "violations".
  public var jsonLines: [String] {
    switch self {
    case .accepted(let event):
      return [#"{"kind":"event","event":"# + event.json + #","violations":["# + event.violations.map(Self.json).joined(separator: ",") + "]}"]
        + event.violations.map { #"{"kind":"violation","# + Self.jsonFields($0) + "}" }
    case .duplicate(let event):
      return [
        #"{"kind":"duplicate","event":"# + JSONText.quoted(event.event) + #","messageId":"# + JSONText.quoted(event.messageID)
          + #","destination":"# + (event.destination.map(JSONText.quoted) ?? "null") + "}"
      ]
    case .rejected(let rejection, let request, let violations):
      return [
        #"{"kind":"rejected","status":"# + String(rejection.status) + #","code":"# + JSONText.quoted(rejection.code)
          + #","message":"# + JSONText.quoted(rejection.message) + #","request":"# + JSONText.quoted(request) + "}"
      ] + violations.map { #"{"kind":"violation","# + Self.jsonFields($0) + "}" }
    case .injected(let fault, let request):
      let detail: String
      switch fault {
      case .failure(let status): detail = #""fault":"failure","status":"# + String(status)
      case .droppedConnection: detail = #""fault":"dropped-connection""#
      case .failedAfterRecording: detail = #""fault":"failed-after-recording","status":500"#
      }
      return [#"{"kind":"fault","# + detail + #","request":"# + JSONText.quoted(request) + "}"]
    case .servedRemoteConfiguration(let status):
      return [#"{"kind":"config","status":"# + String(status) + "}"]
    }
  }

  private static func json(_ violation: Violation) -> String { "{" + jsonFields(violation) + "}" }

  private static func jsonFields(_ violation: Violation) -> String {
    #""rule":"# + JSONText.quoted(violation.rule.rawValue) + #","message":"# + JSONText.quoted(violation.message) + #","event":"#
      + JSONText.quoted(violation.event) + #","messageId":"# + JSONText.quoted(violation.messageID) + #","destination":"#
      + (violation.destination.map(JSONText.quoted) ?? "null")
  }
}

/// JSON string literals for the lines the collector writes (TrackcCore's one JSON string escaper).
enum JSONText {
  static func quoted(_ string: String) -> String { TextEscaping.jsonString(string) }
}
