import SwiftParser
import SwiftSyntax
import TrackcCore

/// `trackc adopt` on one Swift file: the call finder, the mapper, the plan writer and the rewrite.
extension Invariants {
  /// The path the fuzzed file is adopted from.
  public static let adoptSourcePath = "Sources/App/Fuzzed.swift"

  /// The wrappers of the apps `trackc adopt` was measured on, and a per-event one, beside the SDKs' calls.
  /// A file starting with `// snake_case` sends raw values and case names in snake case.
  /// swift-syntax's parser takes time exponential in the depth of brackets nested in a type
  /// (`let x: [[[[…`, twice as long with each): the command line parses in worker processes with a time
  /// limit, and reports such a file and leaves it out (`AdoptCommandTests.aFileTheParserHangsOnIsReportedAndLeftOut`),
  /// which a target parsing in its own process cannot. It leaves out inputs nesting `[` or `(` deeper
  /// than this, so that its timeouts are trackc's.
  public static let maxFuzzedBracketDepth = 12

  public static func nestsBracketsTooDeeply(_ bytes: [UInt8]) -> Bool {
    var square = 0
    var round = 0
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "["): square += 1
      case UInt8(ascii: "]"): square = max(0, square - 1)
      case UInt8(ascii: "("): round += 1
      case UInt8(ascii: ")"): round = max(0, round - 1)
      default: continue
      }
      if square > maxFuzzedBracketDepth || round > maxFuzzedBracketDepth { return true }
    }
    return false
  }

  public static func adoptOptions(for text: String) -> Adopter.Options {
    var options = Adopter.Options()
    let wrappers = [
      "Analytics.track(_:properties:)", "Analytics.track(_:story:)", "Pixel.fire(pixel:withAdditionalParameters:)",
      "trackCheckoutTapped(total:)=Checkout Tapped",
    ]
    options.patterns = wrappers.compactMap { try? CallPattern.wrapper($0).get() } + CallPattern.sdks
    options.nameCase = text.hasPrefix("// snake_case") ? .snakeCase : .asWritten
    options.planSources = ["Sources"]
    options.planPath = configPath
    options.scan = ScanOptions(useCache: false)
    return options
  }

  /// For any file:
  /// - the plan `adopt` writes lints clean against the file, and means what the calls sent: each event's
  ///   ID, wire name, call, property keys and values read back from the YAML as they were in the call
  ///   (no name or key can add a key, end a mapping or change a value's type), and its generated Swift
  ///   keeps the `generate` laws;
  /// - every call found is either an event of the plan or reported with an `adopt-` rule, at its line;
  /// - the rewrite takes out only the mapped statements: every byte it removes is in one of their
  ///   ranges or is a blank, `;` or line break beside one; the calls it leaves are found again, the same
  ///   and in the same order; a file that parsed without errors still does; and a changed file is refused.
  public static func adoptViolations(_ bytes: [UInt8]) -> [String] {
    let text = String(decoding: bytes, as: UTF8.self)
    let source = Array(text.utf8)
    let options = adoptOptions(for: text)
    let result = Adopter.adopt(.files([(adoptSourcePath, text)]), options: options)
    var violations: [String] = []

    // Every call is accounted for.
    let reported = result.diagnostics.filter { $0.ruleID.hasPrefix("adopt-") }
    if result.events.count + reported.count != result.calls.count {
      violations.append("\(result.calls.count) calls found, \(result.events.count) mapped and \(reported.count) reported")
    }
    for diagnostic in reported where !result.calls.contains(where: { $0.location.line == diagnostic.location.line }) {
      violations.append("'\(diagnostic.ruleID)' at line \(diagnostic.location.line), where no call was found")
    }

    // The plan lints clean and reads back as the calls.
    var lintOptions = LintOptions()
    lintOptions.code = .sources(.files([(adoptSourcePath, text)]))
    lintOptions.scan = options.scan
    let lint = Linter.lint(ConfigSource(path: configPath, text: result.plan), options: lintOptions)
    for error in lint.diagnostics where error.severity == .error {
      violations.append("the plan does not lint clean: \(error.location.line):\(error.location.column): \(error.message) [\(error.ruleID)]")
    }
    if let config = lint.config {
      violations += planReadBackViolations(result.events, config: config)
      violations += generatedCodeViolations(lint)
    } else {
      violations.append("the plan could not be read")
    }

    // The rewrite.
    guard let hash = result.fileHashes[adoptSourcePath] else { return violations + ["no hash was recorded for the file"] }
    let removals = result.events.compactMap(\.call.removal)
    switch CallRemover.remove(removals, from: source, file: adoptSourcePath, expectedHash: hash) {
    case .failure(let refusal): violations.append("the rewrite refused the file it scanned: \(refusal)")
    case .success(let rewritten):
      violations += rewriteViolations(source, rewritten, removals: removals, result: result, options: options)
    }
    if case .success = CallRemover.remove(removals, from: source + Array("\n".utf8), file: adoptSourcePath, expectedHash: hash) {
      violations.append("the rewrite took calls out of a file changed since the scan")
    }
    return violations
  }

  /// Each event of the plan, read back from the YAML, is the one the call gave.
  public static func planReadBackViolations(_ events: [AdoptedEvent], config: TrackingConfig) -> [String] {
    var violations: [String] = []
    for event in events {
      guard let screen = config.screens.first(where: { $0.name.value == event.screen }) else {
        violations.append("screen '\(event.screen)' is not in the plan")
        continue
      }
      let rule: TrackingConfig.EventRule?
      let isEnter: Bool
      switch event.slot {
      case .page(let phase):
        rule = screen.pageEvents.first { $0.phase.value == phase }?.event
        isEnter = phase == .enter
      case .control(let handler):
        rule = screen.controlEvents.first { $0.key.value == handler }?.event
        isEnter = false
      }
      guard let rule else {
        violations.append("the event of '\(event.screen)' \(event.slot) is not in the plan")
        continue
      }
      if rule.id.value != event.eventID { violations.append("event '\(event.eventID)' reads back as '\(rule.id.value)'") }
      let call = TrackingConfig.Call.of(rule, isEnter: isEnter)
      let sent = rule.wireName?.value ?? (call == .screen ? event.screen : rule.id.value)
      if sent != event.wireName { violations.append("the call sent '\(event.wireName)', the plan sends '\(sent)'") }
      if (call == .track) != (event.sendsTrackCall || !isEnter) { violations.append("event '\(event.eventID)' goes as a \(call) call") }
      let keys = rule.properties.map(\.key.value)
      if keys != event.properties.map(\.key) { violations.append("the properties \(event.properties.map(\.key)) read back as \(keys)") }
      for (property, written) in zip(rule.properties, event.properties) {
        let readBack: AdoptedEvent.Value?
        switch (property.value, property.binding?.source?.value) {
        case (.string(let text)?, _): readBack = .string(text)
        case (.bool(let flag)?, _): readBack = .bool(flag)
        case (.int(let number)?, _): readBack = sameNumber(Double(number), written.value)
        case (.double(let number)?, _): readBack = sameNumber(number, written.value)
        case (nil, let path?): readBack = .binding(path)
        default: readBack = nil
        }
        if readBack != written.value {
          violations.append("property '\(written.key)': \(written.value) reads back as \(String(describing: readBack))")
        }
      }
    }
    return violations
  }

  /// The number written, when `value` is a number literal of the same value.
  static func sameNumber(_ number: Double, _ value: AdoptedEvent.Value) -> AdoptedEvent.Value? {
    guard case .number(let text) = value, Double(text) == number else { return nil }
    return value
  }

  /// What the rewrite removed is the mapped statements' own text, and what it left still means the same.
  public static func rewriteViolations(
    _ source: [UInt8], _ rewritten: [UInt8], removals: [AnalyticsCall.Removal], result: Adopter.Result, options: Adopter.Options
  ) -> [String] {
    var violations: [String] = []
    // Align the two: `rewritten` is `source` with ranges cut, each byte cut inside a statement's range or
    // a blank, `;` or line break.
    var statements = [Bool](repeating: false, count: source.count)
    for range in removals.flatMap(\.statements) where range.lowerBound >= 0 && range.upperBound <= source.count {
      for index in range { statements[index] = true }
    }
    let separators: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ";")]
    var kept = 0
    for (index, byte) in source.enumerated() {
      if kept < rewritten.count, rewritten[kept] == byte, !statements[index] {
        kept += 1
      } else if !statements[index] && !separators.contains(byte) {
        violations.append("the rewrite removed byte \(index) ('\(Unicode.Scalar(byte))'), outside every mapped statement")
        break
      }
    }
    if kept != rewritten.count {
      violations.append("the rewrite is not the file with the statements cut (\(kept) of \(rewritten.count) bytes aligned)")
    }

    // The calls left are found again, as they were.
    let text = String(decoding: rewritten, as: UTF8.self)
    var again = options
    again.checksPlan = false
    let after = Adopter.adopt(.files([(adoptSourcePath, text)]), options: again)
    // (Compared by what each call is, not where: the lines after a removed statement move up.)
    func what(_ call: AnalyticsCall) -> String { "\(call.origin) \(call.name) \(call.extraArguments)" }
    let removed = Set(result.events.map(\.call.location))
    let left = result.calls.filter { !removed.contains($0.location) }.map(what)
    if after.calls.map(what) != left {
      violations.append("the calls left are not found again: \(left.count) left, \(after.calls.count) found after the rewrite")
    }
    let parsedBefore = source.withUnsafeBufferPointer { Parser.parse(source: $0) }
    let parsedAfter = rewritten.withUnsafeBufferPointer { Parser.parse(source: $0) }
    if !parsedBefore.hasError && parsedAfter.hasError { violations.append("the file parsed without errors before the rewrite, not after") }
    return violations
  }
}
