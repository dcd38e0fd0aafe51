/// A plan that exists, which `trackc adopt` adds to rather than replaces.
public struct AdoptExistingPlan: Sendable {
  /// Why a plan cannot be added to: lint's errors, or that its root is not a block mapping.
  public struct Unreadable: Error, Sendable {
    public var diagnostics: [Diagnostic]
  }

  let bytes: [UInt8]
  let document: YAMLDocument
  let root: YAMLNodeID
  let plan: ResolvedPlan

  /// Reads the plan; its errors when it cannot be added to (YAML that does not parse, a root that is
  /// not a mapping). A plan with other lint findings is added to: they are its own, and stay.
  public static func read(_ source: ConfigSource, yamlLimits: YAMLLimits = YAMLLimits()) -> Result<AdoptExistingPlan, Unreadable> {
    var options = LintOptions(yamlLimits: yamlLimits)
    options.readsCode = false
    let lint = Linter.lint(source, options: options)
    let parsed = YAMLParser.parse(source.input, limits: yamlLimits)
    let errors = lint.diagnostics.filter { $0.severity == .error }
    guard let document = parsed.document, !parsed.failed, parsed.problems.isEmpty, let root = document.root, let plan = lint.plan else {
      return .failure(Unreadable(diagnostics: errors.isEmpty ? [notAMapping(source.path)] : errors))
    }
    let bytes = Array(source.input.buffer)
    guard document.kind(root) == .mapping, AdoptPlanMerger.isBlock(root, document, bytes, TextPositions(bytes)) else {
      return .failure(Unreadable(diagnostics: [notAMapping(source.path)]))
    }
    return .success(AdoptExistingPlan(bytes: bytes, document: document, root: root, plan: plan))
  }

  private static func notAMapping(_ path: String) -> Diagnostic {
    Diagnostic(
      .error, rule: "adopt-plan-unreadable",
      "the plan is not a mapping written a key per line, so trackc adopt cannot add to it; use --force to replace it",
      at: SourceLocation(file: path, line: 1, column: 1))
  }

  /// How the plan intercepts, which decides what a handler can be.
  public var interception: TrackingConfig.Interception { plan.interception }

  /// Every event ID of the plan: a new event's ID is none of them.
  public var eventIDs: Set<String> { plan.eventIDs }

  /// What the plan already has where `event` would go, with whether that is a page's enter event.
  func rule(at event: AdoptedEvent) -> (rule: TrackingConfig.EventRule, isEnter: Bool)? { plan.rule(at: event) }

  /// Why the plan's event where `event` would go does not send what the call sends; nil when it does (the
  /// same call, name and property names), so that taking the call out loses and renames nothing.
  func difference(from event: AdoptedEvent) -> String? {
    guard let (rule, isEnter) = rule(at: event) else { return nil }
    let what = "the plan already has \(rule.id.value) for '\(event.slotKey)' of '\(event.screen)'"
    let call = TrackingConfig.Call.of(rule, isEnter: isEnter)
    let sends: TrackingConfig.Call = event.slot == .page(.enter) && !event.sendsTrackCall ? .screen : .track
    guard call == sends else { return "\(what), which goes as a \(call.rawValue) call; this call is a \(sends.rawValue) call" }
    let name = rule.wireName?.value ?? (call == .screen ? plan.screen(named: event.screen)?.name.value ?? event.screen : rule.id.value)
    guard name == event.wireName else { return "\(what), which sends '\(name)'; this call sends '\(event.wireName)'" }
    let keys = Set(rule.properties.map(\.key.value))
    if let missing = event.properties.first(where: { !keys.contains($0.key) }) {
      return "\(what), which does not send the property '\(missing.key)' this call sends"
    }
    return nil
  }
}

extension ResolvedPlan {
  /// Every event ID of the plan.
  fileprivate var eventIDs: Set<String> { Set(events.map { written($0).id.value }) }

  /// The screen `name` (as `trackc adopt` names it: the class, or `Module.Class`).
  fileprivate func screen(named name: String) -> TrackingConfig.Screen? {
    let screens = config.screens
    if let exact = screens.first(where: { $0.name.value == name }) { return exact }
    let bySimpleName = screens.filter { (try? $0.typeName.get())?.simpleName == name }
    return bySimpleName.count == 1 ? bySimpleName[0] : nil
  }

  /// The event where `event` would go, with whether that is a page's enter event.
  fileprivate func rule(at event: AdoptedEvent) -> (rule: TrackingConfig.EventRule, isEnter: Bool)? {
    guard let screen = screen(named: event.screen) else { return nil }
    switch event.slot {
    case .page(let phase):
      return screen.pageEvents.first { $0.phase.value == phase }.map { ($0.event, phase == .enter) }
    case .control(let handler):
      let control = screen.controlEvents.first { $0.key.value == handler || (try? $0.handler.get())?.canonical == handler }
      return control.map { ($0.event, false) }
    }
  }
}

/// Adds the events `trackc adopt` mapped to a plan that exists, as text: each entry goes where it belongs
/// (the screen's section, a new section of the screen, a new screen), and every other byte stays as it
/// was, comments, quoting and key order included. The YAML is never re-serialised (as `trackc lint --fix`
/// does not): entries go in as lines after the last line of the mapping they join, at its indentation.
/// A mapping written in flow style (`{onBuy: BUY}`) takes none; its events stay in the code.
enum AdoptPlanMerger {
  struct Merged {
    var written: AdoptPlanWriter.Written
    /// The events that have no place in the plan's text, and why.
    var unplaced: [Int: String]
    /// Source paths adopt read that the plan's `sources` neither names nor could be given.
    var sourcesNotAdded: [String]
  }

  /// Lines inserted at a line's start, or bytes taken out (an empty `{}` or `~` the new lines replace).
  /// How deep new lines go: whole screens, a screen's sections, a section's entries.
  private enum Level {
    case screens, sections, entries
  }

  private struct Edit {
    var offset: Int
    var removing: Range<Int>? = nil
    /// Text inside a line (a `sources` flow list's new items), not lines of its own.
    var isInline = false
    var indent = 0
    var lines: [String] = []
    /// Each event's lines, 1-based within `lines`.
    var events: [(index: Int, lines: ClosedRange<Int>)] = []
    /// The lines written for several of them (a screen's key, a section's), 1-based within `lines`.
    var headers: [AdoptPlanWriter.Header] = []
    /// Given by `add`, in the order the edits were made: the last tie-break at one offset.
    var order = 0
  }

  private struct Layout {
    let document: YAMLDocument
    let bytes: [UInt8]
    let positions: TextPositions

    func offset(_ position: SourcePosition) -> Int { positions.offset(of: position) ?? bytes.count }
    /// The byte offset where the line after `line` starts (the end of the text after its last line).
    func start(ofLineAfter line: Int) -> Int { line < positions.lineStarts.count ? positions.lineStarts[line] : bytes.count }
    func indent(of node: YAMLNodeID) -> Int { document.range(node).start.column - 1 }
    func isBlock(_ node: YAMLNodeID) -> Bool { AdoptPlanMerger.isBlock(node, document, bytes, positions) }
    func isEmptyMapping(_ node: YAMLNodeID) -> Bool {
      document.kind(node) == .mapping ? document.pairs(node).isEmpty : document.kind(node) == .scalar && document.isNull(node)
    }
    func pair(_ key: String, in mapping: YAMLNodeID) -> YAMLPair? {
      guard document.kind(mapping) == .mapping else { return nil }
      return document.pairs(mapping).first { document.stringValue($0.key) == key }
    }

    /// The last line a node's text takes (a block collection ends where its last entry does, not at the
    /// next key its end mark points at).
    func lastLine(_ node: YAMLNodeID) -> Int {
      switch document.kind(node) {
      case .mapping where isBlock(node):
        if let last = document.pairs(node).last { return max(lastLine(last.value), document.range(last.key).end.line) }
      case .sequence where isBlock(node):
        if let last = document.items(node).last { return lastLine(last) }
      default: break
      }
      let range = document.range(node)
      // A block scalar (`|`) ends at the start of the line after it.
      return range.end.column == 1 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line
    }

    /// The bytes of an empty value (`{}`, `~`) and the spaces before it, which new lines under its key replace.
    func removal(_ value: YAMLNodeID) -> Range<Int>? {
      let range = document.range(value)
      var start = offset(range.start)
      let end = offset(range.end)
      // An empty null spans no text of its own (libyaml may place it anywhere up to the next token).
      guard start < end, range.start.line == range.end.line,
        bytes[start..<end].contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") })
      else { return nil }
      while start > 0, bytes[start - 1] == UInt8(ascii: " ") || bytes[start - 1] == UInt8(ascii: "\t") { start -= 1 }
      return start..<end
    }
  }

  /// Written a key (or an item) per line: its text does not start with a bracket.
  static func isBlock(_ node: YAMLNodeID, _ document: YAMLDocument, _ bytes: [UInt8], _ positions: TextPositions) -> Bool {
    guard let offset = positions.offset(of: document.range(node).start), offset < bytes.count else { return true }
    return bytes[offset] != UInt8(ascii: "{") && bytes[offset] != UInt8(ascii: "[")
  }

  static func merge(_ events: [AdoptedEvent], into plan: AdoptExistingPlan, sources: [String]) -> Merged {
    let bytes = plan.bytes
    let positions = TextPositions(bytes)
    let lineBreak = bytes.firstIndex(of: 0x0A).map { $0 > 0 && bytes[$0 - 1] == 0x0D } == true ? "\r\n" : "\n"
    let layout = Layout(document: plan.document, bytes: bytes, positions: positions)
    let document = plan.document
    var edits: [Edit] = []
    var unplaced: [Int: String] = [:]
    var order = 0
    func add(_ edit: Edit) {
      var edit = edit
      edit.order = order
      order += 1
      edits.append(edit)
    }
    /// The lines of `indices` at `indent`, as a new plan writes them: whole screens, a screen's
    /// sections, or one section's entries.
    func lines(_ indices: [Int], as level: Level, indent: Int) -> Edit {
      var lines: [String] = []
      var ranges = [ClosedRange<Int>](repeating: 0...0, count: events.count)
      var headers: [AdoptPlanWriter.Header] = []
      let pad = String(repeating: " ", count: indent)
      switch level {
      case .screens: AdoptPlanWriter.appendScreens(events, members: indices, to: &lines, indent: pad, ranges: &ranges, headers: &headers)
      case .sections: AdoptPlanWriter.appendSections(events, members: indices, to: &lines, indent: pad, ranges: &ranges, headers: &headers)
      case .entries: AdoptPlanWriter.appendEntries(events, members: indices, to: &lines, indent: pad, ranges: &ranges)
      }
      return Edit(offset: 0, indent: indent, lines: lines, events: indices.map { ($0, ranges[$0]) }, headers: headers)
    }
    /// `indices` into the value of `pair`: under its key when the value is empty (`{}`, `~` or nothing,
    /// which the lines replace), after its last entry at its entries' indentation when it is a mapping
    /// written a key per line; a flow mapping takes none (`what` names it in the reason).
    func place(_ indices: [Int], as level: Level, in pair: YAMLPair, what: String) {
      let value = pair.value
      var edit: Edit
      if layout.isEmptyMapping(value) {
        edit = lines(indices, as: level, indent: layout.indent(of: pair.key) + 2)
        edit.offset = layout.start(ofLineAfter: layout.lastLine(pair.key))
        edit.removing = layout.removal(value)
      } else if document.kind(value) == .mapping, layout.isBlock(value) {
        edit = lines(indices, as: level, indent: layout.indent(of: document.pairs(value)[0].key))
        edit.offset = layout.start(ofLineAfter: layout.lastLine(value))
      } else {
        for index in indices { unplaced[index] = "the plan writes \(what) in flow style; trackc adopt adds to mappings written a key per line" }
        return
      }
      add(edit)
    }

    let screensPair = layout.pair("screens", in: plan.root)
    let byScreen = Dictionary(grouping: events.indices, by: { events[$0].screen })
    var newScreens: [Int] = []
    for name in byScreen.keys.sorted(by: UTF8Order.less) {
      let members = byScreen[name] ?? []
      guard let screen = plan.plan.screen(named: name), let screensPair, document.kind(screensPair.value) == .mapping,
        let pair = document.pairs(screensPair.value).first(where: { document.range($0.key) == screen.name.range })
      else {
        newScreens += members
        continue
      }
      let what = "the screen '\(screen.name.value)'"
      guard document.kind(pair.value) == .mapping, layout.isBlock(pair.value), !layout.isEmptyMapping(pair.value) else {
        place(members, as: .sections, in: pair, what: what)
        continue
      }
      // Into the sections it has; the others as new sections of it.
      var newSections: [Int] = []
      for section in ["page_events", "control_events"] {
        let inSection = members.filter { (section == "page_events") == events[$0].isPageEvent }
        guard !inSection.isEmpty else { continue }
        if let sectionPair = layout.pair(section, in: pair.value) {
          place(inSection, as: .entries, in: sectionPair, what: "'\(section)' of '\(screen.name.value)'")
        } else {
          newSections += inSection
        }
      }
      if !newSections.isEmpty { place(newSections, as: .sections, in: pair, what: what) }
    }

    if !newScreens.isEmpty {
      if let screensPair {
        place(newScreens, as: .screens, in: screensPair, what: "'screens'")
      } else {
        // No `screens` key: one at the end, at the top level's indentation.
        let topIndent = layout.indent(of: document.pairs(plan.root)[0].key)
        let screens = lines(newScreens, as: .screens, indent: topIndent + 2)
        add(
          Edit(
            offset: bytes.count, indent: -1, lines: ["", String(repeating: " ", count: topIndent) + "screens:"] + screens.lines,
            events: screens.events.map { ($0.0, ($0.1.lowerBound + 2)...($0.1.upperBound + 2)) },
            headers: [AdoptPlanWriter.Header(line: 2, events: newScreens)]
              + screens.headers.map { AdoptPlanWriter.Header(line: $0.line + 2, events: $0.events) }))
      }
    }

    // The sources adopt read, where the plan's `sources` list lacks them and the new entries are checked
    // against them.
    var sourcesNotAdded: [String] = []
    if edits.contains(where: { !$0.events.isEmpty }), let listed = plan.plan.config.sources {
      let missing = sources.filter { source in !listed.contains { $0.value == source } }
      if !missing.isEmpty, let pair = layout.pair("sources", in: plan.root) {
        let value = pair.value
        let quoted = missing.map(YAMLText.scalar)
        if document.kind(value) == .sequence, layout.isBlock(value), let last = document.items(value).last {
          // The dash's column: the item starts after it.
          var dash = layout.offset(document.range(last).start)
          while dash > 0, bytes[dash - 1] != UInt8(ascii: "-") { dash -= 1 }
          let column = positions.position(of: max(dash - 1, 0)).column - 1
          add(
            Edit(
              offset: layout.start(ofLineAfter: layout.lastLine(value)), indent: column,
              lines: quoted.map { String(repeating: " ", count: column) + "- " + $0 }))
        } else if document.kind(value) == .sequence, !layout.isBlock(value), document.range(value).start.line == document.range(value).end.line {
          let close = layout.offset(document.range(value).end) - 1
          let text = (document.items(value).isEmpty ? "" : ", ") + quoted.joined(separator: ", ")
          add(Edit(offset: close, isInline: true, lines: [text]))
        } else {
          sourcesNotAdded = missing
        }
      } else {
        sourcesNotAdded = missing
      }
    }

    return Merged(
      written: apply(edits, to: bytes, lineBreak: lineBreak, eventCount: events.count), unplaced: unplaced, sourcesNotAdded: sourcesNotAdded)
  }

  /// The events whose entries do not read back from the merged text at their places with their IDs, and
  /// why; every event when the plan's own entries do not all read back (an alias or merge key the new
  /// lines joined). The merged plan must mean the old one plus the new events, nothing else.
  static func readBack(_ events: [AdoptedEvent], in merged: ResolvedPlan?, adding existing: AdoptExistingPlan) -> [Int: String] {
    let everything = { (why: String) in Dictionary(uniqueKeysWithValues: events.indices.map { ($0, why) }) }
    guard let plan = merged else {
      return everything("the plan with its entry added does not read as YAML the way it is written (an alias, a merge key, a flow mapping)")
    }
    guard existing.eventIDs.isSubset(of: plan.eventIDs), plan.eventIDs.count == existing.eventIDs.count + events.count else {
      return everything("adding its entry to the plan's text would change the plan's own entries (an alias, a merge key)")
    }
    var unread: [Int: String] = [:]
    for (index, event) in events.enumerated() where plan.rule(at: event)?.rule.id.value != event.eventID {
      unread[index] = "its entry, added to the plan's text, does not read back at its place (an alias, a merge key)"
    }
    return unread
  }

  /// The text with the edits made, and the lines each event's entry takes in it.
  private static func apply(_ edits: [Edit], to bytes: [UInt8], lineBreak: String, eventCount: Int) -> AdoptPlanWriter.Written {
    // At one offset, the deeper entries first: a screen's control events before a new section of it,
    // before a new screen.
    let sorted = edits.sorted { ($0.offset, -$0.indent, $0.order) < ($1.offset, -$1.indent, $1.order) }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.utf8.count + 2 } })
    var ranges = [ClosedRange<Int>](repeating: 0...0, count: eventCount)
    var headers: [AdoptPlanWriter.Header] = []
    var cursor = 0
    var lineBreaks = 0
    func copy(upTo end: Int) {
      guard end > cursor else { return }
      for byte in bytes[cursor..<end] where byte == 0x0A { lineBreaks += 1 }
      output += bytes[cursor..<end]
      cursor = end
    }
    for edit in sorted {
      if let removing = edit.removing {
        copy(upTo: removing.lowerBound)
        cursor = max(cursor, removing.upperBound)
      }
      copy(upTo: edit.offset)
      if edit.isInline {
        output += Array(edit.lines.joined().utf8)
        continue
      }
      if let last = output.last, last != 0x0A {
        output += Array(lineBreak.utf8)
        lineBreaks += 1
      }
      let first = lineBreaks + 1
      for (index, lines) in edit.events { ranges[index] = (first + lines.lowerBound - 1)...(first + lines.upperBound - 1) }
      headers += edit.headers.map { AdoptPlanWriter.Header(line: first + $0.line - 1, events: $0.events) }
      for line in edit.lines {
        output += Array(line.utf8)
        output += Array(lineBreak.utf8)
        lineBreaks += 1
      }
    }
    copy(upTo: bytes.count)
    return AdoptPlanWriter.Written(text: String(decoding: output, as: UTF8.self), lines: ranges, headers: headers)
  }
}
