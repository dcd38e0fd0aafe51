import TrackcCore

/// One thing a collector did, for printing and for observers: in the order it happened.
public enum CollectorRecord: Sendable, Hashable {
  /// A new call, recorded (with what the plan says about it).
  case accepted(ReceivedEvent)
  /// A call whose message ID was already recorded, sent again (a retry); not recorded again.
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
  /// The connection was reset (a TCP RST) instead of an answer, nothing recorded.
  case reset
  /// The batch was recorded and the answer's head sent, then the connection was reset.
  case resetAfterHeaders
}

/// What a collector has done since it started (or since `reset()`).
public struct CollectorStatistics: Sendable, Hashable {
  /// Requests read to the end (whatever the answer).
  public var requests = 0
  /// Batches answered 2xx.
  public var acceptedBatches = 0
  /// Distinct calls recorded, in all and by type.
  public var acceptedEvents = 0
  public var acceptedByType: [CallType: Int] = [:]
  /// Calls that arrived again after being recorded (raw duplicates).
  public var duplicates = 0
  /// Recorded events with at least one violation, and the violations.
  public var eventsWithViolations = 0
  public var violations = 0
  /// Under `rejectViolations`: the violations of the batches refused for them, and their events with
  /// at least one (nothing of those batches is recorded).
  public var refusedViolations = 0
  public var refusedEventsWithViolations = 0
  /// Message IDs read back from the output file at start (what an earlier run recorded is deduplicated).
  public var messageIDsFromOutput = 0
  /// Refused requests by status (400, 401, 404, 405, 413, 415...), injected failures not included.
  public var rejectedByStatus: [Int: Int] = [:]
  public var injectedFailures = 0
  public var droppedConnections = 0
  /// Connections reset on purpose (before an answer, or after its head).
  public var resetConnections = 0
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
      case .reset: return ["fault      connection reset without an answer for \(request)"]
      case .resetAfterHeaders: return ["fault      connection reset after the answer's headers, the batch recorded, for \(request)"]
      }
    case .servedRemoteConfiguration(let status):
      return ["config     \(status) GET /v1/config"]
    }
  }

  private static func summary(_ event: ReceivedEvent, withProperties: Bool) -> String {
    var text: String
    switch event.type {
    case .track:
      text = BatchDecoder.quoted(event.name ?? event.event)
      if let name = event.name, name != event.event { text += " (" + BatchDecoder.quoted(event.event) + ")" }
    case .screen, .page:
      text = event.type.rawValue + " " + BatchDecoder.quoted(event.name ?? "")
      if !event.event.isEmpty { text += " (" + BatchDecoder.quoted(event.event) + ")" }
    case .identify: text = "identify " + BatchDecoder.quoted(event.userID ?? event.anonymousID ?? "")
    case .group: text = "group " + BatchDecoder.quoted(event.groupID ?? "")
    case .alias: text = "alias " + BatchDecoder.quoted(event.previousID ?? "") + " -> " + BatchDecoder.quoted(event.userID ?? "")
    }
    // Where the collector would forward it: by the plan, under the names the collector knows them by.
    if let destinations = event.forwardedTo ?? event.destinations {
      text += " -> " + (destinations.isEmpty ? "(no destination)" : destinations.map(BatchDecoder.quoted).joined(separator: ", "))
    } else if !event.withheldFrom.isEmpty {
      text += " -> every destination but " + event.withheldFrom.map(BatchDecoder.quoted).joined(separator: ", ")
    }
    var origin: [String] = []
    if let screen = event.screen { origin.append(BatchDecoder.quoted(screen)) }
    if let handler = event.handler { origin.append(BatchDecoder.quoted(handler)) }
    if let phase = event.phase { origin.append(BatchDecoder.quoted(phase)) }
    if let source = event.source { origin.append("(\(BatchDecoder.quoted(source)))") }
    if !origin.isEmpty { text += "  " + origin.joined(separator: " ") }
    let values = event.type == .identify || event.type == .group ? event.traits : event.properties
    if withProperties && !values.isEmpty {
      let properties = values.sorted { $0.key < $1.key }.map { key, value in
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

  /// One JSON object a program reads (`--format json`; `--output` writes the `event` ones): the call's
  /// type and message ID (the collector's own when the call had none), the call as it was sent under
  /// "event", its violations under "violations".
  public var jsonLines: [String] {
    switch self {
    case .accepted(let event):
      return [
        #"{"kind":"event","type":"# + JSONText.quoted(event.type.rawValue) + #","messageId":"# + JSONText.quoted(event.messageID)
          + #","event":"# + event.json + #","violations":["# + event.violations.map(Self.json).joined(separator: ",") + "]"
          + (event.forwardedTo.map { #","forwardedTo":["# + $0.map(JSONText.quoted).joined(separator: ",") + "]" } ?? "") + "}"
      ] + event.violations.map { #"{"kind":"violation","# + Self.jsonFields($0) + "}" }
    case .duplicate(let event):
      return [
        #"{"kind":"duplicate","type":"# + JSONText.quoted(event.type.rawValue) + #","event":"# + JSONText.quoted(event.event)
          + #","messageId":"# + JSONText.quoted(event.messageID) + "}"
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
      case .reset: detail = #""fault":"reset""#
      case .resetAfterHeaders: detail = #""fault":"reset-after-headers""#
      }
      return [#"{"kind":"fault","# + detail + #","request":"# + JSONText.quoted(request) + "}"]
    case .servedRemoteConfiguration(let status):
      return [#"{"kind":"config","status":"# + String(status) + "}"]
    }
  }

  private static func json(_ violation: Violation) -> String { "{" + jsonFields(violation) + "}" }

  /// The message ID of an `event` line of the output file, as `jsonLines` writes it; nil for any other
  /// line (another kind, or part of one).
  static func messageID(ofOutputLine line: [UInt8]) -> String? {
    guard let document = try? JSONDocument(line), document[document.root].kind == .object else { return nil }
    var kind: String?
    var messageID: String?
    for (key, value) in document.members(of: document.root) where document[value].kind == .string {
      switch document.string(key) {
      case "kind": kind = document.string(value)
      case "messageId": messageID = document.string(value)
      default: continue
      }
    }
    return kind == "event" ? messageID : nil
  }

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
