// Shared with the `collector-request` fuzz target (Fuzz/Sources/fuzz-collector-request links this file):
// self-contained, TrackcCollector and Foundation only. The JSON reader and the collector's core are
// internal, hence `@testable`: the tests and the fuzz build both compile the collector for testing.
import Foundation

@testable import TrackcCollector

/// The collector's request body reader, fed arbitrary bytes: its JSON reader, and a `POST /v1/batch`
/// body through `CollectorCore.acceptBatch`, the function the HTTP handler calls once it has the
/// (decompressed, size-checked) body.
///
/// Laws: never a trap; the JSON reader agrees with Foundation's `JSONSerialization` on whether the bytes
/// are JSON and on what they mean (within its nesting limit, and but for the differences on purpose,
/// `isKnownDifference`); a document's compact text reads back as the same value, and compacts to itself;
/// a batch is answered 200, 400 or 413 (never a server error), and only a JSON body is accepted; the
/// statistics count the request once, and every call once, as new or as a duplicate, and by its type;
/// every call accepted is of one of Segment's types and has what its type needs (a track call its event
/// ID, a group call its group ID, an alias call both IDs, every other call a user or anonymous ID), a
/// message ID within bounds (made by the collector when the call had none) and a JSON text within the
/// event size limit that reads back; the same body sent again is all duplicates, but for the calls
/// whose message ID the collector made.
public enum CollectorRequestFuzzing {
  /// A small event limit, so that inputs of a fuzzer's size reach the 413 path.
  static let maxEventBytes = 2048

  /// A plan with one event, for the plan checks to run on what is accepted.
  static let plan = CollectorPlan(
    events: [
      "CTRL_HOME_FAV": CollectorPlan.Event(
        routing: .only(["firebase"]), properties: ["source": [.string], "count": [.number], "on": [.boolean]]),
      "PAGE_HOME_ENTER": CollectorPlan.Event(routing: .only(["firebase", "mixpanel"])),
    ], destinations: ["firebase", "mixpanel"], screens: ["Home": "PAGE_HOME_ENTER"])

  public static func violations(_ bytes: [UInt8]) -> [String] {
    jsonViolations(bytes) + batchViolations(bytes)
  }

  // MARK: The JSON reader

  static func jsonViolations(_ bytes: [UInt8]) -> [String] {
    var violations: [String] = []
    let ours: JSONDocument?
    var ourError: JSONSyntaxError?
    do {
      ours = try JSONDocument(bytes)
    } catch {
      ours = nil
      ourError = error
    }
    let theirs = foundation(bytes)
    if !isKnownDifference(bytes, ours, ourError, foundationAccepts: theirs != nil) {
      if (ours != nil) != (theirs != nil) {
        violations.append(
          "the JSON reader \(ours != nil ? "accepts" : "refuses (\(ourError!))") what Foundation \(theirs != nil ? "accepts" : "refuses")")
      } else if let ours, let theirs, comparable(Value(ours, ours.root)) != comparable(Value(foundation: theirs)) {
        violations.append("the JSON reader reads \(Value(ours, ours.root)), Foundation \(Value(foundation: theirs))")
      }
    }
    if let ours {
      let compact = ours.compactText(ours.root)
      if let again = try? JSONDocument(Array(compact.utf8)) {
        if !Value(again, again.root).sameAs(Value(ours, ours.root)) {
          violations.append("the compact text \(compact.debugDescription) reads as another value")
        }
        if again.compactText(again.root) != compact { violations.append("the compact text \(compact.debugDescription) does not compact to itself") }
      } else {
        violations.append("the compact text \(compact.debugDescription) does not read")
      }
    }
    return violations
  }

  static func foundation(_ bytes: [UInt8]) -> Any? {
    try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
  }

  /// A value in one canonical form, to compare the two readers' results.
  indirect enum Value: Equatable, CustomStringConvertible {
    case object([String: Value])
    case array([Value])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(_ document: JSONDocument, _ node: Int) {
      switch document[node].kind {
      case .object:
        var members: [String: Value] = [:]
        for (key, value) in document.members(of: node) { members[document.string(key)] = Value(document, value) }
        self = .object(members)
      case .array: self = .array(document.elements(of: node).map { Value(document, $0) })
      case .string: self = .string(document.string(node))
      case .number: self = .number(document.number(node))
      case .true: self = .bool(true)
      case .false: self = .bool(false)
      case .null: self = .null
      }
    }

    init(foundation value: Any) {
      switch value {
      case let dictionary as [String: Any]: self = .object(dictionary.mapValues { Value(foundation: $0) })
      case let array as [Any]: self = .array(array.map { Value(foundation: $0) })
      case let string as String: self = .string(string)
      case is NSNull: self = .null
      case let number as NSNumber:
        // Foundation keeps booleans as NSNumber too; its type tells them apart.
        if String(cString: number.objCType) == "c" {
          self = .bool(number.boolValue)
        } else {
          self = .number(number.doubleValue)
        }
      default: self = .null
      }
    }

    /// Equal, numbers by bit pattern (NaN and infinities included: the same text, read by the same reader).
    func sameAs(_ other: Value) -> Bool {
      switch (self, other) {
      case (.object(let a), .object(let b)): return a.count == b.count && a.allSatisfy { key, value in b[key].map(value.sameAs) ?? false }
      case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.sameAs($1) }
      case (.number(let a), .number(let b)): return a.bitPattern == b.bitPattern
      default: return self == other
      }
    }

    var description: String {
      switch self {
      case .object(let members):
        return "{" + members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription): \($0.value)" }.joined(separator: ", ") + "}"
      case .array(let elements): return "[" + elements.map(\.description).joined(separator: ", ") + "]"
      case .string(let string): return string.debugDescription
      case .number(let number): return "\(number)"
      case .bool(let bool): return "\(bool)"
      case .null: return "null"
      }
    }
  }

  /// Where the readers differ on purpose. Foundation refuses numbers beyond Double's range, which RFC
  /// 8259 allows (the collector reads them as "not a finite number"); Foundation stops reading at a NUL
  /// byte, taking "1\0garbage" for 1; Foundation (swift-foundation 6.3) accepts a comma before a closing
  /// bracket or brace (`[1,]`, found by the fuzzer), which RFC 8259 does not; and this reader refuses
  /// nesting deeper than its limit (64 levels), which Foundation reads.
  static func isKnownDifference(_ bytes: [UInt8], _ ours: JSONDocument?, _ ourError: JSONSyntaxError?, foundationAccepts: Bool) -> Bool {
    guard let ours else {
      guard foundationAccepts else { return false }
      if bytes.contains(0) || ourError?.reason.hasPrefix("nested more than") == true { return true }
      let strict = withoutTrailingCommas(bytes)
      return strict != bytes && (try? JSONDocument(strict)) != nil
    }
    return ours.nodes.indices.contains { ours[$0].kind == .number && !ours.number($0).isFinite }
  }

  /// The bytes without the commas that directly (but for whitespace) precede a `]` or `}` outside strings.
  static func withoutTrailingCommas(_ bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var inString = false
    var escaped = false
    for (index, byte) in bytes.enumerated() {
      if inString {
        if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == UInt8(ascii: ","),
        let next = bytes[(index + 1)...].first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }),
        next == UInt8(ascii: "]") || next == UInt8(ascii: "}")
      {
        continue
      }
      result.append(byte)
    }
    return result
  }

  /// Numbers rounded to 14 significant digits: Foundation's reader is not correctly rounded
  /// (1234.5678901234564 for 1234.567890123457), this one is (it uses strtod). Numbers near Double's
  /// smallest are scaled up first, or the scale would overflow (the fuzzer's 5e-324).
  static func comparable(_ value: Value) -> Value {
    switch value {
    case .object(let members): return .object(members.mapValues(comparable))
    case .array(let elements): return .array(elements.map(comparable))
    case .number(let number) where number != 0:
      let normal = abs(number) < 1e-290 ? number * 1e300 : number
      let scale = pow(10, 13 - floor(log10(abs(normal))))
      return .number((normal * scale).rounded() / scale)
    default: return value
    }
  }

  // MARK: A batch

  /// The collector the batch laws are checked on: the plan, small limits.
  static func makeCore() throws -> CollectorCore {
    var configuration = CollectorConfiguration()
    configuration.plan = plan
    configuration.limits.maxEventBytes = maxEventBytes
    configuration.limits.deduplicationWindow = 1000
    configuration.limits.retainedEvents = 1000
    configuration.limits.retainedViolations = 1000
    return try CollectorCore(configuration: configuration)
  }

  static func batchViolations(_ bytes: [UInt8]) -> [String] {
    var violations: [String] = []
    let core: CollectorCore
    do {
      core = try makeCore()
    } catch {
      return ["the collector does not start: \(error)"]
    }
    let answer = core.acceptBatch(bytes, request: "POST /v1/batch")
    let statistics = core.statistics
    let received = core.received
    guard [200, 400, 413].contains(answer.status) else { return ["a batch was answered \(answer.status): \(answer.body)"] }
    if statistics.requests != 1 { violations.append("one request counted as \(statistics.requests)") }
    guard answer.status == 200 else {
      if statistics.rejectedByStatus != [answer.status: 1] || statistics.acceptedBatches != 0 || !received.isEmpty {
        violations.append("a refused batch (\(answer.status)) was counted as \(statistics)")
      }
      return violations
    }
    guard let document = try? JSONDocument(bytes) else { return ["a body that is not JSON was accepted"] }
    if statistics.acceptedBatches != 1 || !statistics.rejectedByStatus.isEmpty { violations.append("an accepted batch was counted as \(statistics)") }
    let sent = document.members(of: document.root).first { document.string($0.key) == "batch" }.map { Int(document[$0.value].count) } ?? -1
    if statistics.acceptedEvents + statistics.duplicates != sent || received.count != statistics.acceptedEvents {
      violations.append("\(sent) events sent, \(statistics.acceptedEvents) accepted and \(statistics.duplicates) duplicates, \(received.count) kept")
    }
    if statistics.acceptedByType.values.reduce(0, +) != statistics.acceptedEvents {
      violations.append("calls by type \(statistics.acceptedByType) do not add up to \(statistics.acceptedEvents)")
    }
    for event in received {
      if event.messageID.isEmpty || event.messageID.utf8.count > BatchDecoder.maxMessageIDBytes {
        violations.append("a call with a message ID out of bounds was accepted: \(event)")
      }
      let identified = event.anonymousID != nil || event.userID != nil
      switch event.type {
      case .track where event.event.isEmpty: violations.append("a track call without an event ID was accepted: \(event)")
      case .group where event.groupID == nil: violations.append("a group call without a group ID was accepted: \(event)")
      case .alias where event.previousID == nil || event.userID == nil: violations.append("an alias call without its IDs was accepted: \(event)")
      default: break
      }
      if event.type != .alias && !identified { violations.append("a call without a user was accepted: \(event)") }
      if !event.type.isChecked && !event.violations.isEmpty { violations.append("a \(event.type) call was checked against the plan") }
      if event.json.utf8.count > maxEventBytes { violations.append("a call of \(event.json.utf8.count) bytes was accepted") }
      if (try? JSONDocument(Array(event.json.utf8))) == nil { violations.append("an accepted call's JSON does not read: \(event.json)") }
    }
    // The client sends a batch again when it misses the answer: every call is a duplicate then, but for
    // those that came without a message ID (the collector made each a new one).
    let madeUp = received.count { $0.messageIDWasFilledIn }
    let again = core.acceptBatch(bytes, request: "POST /v1/batch")
    let after = core.statistics
    if again.status != 200 || after.acceptedEvents != statistics.acceptedEvents + madeUp
      || after.duplicates != statistics.duplicates + sent - madeUp
    {
      violations.append("the same batch sent again was not all duplicates: \(again.status), \(after)")
    }
    return violations
  }
}
