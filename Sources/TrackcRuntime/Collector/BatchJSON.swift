import Foundation

/// The upload body of the collector wire format (WIRE.md, compatible with the Segment HTTP Tracking API
/// batch endpoint), written byte by byte from the decoded events: valid JSON by construction, whatever
/// the strings hold. Strings are escaped (quote, backslash and every control character); Swift strings
/// are valid Unicode, so the UTF-8 is valid; a number that JSON cannot spell (NaN, infinity) is `null`.
enum BatchJSON {
  static let libraryName = "trackc"
  static let libraryVersion = "0.1.0"

  struct Context {
    var destination: String
    var anonymousID: String
  }

  static func body(_ events: [TrackingEvent], context: Context, sentAt: Date) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(events.count * 420 + 64)
    append(&out, #"{"batch":["#)
    for (index, event) in events.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      self.event(event, context: context, into: &out)
    }
    append(&out, #"],"sentAt":"#)
    timestamp(sentAt, into: &out)
    out.append(UInt8(ascii: "}"))
    return out
  }

  static func event(_ event: TrackingEvent, context: Context, into out: inout [UInt8]) {
    append(&out, #"{"type":"track","event":"#)
    string(event.id, into: &out)
    append(&out, #","properties":{"#)
    for (index, key) in event.properties.keys.sorted().enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      string(key, into: &out)
      out.append(UInt8(ascii: ":"))
      value(event.properties[key]!, into: &out)
    }
    append(&out, #"},"messageId":""#)
    uuid(event.messageID, into: &out)
    append(&out, #"","timestamp":"#)
    timestamp(event.timestamp, into: &out)
    append(&out, #","anonymousId":"#)
    string(context.anonymousID, into: &out)
    append(&out, #","context":{"library":{"name":""#)
    append(&out, libraryName)
    append(&out, #"","version":""#)
    append(&out, libraryVersion)
    append(&out, #""},"trackc":{"destination":"#)
    string(context.destination, into: &out)
    if let screen = event.screen {
      append(&out, #","screen":"#)
      string(screen, into: &out)
    }
    switch event.source {
    case .page(let phase):
      append(&out, #","source":"page","phase":""#)
      append(&out, phase.rawValue)
      out.append(UInt8(ascii: "\""))
    case .control(let handler):
      append(&out, #","source":"control","handler":"#)
      string(handler, into: &out)
    case .manual:
      append(&out, #","source":"manual""#)
    }
    append(&out, "}}}")
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
