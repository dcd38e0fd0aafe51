/// `trackc lint --fix`: applies the fix-its the rules compute to the config's bytes, and nothing else.
///
/// The YAML is never re-serialised: each replacement goes into the original bytes at its range (line and
/// column in Unicode scalars, converted to byte offsets), so comments, quoting, indentation and key
/// order stay as they were everywhere else. Only unambiguous fixes are applied: one fix for a range,
/// no two edits overlapping, a scalar written plainly or in quotes on one line (not with an anchor, a
/// tag or as a block). A replaced scalar keeps its quoting style.
///
/// The result is linted again before it is accepted: it must be as well-formed YAML as the original
/// (no new YAML error, such as a duplicate key a rename would make), keep every comment, and read each
/// replaced scalar back as exactly the intended value. When the fixes together fail that, they are
/// tried one at a time and only those that pass are kept. Fixing can reveal new findings with fixes
/// (a key renamed to `screens` is read, and its typos found), so it runs a few passes.
public enum ConfigFixer {
  public struct Result: Sendable {
    public var path: String
    public var original: [UInt8]
    /// The fixed bytes (equal to `original` when nothing was fixed).
    public var fixed: [UInt8]
    /// The findings whose fixes were applied.
    public var applied: [Diagnostic]
    /// Findings with a fix that was not applied, and why.
    public var skipped: [(diagnostic: Diagnostic, reason: String)]
    /// The lint result of the fixed bytes.
    public var remaining: LintResult

    public var changed: Bool { fixed != original }
  }

  /// At most this many passes (each fix can reveal findings with fixes of their own).
  static let maxPasses = 4
  /// At most this many fixes are tried one at a time when a pass's fixes fail together.
  static let maxSingleTries = 16

  public static func fix(_ source: ConfigSource, options: LintOptions = LintOptions()) -> Result {
    let original = Array(source.input.buffer)
    var current = original
    var lint = Linter.lint(source, options: options)
    var applied: [Diagnostic] = []
    // Fixes that failed, by what they say rather than where (positions move as fixes go in), so that a
    // later pass does not try them again.
    var failed: [Refusal: String] = [:]
    var planningSkips: [(Diagnostic, String)] = []
    for _ in 0..<maxPasses {
      var planned = plan(lint.diagnostics, in: current, path: source.path)
      planningSkips = planned.skipped
      planned.edits.removeAll { failed[Refusal($0.diagnostic)] != nil }
      guard !planned.edits.isEmpty else { break }
      let before = Snapshot(current, lint)
      if case .success(let result) = attempt(planned.edits, on: before, path: source.path, options: options) {
        applied += planned.edits.map(\.diagnostic)
        current = result.bytes
        lint = result.lint
        continue
      }
      // Together they fail: keep those that pass one at a time, each with the ones kept before it.
      var kept: [Edit] = []
      var accepted = before
      for (index, edit) in planned.edits.enumerated() {
        guard index < maxSingleTries else {
          failed[Refusal(edit.diagnostic)] = "not tried: too many fixes failed together"
          continue
        }
        switch attempt(kept + [edit], on: before, path: source.path, options: options) {
        case .success(let result):
          kept.append(edit)
          applied.append(edit.diagnostic)
          accepted = result
        case .failure(let rejection):
          failed[Refusal(edit.diagnostic)] = rejection.reason
        }
      }
      current = accepted.bytes
      lint = accepted.lint
      if kept.isEmpty { break }
    }
    // What is left with a fix, and why it was not applied.
    var skipped = planningSkips
    for diagnostic in lint.diagnostics where diagnostic.fixIt != nil {
      if let reason = failed[Refusal(diagnostic)] { skipped.append((diagnostic, reason)) }
    }
    skipped.sort { Diagnostic.presentationOrder($0.0, $1.0) }
    return Result(path: source.path, original: original, fixed: current, applied: applied, skipped: skipped, remaining: lint)
  }

  // MARK: Planning

  /// One replacement in the bytes.
  struct Edit: Sendable {
    var diagnostic: Diagnostic
    var bytes: Range<Int>
    var replacement: [UInt8]
    /// For a replaced scalar: the text it must read back as.
    var expectedText: String?
  }

  /// A fix by what it says: its rule, message and replacement.
  private struct Refusal: Hashable {
    var rule: String
    var message: String
    var replacement: String?
    init(_ diagnostic: Diagnostic) {
      rule = diagnostic.ruleID
      message = diagnostic.message
      replacement = diagnostic.fixIt?.replacement
    }
  }

  struct Snapshot {
    var bytes: [UInt8]
    var lint: LintResult
    init(_ bytes: [UInt8], _ lint: LintResult) {
      self.bytes = bytes
      self.lint = lint
    }
  }

  /// The edits to make for these findings, sorted by position, and the fixes left out and why.
  static func plan(_ diagnostics: [Diagnostic], in bytes: [UInt8], path: String) -> (edits: [Edit], skipped: [(Diagnostic, String)]) {
    let withFixes = diagnostics.filter { $0.fixIt != nil }
    guard !withFixes.isEmpty else { return ([], []) }
    let positions = TextPositions(bytes)
    let parsed = YAMLParser.parse(bytes)
    var scalars: [SourceRange: NodeRecord] = [:]
    if let document = parsed.document {
      for record in document.nodes where record.kind == .scalar { scalars[record.range] = record }
    }
    var skipped: [(Diagnostic, String)] = []
    var candidates: [Edit] = []
    for diagnostic in withFixes {
      let fixIt = diagnostic.fixIt!
      guard fixIt.range.file == path else {
        skipped.append((diagnostic, "the fix is in another file"))
        continue
      }
      guard let start = positions.offset(of: fixIt.range.range.start), let end = positions.offset(of: fixIt.range.range.end), start <= end
      else {
        skipped.append((diagnostic, "the fix's range is not in the file"))
        continue
      }
      if start == end {
        candidates.append(Edit(diagnostic: diagnostic, bytes: start..<end, replacement: Array(fixIt.replacement.utf8)))
        continue
      }
      guard let record = scalars[fixIt.range.range] else {
        skipped.append((diagnostic, "the fix does not replace one scalar"))
        continue
      }
      let written = Array(bytes[start..<end])
      guard let replacement = requoted(fixIt.replacement, like: written, style: record.style, text: scalarText(record, parsed.document!)) else {
        skipped.append((diagnostic, "the value is written with an anchor, a tag, over several lines or as a block"))
        continue
      }
      candidates.append(Edit(diagnostic: diagnostic, bytes: start..<end, replacement: replacement, expectedText: fixIt.replacement))
    }
    // One fix per range: two different fixes for one range are ambiguous (the same fix twice is one).
    var byRange: [Range<Int>: [Edit]] = [:]
    for edit in candidates { byRange[edit.bytes, default: []].append(edit) }
    var unique: [Edit] = []
    for (_, edits) in byRange {
      if Set(edits.map(\.replacement)).count == 1 {
        unique.append(edits.sorted { Diagnostic.presentationOrder($0.diagnostic, $1.diagnostic) }[0])
      } else {
        for edit in edits { skipped.append((edit.diagnostic, "another fix replaces the same text differently")) }
      }
    }
    unique.sort { ($0.bytes.lowerBound, $0.bytes.upperBound) < ($1.bytes.lowerBound, $1.bytes.upperBound) }
    // No overlaps (an insertion touching a replacement's edge overlaps it too).
    var edits: [Edit] = []
    var overlapping = Set<Int>()
    for index in unique.indices {
      for other in unique.indices where other > index {
        guard unique[other].bytes.lowerBound <= unique[index].bytes.upperBound else { break }
        if overlaps(unique[index].bytes, unique[other].bytes) {
          overlapping.insert(index)
          overlapping.insert(other)
        }
      }
    }
    for (index, edit) in unique.enumerated() {
      if overlapping.contains(index) {
        skipped.append((edit.diagnostic, "another fix overlaps it"))
      } else {
        edits.append(edit)
      }
    }
    return (edits, skipped)
  }

  private static func overlaps(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
    if a.isEmpty || b.isEmpty {
      return a.lowerBound >= b.lowerBound && a.lowerBound <= b.upperBound || b.lowerBound >= a.lowerBound && b.lowerBound <= a.upperBound
    }
    return a.overlaps(b)
  }

  private static func scalarText(_ record: NodeRecord, _ document: YAMLDocument) -> [UInt8] {
    Array(document.text[Int(record.first)..<Int(record.first + record.count)])
  }

  /// The replacement written the way the scalar it replaces was: plain, or in the same quotes (escaped
  /// for them). Nil when the scalar is not written as exactly its text (an anchor or tag in front,
  /// several lines, a block scalar).
  static func requoted(_ value: String, like written: [UInt8], style: YAMLScalarStyle, text: [UInt8]) -> [UInt8]? {
    let isOneLine = !written.contains(0x0A) && !written.contains(0x0D)
    switch style {
    case .plain:
      guard written == text else { return nil }
      return Array(value.utf8)
    case .singleQuoted:
      guard isOneLine, written.count >= 2, written.first == UInt8(ascii: "'"), written.last == UInt8(ascii: "'") else { return nil }
      return Array(("'" + value.replacing("'", with: "''") + "'").utf8)
    case .doubleQuoted:
      guard isOneLine, written.count >= 2, written.first == UInt8(ascii: "\""), written.last == UInt8(ascii: "\"") else { return nil }
      var escaped = "\""
      for scalar in value.unicodeScalars {
        switch scalar {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
          let hex = String(scalar.value, radix: 16, uppercase: true)
          escaped += "\\x" + (hex.count == 1 ? "0" + hex : hex)
        default: escaped.unicodeScalars.append(scalar)
        }
      }
      return Array((escaped + "\"").utf8)
    case .literal, .folded:
      return nil
    }
  }

  // MARK: Applying and checking

  static func apply(_ edits: [Edit], to bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.replacement.count })
    var position = 0
    for edit in edits {
      result += bytes[position..<edit.bytes.lowerBound]
      result += edit.replacement
      position = edit.bytes.upperBound
    }
    result += bytes[position...]
    return result
  }

  struct Rejection: Error {
    var reason: String
  }

  /// The edits applied and the result linted, when it passes the checks; otherwise why not.
  static func attempt(_ edits: [Edit], on before: Snapshot, path: String, options: LintOptions) -> Swift.Result<Snapshot, Rejection> {
    let fixed = apply(edits, to: before.bytes)
    let lint = Linter.lint(ConfigSource(path: path, bytes: fixed), options: options)
    if let problem = newYAMLProblem(lint, comparedWith: before.lint) {
      return .failure(Rejection(reason: "with it, \(problem.message) [\(problem.ruleID)]"))
    }
    guard comments(in: fixed) == comments(in: before.bytes) else { return .failure(Rejection(reason: "it would change a comment")) }
    guard readsBack(edits, in: fixed) else { return .failure(Rejection(reason: "YAML would not read the new text back as the suggested value")) }
    return .success(Snapshot(fixed, lint))
  }

  /// A finding of the YAML reader's rules (syntax, duplicate keys, ...) the fixed text has more of than
  /// the text before, if any.
  private static func newYAMLProblem(_ after: LintResult, comparedWith before: LintResult) -> Diagnostic? {
    func yamlFindings(_ result: LintResult) -> [Diagnostic] {
      result.diagnostics.filter { diagnostic in
        guard let rule = RuleCatalog.rule(withID: diagnostic.ruleID) else { return false }
        switch rule.phase.kind {
        case .input, .yaml: return true
        default: return false
        }
      }
    }
    var was: [String: Int] = [:]
    for diagnostic in yamlFindings(before) { was[diagnostic.ruleID, default: 0] += 1 }
    var now: [String: Int] = [:]
    for diagnostic in yamlFindings(after) {
      now[diagnostic.ruleID, default: 0] += 1
      if now[diagnostic.ruleID]! > was[diagnostic.ruleID] ?? 0 { return diagnostic }
    }
    if before.plan != nil && after.plan == nil {
      return after.diagnostics.first { $0.severity == .error }
        ?? Diagnostic(.error, rule: "yaml-syntax", "the config could not be read", at: SourceLocation(file: after.path, line: 1, column: 1))
    }
    return nil
  }

  /// Each replaced scalar is, in the fixed text, a scalar at exactly the replacement's place whose text
  /// is the intended value (a replacement that YAML would read differently, or that swallows what
  /// follows it, fails this).
  private static func readsBack(_ edits: [Edit], in fixed: [UInt8]) -> Bool {
    guard edits.contains(where: { $0.expectedText != nil }) else { return true }
    guard let document = YAMLParser.parse(fixed).document else { return false }
    let positions = TextPositions(fixed)
    var scalars: [SourceRange: NodeRecord] = [:]
    for record in document.nodes where record.kind == .scalar { scalars[record.range] = record }
    var delta = 0
    for edit in edits {
      let start = edit.bytes.lowerBound + delta
      delta += edit.replacement.count - edit.bytes.count
      guard let expected = edit.expectedText else { continue }
      let range = SourceRange(start: positions.position(of: start), end: positions.position(of: start + edit.replacement.count))
      guard let record = scalars[range], scalarText(record, document).elementsEqual(expected.utf8) else { return false }
    }
    return true
  }

  /// The comments of a YAML text, in order: a `#` at the start of a line or after a space or tab, outside
  /// every scalar, to the end of its line.
  static func comments(in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var scalarRanges: [Range<Int>] = []
    if let document = YAMLParser.parse(bytes).document {
      let positions = TextPositions(bytes)
      for record in document.nodes where record.kind == .scalar {
        let range = record.range
        if let start = positions.offset(of: range.start), let end = positions.offset(of: range.end), start < end {
          scalarRanges.append(start..<end)
        }
      }
      scalarRanges.sort { $0.lowerBound < $1.lowerBound }
    }
    var comments: [ArraySlice<UInt8>] = []
    var next = 0
    var index = 0
    while index < bytes.count {
      while next < scalarRanges.count, scalarRanges[next].upperBound <= index { next += 1 }
      if next < scalarRanges.count, scalarRanges[next].contains(index) {
        index = scalarRanges[next].upperBound
        continue
      }
      let byte = bytes[index]
      if byte == UInt8(ascii: "#"), index == 0 || [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index - 1]) {
        var end = index
        while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        comments.append(bytes[index..<end])
        index = end
        continue
      }
      index += 1
    }
    return comments
  }
}
