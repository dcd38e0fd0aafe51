import SwiftParser
import SwiftSyntax

/// `trackc adopt`: finds an app's analytics calls, maps those trackc can intercept to a plan's events,
/// writes the plan (checked by `trackc lint`) and reports every call it leaves, with the reason.
public enum Adopter {
  public struct Options: Sendable {
    /// The SDKs' calls and the app's wrappers; by default the SDKs'.
    public var patterns: [CallPattern] = CallPattern.sdks
    /// The enum whose cases name events, when the app's wrapper takes one (otherwise the only enum of
    /// the sources with the case a call names).
    public var eventEnum: String?
    /// The enum's property whose `switch` gives each case's name (otherwise `name` or `eventName` when
    /// it has one that switches over its cases, else the raw value).
    public var nameProperty: String?
    public var nameCase = EventNameTable.NameCase.asWritten
    /// Base classes of the screens (default: every view controller).
    public var bases: [String] = []
    public var interception = TrackingConfig.Interception.default
    /// The source paths as the plan names them (relative to the plan).
    public var planSources: [String] = []
    /// Where the plan is written (the path lint's findings name).
    public var planPath = "tracking.yaml"
    /// The plan at `planPath`, when it exists and is added to rather than replaced: its entries, comments
    /// and layout stay, the events it lacks go in, and a call it already plans is mapped to its event.
    public var existingPlan: AdoptExistingPlan?
    public var scan = ScanOptions()
    /// Lint the plan against the sources, and leave in the code each call whose entry lint refuses
    /// (`adopt-lint-refused`); off, the plan is written as mapped, unchecked.
    public var checksPlan = true
    /// Called with each phase's name and duration (`--timings`).
    public var phaseObserver: (@Sendable (String, Duration) -> Void)?

    public init() {}
  }

  public struct Result: Sendable {
    public var calls: [AnalyticsCall]
    /// The events of the plan, each from one call.
    public var events: [AdoptedEvent]
    /// The plan's text.
    public var plan: String
    /// A warning for every call left in the code (its rule says why), and the sources' problems.
    public var diagnostics: [Diagnostic]
    /// Each file scanned, with a hash of the content the calls were read from (`CallRemover` refuses a
    /// file whose content has changed since).
    public var fileHashes: [String: String]
    public var fileCount: Int
    /// Paths of `--sources` the existing plan's `sources` list lacks and could not be given (a list not
    /// written as one, a single path): `trackc lint` checks the new entries against them once added.
    public var sourcesNotAdded: [String] = []

    public var mappedCount: Int { events.count }
    public var alreadyPlannedCount: Int { events.count { $0.alreadyPlanned } }
    public var leftCount: Int { calls.count - events.count }

    /// `found 12 calls in 3 files: 7 mapped to events, 5 left (3 adopt-call-in-closure, 2 adopt-not-a-screen)`.
    public var summary: String {
      let counts = counts
      let reasons = counts.leftByReason.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.value) \($0.key)" }
      let files = Set(calls.map(\.location.file)).count
      let planned = counts.alreadyPlanned > 0 ? " (\(counts.alreadyPlanned) already in the plan)" : ""
      return
        "found \(calls.count) call\(calls.count == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s"): \(mappedCount) mapped to events\(planned), "
        + "\(leftCount) left" + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: ", ") + ")")
    }

    /// Per file: calls found, mapped and left, in path order.
    public var perFile: [(file: String, found: Int, mapped: Int)] {
      var found: [String: Int] = [:]
      var mapped: [String: Int] = [:]
      for call in calls { found[call.location.file, default: 0] += 1 }
      for event in events { mapped[event.call.location.file, default: 0] += 1 }
      return found.keys.sorted(by: UTF8Order.less).map { ($0, found[$0] ?? 0, mapped[$0] ?? 0) }
    }
  }

  private struct SlotKey: Hashable {
    var screen: String
    var slot: AdoptedEvent.Slot
  }

  /// The Swift files' bytes, in path order (a file too large or unreadable is left to the scan to report).
  private static func read(_ sources: SwiftSourceSet, maxBytes: Int) -> [(path: String, bytes: [UInt8])] {
    switch sources {
    case .paths(let paths):
      var finder = SwiftFileFinder()
      for path in paths { finder.add(path) }
      return finder.files.compactMap { file in
        guard Int(file.stamp.size) <= maxBytes, let read = try? ConfigSource.read(path: file.path, maxBytes: maxBytes) else { return nil }
        return (file.path, Array(read.input.buffer))
      }
    case .files(let given):
      return given.sorted { UTF8Order.less($0.path, $1.path) }.map { ($0.path, Array($0.text.utf8)) }
    }
  }

  public static func adopt(_ sources: SwiftSourceSet, options: Options) -> Result {
    var clock = PhaseClock(observer: options.phaseObserver)
    var diagnostics: [Diagnostic] = []
    // The declarations first: the scan parses in worker processes (the command line's default), so a
    // file that crashes swift-syntax's parser or takes it past the time limit (nested brackets take it
    // exponential time) is reported and left out, here as there, rather than ending or hanging the run.
    let scanned = SourceScanner.scan(sources, options: options.scan)
    diagnostics += scanned.diagnostics
    clock.lap("scan the declarations")
    let files = read(sources, maxBytes: options.scan.maxFileBytes).filter { !scanned.unreadFiles.contains($0.path) }
    clock.lap("read \(files.count) Swift files")
    // Parse every file once, on all cores: the names first (enums, constants), then the calls.
    let parsed = Parallel.map(files.count) { position in
      let tree = files[position].bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
      var names = EventNameTable()
      names.add(tree)
      return (tree: tree, names: names, hash: files[position].bytes.withUnsafeBufferPointer { ContentHash.of($0) })
    }
    var names = EventNameTable()
    for file in parsed { names.merge(file.names) }
    var hashes: [String: String] = [:]
    for (file, parse) in zip(files, parsed) { hashes[file.path] = parse.hash }
    clock.lap("parse and read the event names")
    let settings = CallFinder.Settings(
      patterns: options.patterns, names: names, eventEnum: options.eventEnum, nameProperty: options.nameProperty, nameCase: options.nameCase)
    let calls = Parallel.map(files.count) { position in
      files[position].bytes.withUnsafeBufferPointer { bytes in
        CallFinder.calls(in: parsed[position].tree, file: files[position].path, lines: LineTable(bytes), settings: settings)
      }
    }.flatMap { $0 }
    clock.lap("find \(calls.count) calls")

    // Map what can be mapped; the rest stays, with its reason.
    let mapper = AdoptMapper(index: CodeIndex(scanned.registry), bases: options.bases, interception: options.interception)
    // A file swift-syntax could not parse whole is read as it recovered: taking a statement out of it
    // can change how the rest reads (found by fuzzing), so its calls stay.
    let invalid = Set(files.indices.filter { parsed[$0].tree.hasError }.map { files[$0].path })
    var mapped: [AdoptedEvent] = []
    for call in calls {
      if invalid.contains(call.location.file) {
        diagnostics.append(
          Diagnostic(
            .warning, rule: AdoptReason.invalidSwift.rawValue,
            "this call is in a file that is not valid Swift to swift-syntax; trackc adopt takes no call out of it", at: call.location))
        continue
      }
      switch mapper.map(call) {
      case .mapped(let event): mapped.append(event)
      case .left(let reason, let message): diagnostics.append(Diagnostic(.warning, rule: reason.rawValue, message, at: call.location))
      }
    }
    // A handler or a page phase has one event: calls that would share one all stay.
    let slots = Dictionary(grouping: mapped.indices) { SlotKey(screen: mapped[$0].screen, slot: mapped[$0].slot) }
    var events: [AdoptedEvent] = []
    for event in mapped {
      let sharing = slots[SlotKey(screen: event.screen, slot: event.slot)]?.count ?? 1
      guard sharing > 1 else {
        events.append(event)
        continue
      }
      let function = event.call.function?.name ?? ""
      diagnostics.append(
        Diagnostic(
          .warning, rule: AdoptReason.severalCalls.rawValue,
          "this call is one of \(sharing) in '\(function)' that trackc could map; a handler or page phase has one event",
          at: event.call.location))
    }

    clock.lap("map the calls")
    // A plan that exists: where it already has the event a call sends, the call is mapped to it (and
    // `--fix` takes it out); where it has another, the call stays.
    if let existing = options.existingPlan {
      events = events.compactMap { event in
        guard let planned = existing.rule(at: event) else { return event }
        if let difference = existing.difference(from: event) {
          diagnostics.append(
            Diagnostic(.warning, rule: AdoptReason.alreadyPlanned.rawValue, difference + "; the call stays", at: event.call.location))
          return nil
        }
        var event = event
        event.alreadyPlanned = true
        event.eventID = planned.rule.id.value
        return event
      }
    }
    // The plan must lint clean: an entry lint refuses goes back to the code, with lint's message.
    var lintOptions = LintOptions()
    lintOptions.code = .sources(sources)
    lintOptions.scan = options.scan
    let takenIDs = options.existingPlan?.eventIDs ?? []
    var written = AdoptPlanWriter.Written(text: "", lines: [])
    var sourcesNotAdded: [String] = []
    var refused: [Int: (reason: AdoptReason, message: String)] = [:]
    for pass in 0...(options.checksPlan ? 4 : 0) {
      if !refused.isEmpty {
        for (index, refusal) in refused {
          diagnostics.append(Diagnostic(.warning, rule: refusal.reason.rawValue, refusal.message, at: events[index].call.location))
        }
        events = events.indices.filter { refused[$0] == nil }.map { events[$0] }
        refused = [:]
      }
      let fresh = events.indices.filter { !events[$0].alreadyPlanned }
      var freshEvents = fresh.map { events[$0] }
      AdoptPlanWriter.assignIDs(&freshEvents, taken: takenIDs)
      for (position, index) in fresh.enumerated() { events[index].eventID = freshEvents[position].eventID }
      if let existing = options.existingPlan {
        let merged = AdoptPlanMerger.merge(freshEvents, into: existing, sources: options.planSources)
        written = merged.written
        sourcesNotAdded = merged.sourcesNotAdded
        for (position, why) in merged.unplaced { refused[fresh[position]] = (.planLayout, why) }
      } else {
        let summary = "\(calls.count) calls found, \(events.count) mapped"
        written = AdoptPlanWriter.newPlan(freshEvents, sources: options.planSources, interception: options.interception, summary: summary)
      }
      guard options.checksPlan, pass < 4 else { break }
      guard refused.isEmpty else { continue }
      let source = ConfigSource(path: options.planPath, text: written.text)
      let lint = Linter.lint(source, options: lintOptions)
      clock.lap("lint the plan")
      // A finding in an entry is its event's; on a screen's or a section's key, its events'. A new plan
      // has no other lines of events, so a finding elsewhere refuses them all: the plan lints clean.
      var elsewhere: Diagnostic?
      for error in lint.diagnostics where error.severity == .error && error.location.file == options.planPath {
        let line = error.location.line
        let refusal = (AdoptReason.lintRefused, "its plan entry does not pass lint: \(error.message) [\(error.ruleID)]")
        if let position = written.lines.firstIndex(where: { $0.contains(line) }) {
          if refused[fresh[position]] == nil { refused[fresh[position]] = refusal }
        } else if let header = written.headers.first(where: { $0.line == line }) {
          for position in header.events where refused[fresh[position]] == nil { refused[fresh[position]] = refusal }
        } else if options.existingPlan == nil {
          elsewhere = elsewhere ?? error
        }
      }
      if refused.isEmpty, let error = elsewhere {
        for index in fresh { refused[index] = (.lintRefused, "the plan written with it does not pass lint: \(error.message) [\(error.ruleID)]") }
      }
      if let existing = options.existingPlan, refused.isEmpty {
        for (position, why) in AdoptPlanMerger.readBack(freshEvents, in: lint.plan, adding: existing) {
          refused[fresh[position]] = (.planLayout, why)
        }
      }
      if refused.isEmpty { break }
    }
    // Events the last pass found no place for are not in its text.
    for (index, refusal) in refused {
      diagnostics.append(Diagnostic(.warning, rule: refusal.reason.rawValue, refusal.message, at: events[index].call.location))
    }
    events = events.indices.filter { refused[$0] == nil }.map { events[$0] }
    return Result(
      calls: calls, events: events, plan: written.text, diagnostics: diagnostics.sorted(by: Diagnostic.presentationOrder), fileHashes: hashes,
      fileCount: max(files.count, scanned.fileCount), sourcesNotAdded: sourcesNotAdded)
  }
}
