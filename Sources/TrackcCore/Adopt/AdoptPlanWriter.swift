/// Writes the events `trackc adopt` mapped as a tracking plan: a new file, or what an existing plan lacks.
struct AdoptPlanWriter {
  struct Written {
    var text: String
    /// For each event, the lines (1-based, in `text`) its entry takes: lint's findings there are its own.
    var lines: [ClosedRange<Int>]
    /// The lines written for several events (a screen's key, a section's): a finding there is theirs.
    var headers: [Header] = []
  }

  struct Header {
    var line: Int
    var events: [Int]
  }

  /// Gives each event an ID from its wire name (`Checkout Tapped` -> `CHECKOUT_TAPPED`), unique in the
  /// plan and among `taken` (an existing plan's).
  static func assignIDs(_ events: inout [AdoptedEvent], taken: Set<String> = []) {
    var names = UniqueNames()
    for id in taken { _ = names.claim(id) }
    for index in events.indices { events[index].eventID = names.claim(eventID(for: events[index].wireName)) }
  }

  /// Upper snake case, as the default `event_id_pattern` wants: letters and digits, `_` between words,
  /// starting with a letter (`EVENT_` before one that would not).
  static func eventID(for wireName: String) -> String {
    let hasWord = wireName.unicodeScalars.contains { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    var id = hasWord ? StarterConfig.screamingSnake(wireName) : "EVENT"
    if let first = id.unicodeScalars.first, !("A"..."Z").contains(first) { id = "EVENT_" + id }
    return id
  }

  /// The whole plan: a header, the sources, and the screens with their events.
  static func newPlan(_ events: [AdoptedEvent], sources: [String], interception: TrackingConfig.Interception, summary: String) -> Written {
    var lines = [
      "# Written by `trackc adopt` from the analytics calls of the sources (\(summary)).",
      "# Each event keeps the name the call sent (wire_name) where it differs from its ID. Run `trackc lint` on this file.",
      "version: 1",
      "sources: [\(sources.map(StarterConfig.quoted).joined(separator: ", "))]",
      "interception: \(interception.rawValue)",
      "",
    ]
    guard !events.isEmpty else {
      lines.append("screens: {}")
      return Written(text: lines.joined(separator: "\n") + "\n", lines: [])
    }
    lines.append("screens:")
    var ranges = [ClosedRange<Int>](repeating: 0...0, count: events.count)
    var headers: [Header] = []
    appendScreens(events, members: Array(events.indices), to: &lines, indent: "  ", ranges: &ranges, headers: &headers)
    return Written(text: lines.joined(separator: "\n") + "\n", lines: ranges, headers: headers)
  }

  /// The screens of `members` (indices of `events`), each with its sections.
  static func appendScreens(
    _ events: [AdoptedEvent], members: [Int], to lines: inout [String], indent: String, ranges: inout [ClosedRange<Int>], headers: inout [Header]
  ) {
    let byScreen = Dictionary(grouping: members, by: { events[$0].screen })
    for screen in byScreen.keys.sorted(by: UTF8Order.less) {
      lines.append(indent + StarterConfig.quoted(screen) + ":")
      headers.append(Header(line: lines.count, events: byScreen[screen] ?? []))
      appendSections(events, members: byScreen[screen] ?? [], to: &lines, indent: indent + "  ", ranges: &ranges, headers: &headers)
    }
  }

  /// `page_events:` then `control_events:`, each with its entries.
  static func appendSections(
    _ events: [AdoptedEvent], members: [Int], to lines: inout [String], indent: String, ranges: inout [ClosedRange<Int>], headers: inout [Header]
  ) {
    let pages = members.filter { events[$0].isPageEvent }
    let controls = members.filter { !events[$0].isPageEvent }
    if !pages.isEmpty {
      lines.append(indent + "page_events:")
      headers.append(Header(line: lines.count, events: pages))
      appendEntries(events, members: pages, to: &lines, indent: indent + "  ", ranges: &ranges)
    }
    if !controls.isEmpty {
      lines.append(indent + "control_events:")
      headers.append(Header(line: lines.count, events: controls))
      appendEntries(events, members: controls, to: &lines, indent: indent + "  ", ranges: &ranges)
    }
  }

  /// The entries of one section, by key.
  static func appendEntries(_ events: [AdoptedEvent], members: [Int], to lines: inout [String], indent: String, ranges: inout [ClosedRange<Int>]) {
    for index in members.sorted(by: { UTF8Order.less(events[$0].slotKey, events[$1].slotKey) }) {
      appendEvent(events[index], key: events[index].slotKey, to: &lines, indent: indent, range: &ranges[index])
    }
  }

  /// `onCheckout(_:): CHECKOUT` or its long form with `wire_name` and properties, after a comment giving
  /// the call it comes from.
  static func appendEvent(_ event: AdoptedEvent, key: String, to lines: inout [String], indent: String, range: inout ClosedRange<Int>) {
    let first = lines.count + 1
    let location = event.call.location
    lines.append(indent + "# " + YAMLText.comment("\(location.file):\(location.line): \(event.call.origin)"))
    let keyText = StarterConfig.quoted(key)
    // A screen call is named after the screen unless it says otherwise; a track call after the ID.
    let isScreenCall = event.slot == .page(.enter) && !event.sendsTrackCall
    let defaultName = isScreenCall ? event.screen : event.eventID
    if event.wireName == defaultName && event.properties.isEmpty && !event.sendsTrackCall {
      lines.append(indent + keyText + ": " + event.eventID)
    } else {
      lines.append(indent + keyText + ":")
      lines.append(indent + "  event: " + event.eventID)
      if event.wireName != defaultName { lines.append(indent + "  wire_name: " + YAMLText.scalar(event.wireName)) }
      if event.sendsTrackCall { lines.append(indent + "  call: track") }
      if !event.properties.isEmpty {
        lines.append(indent + "  properties:")
        for (name, value) in event.properties {
          lines.append(indent + "    " + YAMLText.scalar(name) + ": " + YAMLText.value(value))
        }
      }
    }
    range = first...lines.count
  }
}

/// YAML text for what `trackc adopt` writes: names from the code become scalars that mean exactly them.
enum YAMLText {
  /// Plain when it is a word of ASCII letters, digits, `_` and inner `.`, `-` or spaces that YAML reads
  /// as that string (not `true`, `null`, `0x1`, ...); otherwise double-quoted (a JSON string, which is a
  /// YAML double-quoted scalar, every control and invisible character escaped).
  static func scalar(_ text: String) -> String {
    let scalars = text.unicodeScalars
    let plain =
      !text.isEmpty && scalars.first.map { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "_" } == true
      && scalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "_.-".unicodeScalars.contains($0) }
      && !reserved.contains(text.lowercased())
    if plain { return text }
    var quoted = ""
    for scalar in scalars {
      switch scalar {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      case "\n": quoted += "\\n"
      case "\t": quoted += "\\t"
      case "\r": quoted += "\\r"
      default:
        if TextEscaping.isInvisible(scalar) || scalar.value == 0xFEFF {
          quoted += scalar.value <= 0xFFFF ? "\\u" + hex(scalar.value, width: 4) : "\\U" + hex(scalar.value, width: 8)
        } else {
          quoted.unicodeScalars.append(scalar)
        }
      }
    }
    return "\"" + quoted + "\""
  }

  /// Words YAML 1.1 or 1.2 reads as something other than a string.
  private static let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "nan", "inf"]

  static func value(_ value: AdoptedEvent.Value) -> String {
    switch value {
    case .string(let text): return scalar(text)
    case .number(let text): return text
    case .bool(let flag): return flag ? "true" : "false"
    case .binding(let path): return "{from: " + scalar(path) + "}"
    }
  }

  /// Text for a comment: one line, nothing invisible.
  static func comment(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { TextEscaping.isInvisible($0) ? "?" : $0 }))
  }

  private static func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
