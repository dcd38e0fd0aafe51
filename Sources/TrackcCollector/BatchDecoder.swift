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

/// Reads a `POST /v1/batch` body (Segment's batch format: docs/wire-format.md) into calls, or says why
/// it is refused. Takes every call type of Segment's HTTP API (`track`, `screen`, `identify`, `page`,
/// `group`, `alias`) and fills in what Segment fills in (a missing `messageId` or `timestamp`). All or
/// nothing: one malformed call refuses the batch (400), so that the client splits it to find the bad
/// call; one call over the size limit refuses it with 413.
struct BatchDecoder: Sendable {
  var maxEventBytes: Int

  /// Longer message IDs are refused: the deduplication window holds each one.
  static let maxMessageIDBytes = 256

  /// What the collector fills in for calls that lack it.
  struct FillIns {
    /// The time the batch was received, ISO 8601 (a call's `timestamp` when it has none).
    var receivedAt: String
    /// Makes a message ID for a call without one.
    var messageID: () -> String
  }

  /// The calls of a body, each with what `plan` says about it.
  func decode(_ body: [UInt8], checkingAgainst plan: CollectorPlan?, fillIns: FillIns) throws(Rejection) -> [ReceivedEvent] {
    var events = try decode(body, fillIns: fillIns)
    if let plan {
      for index in events.indices {
        plan.resolve(&events[index])
        if events[index].type.isChecked {
          events[index].violations = plan.violations(of: events[index])
        } else {
          // Identify and alias calls: by their consent stamp alone.
          events[index].violations = plan.consentViolations(of: events[index]) + plan.planViolations(of: events[index])
        }
      }
    }
    return events
  }

  func decode(_ body: [UInt8], fillIns: FillIns) throws(Rejection) -> [ReceivedEvent] {
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
      throw .badRequest("wrong-shape", "'batch' must be an array of calls, not \(Self.describe(document[batch].kind))")
    }
    var events: [ReceivedEvent] = []
    events.reserveCapacity(Int(document[batch].count))
    for (index, element) in document.elements(of: batch).enumerated() {
      events.append(try decodeCall(document, element, index: index, fillIns: fillIns))
    }
    return events
  }

  private func decodeCall(_ document: JSONDocument, _ node: Int, index: Int, fillIns: FillIns) throws(Rejection) -> ReceivedEvent {
    // Messages only: built when something is wrong.
    var path: String { "batch[\(index)]" }
    guard document[node].kind == .object else {
      throw .badRequest("wrong-shape", "\(path) must be a call object, not \(Self.describe(document[node].kind))")
    }
    let size = document.byteCount(node)
    if size > maxEventBytes {
      throw Rejection(
        status: 413, code: "event-too-large",
        message: "\(path) is \(size) bytes, over the limit of \(maxEventBytes) bytes an event")
    }
    var fields = Fields(document: document, index: index, suffix: "")
    var typeName: String?
    var event: String?
    var name: String?
    var messageID: String?
    var timestamp: String?
    var anonymousID: String?
    var userID: String?
    var previousID: String?
    var groupID: String?
    var properties: [String: ReceivedValue] = [:]
    var traits: [String: ReceivedValue] = [:]
    var context = Context()
    var destinations: [String]?
    var withheld: [String] = []
    for (key, value) in document.members(of: node) {
      let field = document.string(key)
      switch field {
      case "type": typeName = try fields.string(field, value)
      case "event": event = try fields.string(field, value)
      case "name": name = try fields.string(field, value)
      case "messageId": messageID = try fields.string(field, value)
      case "timestamp": timestamp = try fields.string(field, value)
      case "anonymousId": anonymousID = try fields.identifier(field, value)
      case "userId": userID = try fields.identifier(field, value)
      case "previousId": previousID = try fields.identifier(field, value)
      case "groupId": groupID = try fields.identifier(field, value)
      case "properties":
        try fields.markSeen(field)
        properties = try decodeValues(document, value, path: path + ".properties")
      case "traits":
        try fields.markSeen(field)
        traits = try decodeValues(document, value, path: path + ".traits")
      case "context":
        try fields.markSeen(field)
        context = try decodeContext(document, value, index: index)
      case "integrations":
        try fields.markSeen(field)
        (destinations, withheld) = try decodeIntegrations(document, value, path: path + ".integrations")
      default: continue  // other Segment fields (sentAt, receivedAt, originalTimestamp...) are allowed
      }
    }
    guard let typeName else { throw .badRequest("missing-field", "\(path) has no 'type'") }
    guard let type = CallType(rawValue: typeName) else {
      throw .badRequest(
        "unsupported-type",
        "\(path).type is '\(Self.quoted(typeName))': Segment's calls are track, screen, identify, page, group and alias")
    }
    if type == .track {
      guard let event, !event.isEmpty else { throw .badRequest("missing-field", "\(path) is a track call without 'event' (the event ID)") }
    }
    if type == .group, groupID == nil { throw .badRequest("missing-field", "\(path) is a group call without 'groupId'") }
    if type == .alias {
      guard previousID != nil, userID != nil else {
        throw .badRequest("missing-field", "\(path) is an alias call without 'previousId' and 'userId'")
      }
    } else if anonymousID == nil && userID == nil {
      throw .badRequest("missing-field", "\(path) has neither 'anonymousId' nor 'userId' (a \(typeName) call needs one)")
    }
    var filledInID = false
    if let messageID {
      guard !messageID.isEmpty else { throw .badRequest("missing-field", "\(path).messageId is empty") }
      guard messageID.utf8.count <= Self.maxMessageIDBytes else {
        throw .badRequest("wrong-type", "\(path).messageId is longer than \(Self.maxMessageIDBytes) bytes")
      }
    } else {
      filledInID = true
    }
    if let timestamp, !Self.isTimestamp(timestamp) {
      throw .badRequest("invalid-timestamp", "\(path).timestamp '\(Self.quoted(timestamp))' is not an ISO 8601 date and time")
    }
    var received = ReceivedEvent(
      type: type, event: context.event ?? (type == .track ? event ?? "" : ""), name: type == .track ? event : name,
      messageID: messageID ?? fillIns.messageID(), destinations: destinations, timestamp: timestamp ?? fillIns.receivedAt,
      anonymousID: anonymousID, userID: userID, previousID: previousID, groupID: groupID, properties: properties, traits: traits,
      library: context.library, screen: context.screen, source: context.source, handler: context.handler, phase: context.phase,
      json: document.compactText(node))
    received.messageIDWasFilledIn = filledInID
    received.withheldFrom = withheld
    received.categoryPreferences = context.categoryPreferences
    received.planVersion = context.planVersion
    received.planHash = context.planHash
    return received
  }

  /// An object of values (`properties`, `traits`): null is none.
  private func decodeValues(_ document: JSONDocument, _ node: Int, path: @autoclosure () -> String) throws(Rejection) -> [String: ReceivedValue] {
    switch document[node].kind {
    case .null: return [:]
    case .object: break
    default: throw .badRequest("wrong-type", "\(path()) must be an object, not \(Self.describe(document[node].kind))")
    }
    var values: [String: ReceivedValue] = [:]
    values.reserveCapacity(Int(document[node].count))
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
      guard values.updateValue(received, forKey: name) == nil else {
        throw .badRequest("duplicate-key", "\(path()) has two keys named '\(Self.quoted(name))'")
      }
    }
    return values
  }

  /// `integrations`: the destinations named true (or with settings) when `All` is false, else nil; and
  /// the destinations named false while `All` is not (every destination but those).
  private func decodeIntegrations(
    _ document: JSONDocument, _ node: Int, path: @autoclosure () -> String
  ) throws(Rejection) -> (named: [String]?, withheld: [String]) {
    switch document[node].kind {
    case .null: return (nil, [])
    case .object: break
    default: throw .badRequest("wrong-type", "\(path()) must be an object, not \(Self.describe(document[node].kind))")
    }
    var all = true
    var named: [String] = []
    var withheld: [String] = []
    var seen: Set<String> = []
    for (key, value) in document.members(of: node) {
      let name = document.string(key)
      guard seen.insert(name).inserted else { throw .badRequest("duplicate-key", "\(path()) has two keys named '\(Self.quoted(name))'") }
      switch document[value].kind {
      case .true, .object: if name != "All" { named.append(name) }
      case .false: if name == "All" { all = false } else { withheld.append(name) }
      default:
        throw .badRequest(
          "wrong-type", "\(path()).\(Self.quoted(name)) must be a boolean or an object of settings, not \(Self.describe(document[value].kind))")
      }
    }
    return all ? (nil, withheld.sorted()) : (named.sorted(), [])
  }

  /// What the collector reads of `context`: the client's library, and trackc's own `context.trackc`.
  private struct Context {
    var library, event, screen, source, handler, phase: String?
    /// `consent.categoryPreferences`: Segment's consent stamp, its booleans by category.
    var categoryPreferences: [String: Bool]?
    /// `trackingPlan`: the plan's version and hash.
    var planVersion, planHash: String?
  }

  private func decodeContext(_ document: JSONDocument, _ node: Int, index: Int) throws(Rejection) -> Context {
    var path: String { "batch[\(index)].context" }
    switch document[node].kind {
    case .null: return Context()
    case .object: break
    default: throw .badRequest("wrong-type", "\(path) must be an object, not \(Self.describe(document[node].kind))")
    }
    var context = Context()
    var trackcNode: Int?
    var libraryNode: Int?
    var consentNode: Int?
    for (key, value) in document.members(of: node) {
      switch document.string(key) {
      case "trackingPlan" where document[value].kind == .object:
        for (field, text) in document.members(of: value) where document[text].kind == .string {
          switch document.string(field) {
          case "version": context.planVersion = document.string(text)
          case "hash": context.planHash = document.string(text)
          default: continue
          }
        }
      case "consent":
        guard consentNode == nil else { throw .badRequest("duplicate-key", "\(path) has two 'consent' keys") }
        consentNode = value
      case "trackc":
        guard trackcNode == nil else { throw .badRequest("duplicate-key", "\(path) has two 'trackc' keys") }
        trackcNode = value
      case "library":
        guard libraryNode == nil else { throw .badRequest("duplicate-key", "\(path) has two 'library' keys") }
        libraryNode = value
      default: continue
      }
    }
    if let libraryNode, document[libraryNode].kind == .object {
      // Anything else (a library named by a string, say) is the client's business, not checked.
      for (key, value) in document.members(of: libraryNode) where document.string(key) == "name" && document[value].kind == .string {
        context.library = document.string(value)
      }
    }
    if let consentNode, document[consentNode].kind == .object {
      // Read as Segment reads it: the categories' booleans (anything else is the client's business).
      for (key, value) in document.members(of: consentNode) where document.string(key) == "categoryPreferences" {
        guard document[value].kind == .object else { continue }
        var preferences: [String: Bool] = [:]
        for (category, answer) in document.members(of: value) {
          switch document[answer].kind {
          case .true: preferences[document.string(category)] = true
          case .false: preferences[document.string(category)] = false
          default: continue
          }
        }
        context.categoryPreferences = preferences
      }
    }
    guard let trackcNode, document[trackcNode].kind != .null else { return context }
    guard document[trackcNode].kind == .object else {
      throw .badRequest("wrong-type", "\(path).trackc must be an object, not \(Self.describe(document[trackcNode].kind))")
    }
    var fields = Fields(document: document, index: index, suffix: ".context.trackc")
    for (key, value) in document.members(of: trackcNode) {
      let name = document.string(key)
      switch name {
      case "event": context.event = try fields.string(name, value)
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
      "type", "event", "name", "messageId", "timestamp", "anonymousId", "userId", "previousId", "groupId", "properties", "traits",
      "context", "integrations", "screen", "source", "handler", "phase",
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

    /// An ID (`userId`, `anonymousId`...): a string, or a number (Segment takes numeric IDs and turns them
    /// into strings); nil for null or an empty string.
    mutating func identifier(_ name: String, _ node: Int) throws(Rejection) -> String? {
      try markSeen(name)
      switch document[node].kind {
      case .string:
        let value = document.string(node)
        return value.isEmpty ? nil : value
      case .number: return String(decoding: document.text(node), as: UTF8.self)
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

  /// An RFC 3339 date and time: `YYYY-MM-DDThh:mm:ss`, optional fractional seconds (1 to 9 digits), then
  /// `Z` or an offset (`+hh:mm`, `+hhmm` or `+hh`); `T` and `Z` in either case; every field in its range
  /// (the day within its month, a leap second allowed).
  ///
  /// Written here rather than asking Foundation's `ISO8601FormatStyle`: that parse was about a fifth of
  /// the collector's cost per event (`Benchmarks/ingest`), and it accepts what RFC 3339 does not (April
  /// 31st, 24:00, trailing bytes).
  static func isTimestamp(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      guard bytes.count >= 20, bytes.count <= 64 else { return false }
      func number(_ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
          let digit = Int(bytes[index]) - 48
          guard (0...9).contains(digit) else { return nil }
          value = value * 10 + digit
        }
        return value
      }
      guard let year = number(0, 4), bytes[4] == UInt8(ascii: "-"), let month = number(5, 2), bytes[7] == UInt8(ascii: "-"),
        let day = number(8, 2), bytes[10] | 0x20 == UInt8(ascii: "t"), let hour = number(11, 2), bytes[13] == UInt8(ascii: ":"),
        let minute = number(14, 2), bytes[16] == UInt8(ascii: ":"), let second = number(17, 2)
      else { return false }
      let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
      let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
      guard (1...12).contains(month), (1...days[month - 1]).contains(day), hour < 24, minute < 60, second <= 60 else { return false }
      var index = 19
      if bytes[index] == UInt8(ascii: ".") {
        let digits = bytes[(index + 1)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
        guard (1...9).contains(digits) else { return false }
        index += 1 + digits
      }
      guard index < bytes.count else { return false }
      if bytes[index] | 0x20 == UInt8(ascii: "z") { return index + 1 == bytes.count }
      guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return false }
      let zone = bytes.count - index - 1
      switch zone {
      case 2: return number(index + 1, 2).map { $0 < 24 } ?? false
      case 4: return (number(index + 1, 2).map { $0 < 24 } ?? false) && (number(index + 3, 2).map { $0 < 60 } ?? false)
      case 5:
        return (number(index + 1, 2).map { $0 < 24 } ?? false) && bytes[index + 3] == UInt8(ascii: ":")
          && (number(index + 4, 2).map { $0 < 60 } ?? false)
      default: return false
      }
    }
  }
}

extension JSONSyntaxError {
  static let invalidUTF8 = "invalid UTF-8"
}
