#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A request the collector refuses: the HTTP status, a stable code and a message, sent as the JSON
/// body `{"code": ..., "message": ...}`.
public struct Rejection: Error, Sendable, Hashable, CustomStringConvertible {
  public var status: Int
  public var code: String
  public var message: String

  public init(status: Int, code: String, message: String) {
    self.status = status
    self.code = code
    self.message = message
  }

  public var description: String { "\(status) \(code): \(message)" }

  static func badRequest(_ code: String, _ message: String) -> Rejection { Rejection(status: 400, code: code, message: message) }
}

/// Reads a `POST /v1/batch` body (WIRE.md, Segment's batch format) into events, or says why it is
/// refused. All or nothing: one malformed event refuses the batch (400), so that the client splits it
/// to find the bad event; one event over the size limit refuses it with 413.
struct BatchDecoder: Sendable {
  var maxEventBytes: Int
  /// The destination of events that name none.
  var defaultDestination: String?

  /// Longer message IDs are refused: the deduplication window holds each one.
  static let maxMessageIDBytes = 256

  /// The events of a body, each with what `plan` says about it.
  func decode(_ body: [UInt8], checkingAgainst plan: CollectorPlan?) throws(Rejection) -> [ReceivedEvent] {
    var events = try decode(body)
    if let plan {
      for index in events.indices { events[index].violations = plan.violations(of: events[index]) }
    }
    return events
  }

  func decode(_ body: [UInt8]) throws(Rejection) -> [ReceivedEvent] {
    let document: JSONDocument
    do {
      document = try JSONDocument(body)
    } catch {
      let code = error.reason == JSONSyntaxError.invalidUTF8 ? "invalid-utf8" : "not-json"
      throw .badRequest(code, "the body is not JSON: \(error)")
    }
    let root = document.root
    guard document[root].kind == .object else {
      throw .badRequest("wrong-shape", "the body must be a JSON object with a 'batch' array, not \(Self.describe(document[root].kind))")
    }
    var batch: Int?
    for (key, value) in document.members(of: root) where document.string(key) == "batch" {
      guard batch == nil else { throw .badRequest("duplicate-key", "the body has two 'batch' keys") }
      batch = value
    }
    guard let batch else { throw .badRequest("missing-field", "the body has no 'batch' array") }
    guard document[batch].kind == .array else {
      throw .badRequest("wrong-shape", "'batch' must be an array of events, not \(Self.describe(document[batch].kind))")
    }
    var events: [ReceivedEvent] = []
    events.reserveCapacity(Int(document[batch].count))
    for (index, element) in document.elements(of: batch).enumerated() {
      events.append(try decodeEvent(document, element, index: index))
    }
    return events
  }

  private func decodeEvent(_ document: JSONDocument, _ node: Int, index: Int) throws(Rejection) -> ReceivedEvent {
    // Messages only: built when something is wrong.
    var path: String { "batch[\(index)]" }
    guard document[node].kind == .object else {
      throw .badRequest("wrong-shape", "\(path) must be an event object, not \(Self.describe(document[node].kind))")
    }
    let size = document.byteCount(node)
    if size > maxEventBytes {
      throw Rejection(
        status: 413, code: "event-too-large",
        message: "\(path) is \(size) bytes, over the limit of \(maxEventBytes) bytes an event")
    }
    var fields = Fields(document: document, index: index, suffix: "")
    var type: String?
    var event: String?
    var messageID: String?
    var timestamp: String?
    var anonymousID: String?
    var userID: String?
    var properties: [String: ReceivedValue] = [:]
    var trackc = TrackcContext()
    for (key, value) in document.members(of: node) {
      let name = document.string(key)
      switch name {
      case "type": type = try fields.string(name, value)
      case "event": event = try fields.string(name, value)
      case "messageId": messageID = try fields.string(name, value)
      case "timestamp": timestamp = try fields.string(name, value)
      case "anonymousId": anonymousID = try fields.string(name, value)
      case "userId": userID = try fields.string(name, value)
      case "properties":
        try fields.markSeen(name)
        properties = try decodeProperties(document, value, index: index)
      case "context":
        try fields.markSeen(name)
        trackc = try decodeContext(document, value, index: index)
      default: continue  // other Segment fields (integrations, sentAt...) are allowed
      }
    }
    guard let type else { throw .badRequest("missing-field", "\(path) has no 'type'") }
    guard type == "track" else {
      throw .badRequest("unsupported-type", "\(path).type is '\(Self.quoted(type))': this collector takes 'track' calls only")
    }
    guard let event, !event.isEmpty else { throw .badRequest("missing-field", "\(path) has no 'event' (the event ID)") }
    guard let messageID, !messageID.isEmpty else { throw .badRequest("missing-field", "\(path) has no 'messageId'") }
    guard messageID.utf8.count <= Self.maxMessageIDBytes else {
      throw .badRequest("wrong-type", "\(path).messageId is longer than \(Self.maxMessageIDBytes) bytes")
    }
    guard let timestamp else { throw .badRequest("missing-field", "\(path) has no 'timestamp'") }
    guard Self.isTimestamp(timestamp) else {
      throw .badRequest("invalid-timestamp", "\(path).timestamp '\(Self.quoted(timestamp))' is not an ISO 8601 date and time")
    }
    guard anonymousID?.isEmpty == false || userID?.isEmpty == false else {
      throw .badRequest("missing-field", "\(path) has neither 'anonymousId' nor 'userId' (a track call needs one)")
    }
    return ReceivedEvent(
      event: event, messageID: messageID, destination: trackc.destination ?? defaultDestination, timestamp: timestamp,
      anonymousID: anonymousID, userID: userID, properties: properties, screen: trackc.screen, source: trackc.source,
      handler: trackc.handler, phase: trackc.phase,
      json: document.compactText(node))
  }

  private func decodeProperties(_ document: JSONDocument, _ node: Int, index: Int) throws(Rejection) -> [String: ReceivedValue] {
    var path: String { "batch[\(index)].properties" }
    switch document[node].kind {
    case .null: return [:]
    case .object: break
    default: throw .badRequest("wrong-type", "\(path) must be an object, not \(Self.describe(document[node].kind))")
    }
    var properties: [String: ReceivedValue] = [:]
    properties.reserveCapacity(Int(document[node].count))
    for (key, value) in document.members(of: node) {
      let name = document.string(key)
      let received: ReceivedValue
      switch document[value].kind {
      case .string: received = .string(document.string(value))
      case .true: received = .bool(true)
      case .false: received = .bool(false)
      case .number:
        let number = document.number(value)
        let text = String(decoding: document.text(value), as: UTF8.self)
        received = number.isFinite ? .number(number, text: text) : .other("a number beyond the range of a double")
      case let kind: received = .other(Self.describe(kind))
      }
      guard properties.updateValue(received, forKey: name) == nil else {
        throw .badRequest("duplicate-key", "\(path) has two properties named '\(Self.quoted(name))'")
      }
    }
    return properties
  }

  /// The strings of `context.trackc` that the collector reads.
  private struct TrackcContext {
    var destination, screen, source, handler, phase: String?
  }

  /// `context.trackc`; the rest of `context` is not checked.
  private func decodeContext(_ document: JSONDocument, _ node: Int, index: Int) throws(Rejection) -> TrackcContext {
    var path: String { "batch[\(index)].context" }
    switch document[node].kind {
    case .null: return TrackcContext()
    case .object: break
    default: throw .badRequest("wrong-type", "\(path) must be an object, not \(Self.describe(document[node].kind))")
    }
    var trackcNode: Int?
    for (key, value) in document.members(of: node) where document.string(key) == "trackc" {
      guard trackcNode == nil else { throw .badRequest("duplicate-key", "\(path) has two 'trackc' keys") }
      trackcNode = value
    }
    guard let trackcNode, document[trackcNode].kind != .null else { return TrackcContext() }
    guard document[trackcNode].kind == .object else {
      throw .badRequest("wrong-type", "\(path).trackc must be an object, not \(Self.describe(document[trackcNode].kind))")
    }
    var fields = Fields(document: document, index: index, suffix: ".context.trackc")
    var context = TrackcContext()
    for (key, value) in document.members(of: trackcNode) {
      let name = document.string(key)
      switch name {
      case "destination": context.destination = try fields.string(name, value)
      case "screen": context.screen = try fields.string(name, value)
      case "source": context.source = try fields.string(name, value)
      case "handler": context.handler = try fields.string(name, value)
      case "phase": context.phase = try fields.string(name, value)
      default: continue
      }
    }
    return context
  }

  /// The known keys of one object: each at most once, each of its type.
  private struct Fields {
    /// Every key the decoder reads, for a bit each.
    static let names = [
      "type", "event", "messageId", "timestamp", "anonymousId", "userId", "properties", "context",
      "destination", "screen", "source", "handler", "phase",
    ]

    let document: JSONDocument
    let index: Int
    /// Where the object is in the event ("" for the event itself).
    let suffix: String
    var seen: UInt32 = 0

    init(document: JSONDocument, index: Int, suffix: String) {
      self.document = document
      self.index = index
      self.suffix = suffix
    }

    var path: String { "batch[\(index)]" + suffix }

    mutating func markSeen(_ name: String) throws(Rejection) {
      let bit = UInt32(1) << UInt32(Self.names.firstIndex(of: name) ?? 31)
      guard seen & bit == 0 else { throw .badRequest("duplicate-key", "\(path) has two '\(name)' keys") }
      seen |= bit
    }

    /// A string, or nil for null.
    mutating func string(_ name: String, _ node: Int) throws(Rejection) -> String? {
      try markSeen(name)
      switch document[node].kind {
      case .string: return document.string(node)
      case .null: return nil
      case let kind: throw .badRequest("wrong-type", "\(path).\(name) must be a string, not \(BatchDecoder.describe(kind))")
      }
    }
  }

  static func describe(_ kind: JSONDocument.Kind) -> String {
    switch kind {
    case .object: return "an object"
    case .array: return "an array"
    case .string: return "a string"
    case .number: return "a number"
    case .true, .false: return "a boolean"
    case .null: return "null"
    }
  }

  /// A string from the request, for a message: at most 100 characters, control characters escaped.
  static func quoted(_ text: String) -> String {
    // Most strings are short printable ASCII (event IDs, destinations, message IDs): as they are.
    if text.utf8.count <= 100 && text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    let short = text.count > 100 ? text.prefix(100) + "…" : Substring(text)
    var result = ""
    for scalar in short.unicodeScalars {
      if scalar.properties.generalCategory == .control || scalar.value == 0x2028 || scalar.value == 0x2029 {
        result += scalar.escaped(asASCII: true)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
  private static let withoutFraction = Date.ISO8601FormatStyle()

  /// ISO 8601 date and time, with or without fractional seconds, `Z` or an offset.
  static func isTimestamp(_ text: String) -> Bool {
    guard text.utf8.count <= 64 else { return false }
    return (try? withFraction.parse(text)) != nil || (try? withoutFraction.parse(text)) != nil
  }
}

extension JSONSyntaxError {
  static let invalidUTF8 = "invalid UTF-8"
}
