import Foundation

/// The upload body of the collector wire format (docs/wire-format.md: Segment's HTTP API batch
/// endpoint), written byte by byte from the decoded events: valid JSON by construction, whatever the
/// strings hold. Strings are escaped (quote, backslash and every control character); Swift strings are
/// valid Unicode, so the UTF-8 is valid; a number that JSON cannot spell (NaN, infinity) is `null`.
///
/// A page's enter event goes as a `screen` call (named after the screen, or its `wire_name`; its event ID
/// in `context.trackc.event`) unless the plan says `call: track`; every other event as a `track` call,
/// named by its `wire_name` (its ID then in `context.trackc.event`) or its ID; identify and alias calls
/// as theirs.
/// What identifies the event (anonymous ID, user ID, context) is its snapshot's, written once per
/// snapshot (`snapshotFields`) and copied into each event.
enum BatchJSON {
  static func body(_ events: [TrackingEvent], sentAt: Date) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(events.count * 900 + 64)
    append(&out, #"{"batch":["#)
    for (index, event) in events.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      self.event(event, into: &out)
    }
    append(&out, #"],"sentAt":"#)
    timestamp(sentAt, into: &out)
    out.append(UInt8(ascii: "}"))
    return out
  }

  static func event(_ event: TrackingEvent, into out: inout [UInt8]) {
    switch event.source {
    case .page(.enter) where !event.sendsEnterAsTrack:
      append(&out, #"{"type":"screen","name":"#)
      string(event.wireName ?? event.screen ?? event.id, into: &out)
      append(&out, #","properties":"#)
      properties(event.properties, into: &out)
    case .identify:
      append(&out, #"{"type":"identify","traits":"#)
      properties(event.properties, into: &out)
    case .alias(let previous):
      append(&out, #"{"type":"alias","previousId":"#)
      string(previous, into: &out)
    default:
      append(&out, #"{"type":"track","event":"#)
      string(event.name, into: &out)
      append(&out, #","properties":"#)
      properties(event.properties, into: &out)
    }
    append(&out, #","messageId":""#)
    uuid(event.messageID, into: &out)
    append(&out, #"","timestamp":"#)
    timestamp(event.timestamp, into: &out)
    out.append(UInt8(ascii: ","))
    out.append(contentsOf: event.snapshot.wire)
    if !event.categoryPreferences.isEmpty {
      // Segment's consent stamp: what its consent management enforces destinations by.
      append(&out, #","consent":{"categoryPreferences":{"#)
      for (index, name) in event.categoryPreferences.keys.sorted().enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        string(name, into: &out)
        append(&out, event.categoryPreferences[name]! ? ":true" : ":false")
      }
      append(&out, "}}")
    }
    switch event.source {
    case .identify, .alias:
      out.append(UInt8(ascii: "}"))
    case .page(let phase):
      append(&out, #","trackc":{"#)
      if (phase == .enter && !event.sendsEnterAsTrack) || event.wireName != nil {
        append(&out, #""event":"#)
        string(event.id, into: &out)
        out.append(UInt8(ascii: ","))
      }
      append(&out, #""source":"page","phase":""#)
      append(&out, phase.rawValue)
      out.append(UInt8(ascii: "\""))
      screenField(event.screen, into: &out)
      append(&out, "}}")
    case .control(let handler):
      append(&out, #","trackc":{"#)
      eventField(of: event, into: &out)
      append(&out, #""source":"control","handler":"#)
      string(handler, into: &out)
      screenField(event.screen, into: &out)
      append(&out, "}}")
    case .manual:
      append(&out, #","trackc":{"#)
      eventField(of: event, into: &out)
      append(&out, #""source":"manual""#)
      screenField(event.screen, into: &out)
      append(&out, "}}")
    }
    if let destinations = event.forwardedTo {
      append(&out, #","integrations":{"All":false"#)
      for name in destinations {
        out.append(UInt8(ascii: ","))
        string(name, into: &out)
        append(&out, ":true")
      }
      out.append(UInt8(ascii: "}"))
    } else if !event.withheldFrom.isEmpty {
      // Every destination but those the person refused (Segment forwards a call without `integrations`
      // to every destination of the source).
      append(&out, #","integrations":{"All":true"#)
      for name in event.withheldFrom {
        out.append(UInt8(ascii: ","))
        string(name, into: &out)
        append(&out, ":false")
      }
      out.append(UInt8(ascii: "}"))
    }
    out.append(UInt8(ascii: "}"))
  }

  /// `"event":ID,` in `context.trackc` of a track call that goes by its wire name: the plan's event ID,
  /// which the call's name no longer is.
  private static func eventField(of event: TrackingEvent, into out: inout [UInt8]) {
    guard event.wireName != nil else { return }
    append(&out, #""event":"#)
    string(event.id, into: &out)
    out.append(UInt8(ascii: ","))
  }

  private static func screenField(_ screen: String?, into out: inout [UInt8]) {
    guard let screen else { return }
    append(&out, #","screen":"#)
    string(screen, into: &out)
  }

  /// `{"key":value,...}`, keys sorted (so a body is the same bytes whatever the dictionary's order).
  static func properties(_ properties: [String: PropertyValue], into out: inout [UInt8]) {
    out.append(UInt8(ascii: "{"))
    for (index, key) in properties.keys.sorted().enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      string(key, into: &out)
      out.append(UInt8(ascii: ":"))
      value(properties[key]!, into: &out)
    }
    out.append(UInt8(ascii: "}"))
  }

  /// `"anonymousId":…,"userId":…,"context":{"app":…,"device":…,"os":…,"locale":…,"timezone":…,
  /// "screen":…,"library":…,"traits":…` (the context object left open, for the event's own
  /// `context.trackc`): what every event of a snapshot carries, written once per snapshot.
  static func snapshotFields(identity: TrackingIdentity, context: TrackingContext, plan: PlanStamp? = nil) -> [UInt8] {
    var out: [UInt8] = []
    append(&out, #""anonymousId":"#)
    string(identity.anonymousID, into: &out)
    if let user = identity.userID {
      append(&out, #","userId":"#)
      string(user, into: &out)
    }
    append(&out, #","context":{"#)
    var first = true
    func object(_ name: String, _ fields: [(String, String?)]) {
      let present = fields.filter { $0.1 != nil }
      guard !present.isEmpty else { return }
      if !first { out.append(UInt8(ascii: ",")) }
      first = false
      string(name, into: &out)
      append(&out, ":{")
      for (index, (key, value)) in present.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        string(key, into: &out)
        out.append(UInt8(ascii: ":"))
        string(value!, into: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
    func field(_ name: String, _ value: String?) {
      guard let value else { return }
      if !first { out.append(UInt8(ascii: ",")) }
      first = false
      string(name, into: &out)
      out.append(UInt8(ascii: ":"))
      string(value, into: &out)
    }
    object("app", [("name", context.app.name), ("version", context.app.version), ("build", context.app.build), ("namespace", context.app.namespace)])
    object("device", [("model", context.device.model), ("manufacturer", context.device.manufacturer), ("type", context.device.type)])
    object("os", [("name", context.os.name), ("version", context.os.version)])
    field("locale", context.locale)
    field("timezone", context.timezone)
    if let screen = context.screen {
      if !first { out.append(UInt8(ascii: ",")) }
      first = false
      append(&out, #""screen":{"width":\#(screen.width),"height":\#(screen.height)"#)
      if let density = screen.density, density.isFinite { append(&out, #","density":\#(density)"#) }
      out.append(UInt8(ascii: "}"))
    }
    object("library", [("name", TrackingContext.libraryName), ("version", TrackingContext.libraryVersion)])
    if let plan { object("trackingPlan", [("version", plan.version), ("hash", plan.hash)]) }
    if !identity.traits.isEmpty {
      append(&out, #","traits":"#)
      properties(identity.traits, into: &out)
    }
    return out
  }

  static func value(_ value: PropertyValue, into out: inout [UInt8]) {
    switch value {
    case .string(let string): self.string(string, into: &out)
    case .int(let int): append(&out, String(int))
    case .double(let double): append(&out, double.isFinite ? String(double) : "null")
    case .bool(let bool): append(&out, bool ? "true" : "false")
    }
  }

  private static let hex = Array("0123456789abcdef".utf8)

  static func string(_ string: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): append(&out, "\\\"")
      case UInt8(ascii: "\\"): append(&out, "\\\\")
      case UInt8(ascii: "\n"): append(&out, "\\n")
      case UInt8(ascii: "\r"): append(&out, "\\r")
      case UInt8(ascii: "\t"): append(&out, "\\t")
      case 0..<0x20:
        append(&out, "\\u00")
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0x0F)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  /// Lower-case 8-4-4-4-12 hex, without Foundation's formatting.
  static func uuid(_ id: UUID, into out: inout [UInt8]) {
    withUnsafeBytes(of: id.uuid) { bytes in
      for (index, byte) in bytes.enumerated() {
        if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0x0F)])
      }
    }
  }

  /// `"2026-11-23T10:00:00.123Z"`: ISO 8601, UTC, milliseconds (civil date from days, no formatter).
  static func timestamp(_ date: Date, into out: inout [UInt8]) {
    // Journal times are whole microseconds: round to those first, so that binary fractions do not
    // move a time before 1970 into the previous millisecond.
    let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    let milliseconds = microseconds >= 0 ? microseconds / 1000 : (microseconds - 999) / 1000
    var days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
    let dayMilliseconds = milliseconds - days * 86_400_000
    // Howard Hinnant's days_from_civil, inverted.
    days += 719_468
    let era = (days >= 0 ? days : days - 146_096) / 146_097
    let dayOfEra = days - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    out.append(UInt8(ascii: "\""))
    digits(Int(min(max(year, 0), 9999)), 4, &out)
    out.append(UInt8(ascii: "-"))
    digits(Int(month), 2, &out)
    out.append(UInt8(ascii: "-"))
    digits(Int(day), 2, &out)
    out.append(UInt8(ascii: "T"))
    digits(Int(dayMilliseconds / 3_600_000), 2, &out)
    out.append(UInt8(ascii: ":"))
    digits(Int(dayMilliseconds / 60_000 % 60), 2, &out)
    out.append(UInt8(ascii: ":"))
    digits(Int(dayMilliseconds / 1000 % 60), 2, &out)
    out.append(UInt8(ascii: "."))
    digits(Int(dayMilliseconds % 1000), 3, &out)
    append(&out, "Z\"")
  }

  private static func digits(_ value: Int, _ width: Int, _ out: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<width { divisor *= 10 }
    var value = value
    while divisor > 0 {
      out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
      value %= divisor
      divisor /= 10
    }
  }

  private static func append(_ out: inout [UInt8], _ text: String) {
    out.append(contentsOf: text.utf8)
  }
}
