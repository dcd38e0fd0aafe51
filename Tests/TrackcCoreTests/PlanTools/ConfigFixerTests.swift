import Foundation
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// `trackc lint --fix`: golden before/after/diff for each fixture in `Tests/Fixtures/fix`, the result
/// lints clean or with only the unfixable findings left, and every guard (quoting, comments, duplicate
/// keys, anchors, ambiguous and overlapping fixes, multi-byte columns, CRLF) has its own case.
@Suite struct ConfigFixerTests {
  static let folder = Fixtures.directory.appendingPathComponent("fix")
  static let fixtures = ["typos", "unfixable", "missing-version"]

  func fix(_ text: String, path: String = "t.yaml", options: LintOptions = Fixtures.options) -> ConfigFixer.Result {
    ConfigFixer.fix(ConfigSource(path: path, text: text), options: options)
  }

  @Test(arguments: fixtures)
  func fixtureMatchesGolden(name: String) throws {
    let url = Self.folder.appendingPathComponent("\(name).yaml")
    let source = ConfigSource(path: "fix/\(name).yaml", bytes: try [UInt8](Data(contentsOf: url)))
    let result = ConfigFixer.fix(source, options: Fixtures.options)
    let fixed = String(decoding: result.fixed, as: UTF8.self)
    Golden.check(fixed, matches: Self.folder.appendingPathComponent("\(name).after"))
    Golden.check(
      UnifiedDiff.render(old: result.original, new: result.fixed, path: "fix/\(name).yaml"),
      matches: Self.folder.appendingPathComponent("\(name).fix.diff"))
    // What is left is what the fixes could not do, and linting the fixed file says the same.
    let remaining = TextDiagnosticRenderer.render(result.remaining.diagnostics)
    Golden.check(remaining, matches: Self.folder.appendingPathComponent("\(name).remaining.txt"))
    let relinted = Linter.lint(ConfigSource(path: source.path, bytes: result.fixed), options: Fixtures.options)
    #expect(TextDiagnosticRenderer.render(relinted.diagnostics) == remaining)
    #expect(ConfigFixer.comments(in: result.fixed) == ConfigFixer.comments(in: result.original))
  }

  @Test func typosLintCleanAfterwards() throws {
    let url = Self.folder.appendingPathComponent("typos.yaml")
    let result = ConfigFixer.fix(ConfigSource(path: "typos.yaml", bytes: try [UInt8](Data(contentsOf: url))), options: Fixtures.options)
    #expect(result.remaining.diagnostics.isEmpty)
    #expect(result.applied.count == 9 && result.skipped.isEmpty)
    // A second run has nothing to do.
    let again = ConfigFixer.fix(ConfigSource(path: "typos.yaml", bytes: result.fixed), options: Fixtures.options)
    #expect(!again.changed && again.applied.isEmpty)
  }

  @Test func unfixableFindingsAreLeftWithReasons() throws {
    let url = Self.folder.appendingPathComponent("unfixable.yaml")
    let result = ConfigFixer.fix(ConfigSource(path: "unfixable.yaml", bytes: try [UInt8](Data(contentsOf: url))), options: Fixtures.options)
    #expect(!result.changed)
    let reasons = result.skipped.map(\.reason)
    #expect(reasons.contains { $0.contains("duplicate key 'screens'") })
    #expect(reasons.contains { $0.contains("anchor") })
    #expect(result.remaining.diagnostics.hasErrors)
  }

  @Test func cleanConfigIsUntouched() {
    let text = "# a comment\nversion: 1\nscreens:\n  Home: {page_events: {enter: HOME_ENTER}}\n"
    let result = fix(text)
    #expect(!result.changed && result.applied.isEmpty && result.remaining.diagnostics.isEmpty)
  }

  /// CRLF line ends and multi-byte characters before the fix on its line: the edit lands on the right
  /// bytes and every other byte (the CRs included) stays.
  @Test func crlfAndMultiByteColumns() {
    let text =
      "version: 1\r\ndestinations: {fïrebäse🎯: {}, mixpanel: {wire_name: Mixpanel}}\r\ndefaults: {destinations: [\"fïrebäse🎯\", mixpanell]}\r\nscreens: {}\r\n"
    let result = fix(text)
    #expect(String(decoding: result.fixed, as: UTF8.self) == text.replacingOccurrences(of: "mixpanell", with: "mixpanel"))
    #expect(result.remaining.diagnostics.isEmpty)
  }

  /// The renamed-handler case: the handler key follows the code.
  @Test func renamedHandlerFollowsTheCode() throws {
    let scratch = try ScratchDirectory("fix-code")
    defer { scratch.remove() }
    try scratch.write("Sources/Home/Home.swift", "class HomeViewController {\n  @objc func onFavoriteTapped(_ sender: Any) {}\n}\n")
    var options = Fixtures.options
    options.code = .sources(.paths([scratch.url.appendingPathComponent("Sources").path]))
    let text = """
      version: 1
      screens:
        HomeViewControler:   # a typo in the screen too
          control_events:
            onFavoritTapped(_:): CTRL_HOME_FAV
      """
    let result = fix(text, options: options)
    #expect(
      String(decoding: result.fixed, as: UTF8.self)
        == text.replacingOccurrences(of: "HomeViewControler:", with: "HomeViewController:").replacingOccurrences(
          of: "onFavoritTapped", with: "onFavoriteTapped"))
    #expect(result.remaining.diagnostics.isEmpty, "\(result.remaining.diagnostics)")
  }

  // MARK: The guards, one by one

  func diagnostic(_ rule: String, _ range: SourceRange, replacement: String, file: String = "t.yaml") -> Diagnostic {
    Diagnostic(
      .error, rule: rule, "m", at: SourceLocation(file: file, range: range),
      fixIt: Diagnostic.FixIt("replace", replacing: SourceLocation(file: file, range: range), with: replacement))
  }

  func range(_ line: Int, _ start: Int, _ end: Int) -> SourceRange {
    SourceRange(start: SourcePosition(line: line, column: start), end: SourcePosition(line: line, column: end))
  }

  @Test func ambiguousAndOverlappingFixesAreNotApplied() {
    let bytes = Array("version: 1\nscreens: {}\nfoo: bar\n".utf8)
    // Two different fixes for one range.
    let ambiguous = ConfigFixer.plan(
      [diagnostic("unknown-key", range(3, 1, 4), replacement: "a"), diagnostic("unknown-key", range(3, 1, 4), replacement: "b")], in: bytes,
      path: "t.yaml")
    #expect(ambiguous.edits.isEmpty && ambiguous.skipped.count == 2)
    // The same fix twice is one edit.
    let twice = ConfigFixer.plan(
      [diagnostic("unknown-key", range(3, 1, 4), replacement: "a"), diagnostic("x", range(3, 1, 4), replacement: "a")], in: bytes, path: "t.yaml")
    #expect(twice.edits.count == 1 && twice.skipped.isEmpty)
    // An insertion at the edge of a replacement overlaps it.
    let overlapping = ConfigFixer.plan(
      [diagnostic("unknown-key", range(3, 1, 4), replacement: "a"), diagnostic("missing-key", range(3, 4, 4), replacement: "b")], in: bytes,
      path: "t.yaml")
    #expect(overlapping.edits.isEmpty && overlapping.skipped.count == 2)
    // A fix in another file, or outside this one, or not on one scalar.
    let elsewhere = ConfigFixer.plan(
      [
        diagnostic("unknown-key", range(3, 1, 4), replacement: "a", file: "other.yaml"),
        diagnostic("unknown-key", range(9, 1, 4), replacement: "a"),
        diagnostic("unknown-key", range(3, 1, 3), replacement: "a"),
      ], in: bytes, path: "t.yaml")
    #expect(elsewhere.edits.isEmpty && elsewhere.skipped.count == 3)
  }

  @Test func quotingIsKept() {
    #expect(ConfigFixer.requoted("it's", like: Array("'x'".utf8), style: .singleQuoted, text: Array("x".utf8)) == Array("'it''s'".utf8))
    #expect(ConfigFixer.requoted("a\"b\\", like: Array("\"x\"".utf8), style: .doubleQuoted, text: Array("x".utf8)) == Array("\"a\\\"b\\\\\"".utf8))
    #expect(ConfigFixer.requoted("y", like: Array("x".utf8), style: .plain, text: Array("x".utf8)) == Array("y".utf8))
    // Not exactly its text (an anchor or tag in front), several lines, a block: no.
    #expect(ConfigFixer.requoted("y", like: Array("!!str x".utf8), style: .plain, text: Array("x".utf8)) == nil)
    #expect(ConfigFixer.requoted("y", like: Array("'x\n  z'".utf8), style: .singleQuoted, text: Array("x z".utf8)) == nil)
    #expect(ConfigFixer.requoted("y", like: Array("|\n  x\n".utf8), style: .literal, text: Array("x\n".utf8)) == nil)
  }

  /// A replacement that would add a comment (here a plain scalar followed by one) is rejected when the
  /// result is checked.
  @Test func replacementThatAddsACommentIsRejected() {
    let text = "version: 1\nscreens: {}\nfoo: 1\n"
    let before = ConfigFixer.Snapshot(Array(text.utf8), Linter.lint(ConfigSource(path: "t.yaml", text: text), options: Fixtures.options))
    let planned = ConfigFixer.plan([diagnostic("wrong-type", range(3, 6, 7), replacement: "2 #b")], in: before.bytes, path: "t.yaml")
    #expect(planned.edits.count == 1)
    guard case .failure(let rejection) = ConfigFixer.attempt(planned.edits, on: before, path: "t.yaml", options: Fixtures.options) else {
      Issue.record("a fix that adds a comment was accepted")
      return
    }
    #expect(rejection.reason == "it would change a comment")
  }

  /// A replacement that is well-formed YAML, adds no comment, but does not read back as the suggested
  /// value (a flow sequence where a scalar was) is rejected.
  @Test func replacementThatReadsBackDifferentlyIsRejected() {
    let text = "version: 1\nscreens: {}\nfoo: 1\n"
    let before = ConfigFixer.Snapshot(Array(text.utf8), Linter.lint(ConfigSource(path: "t.yaml", text: text), options: Fixtures.options))
    let value = text.utf8.count - 2  // the `1` of `foo: 1`
    let edit = ConfigFixer.Edit(
      diagnostic: diagnostic("wrong-type", range(3, 6, 7), replacement: "[a]"), bytes: value..<(value + 1), replacement: Array("[a]".utf8),
      expectedText: "[a]")
    guard case .failure(let rejection) = ConfigFixer.attempt([edit], on: before, path: "t.yaml", options: Fixtures.options) else {
      Issue.record("a fix that does not read back was accepted")
      return
    }
    #expect(rejection.reason == "YAML would not read the new text back as the suggested value")
  }

  @Test func commentsAreFoundOutsideScalars() {
    let text = "a: 'x # not a comment' # one\nb: c#d\n# two\nlist: [x, # three\n  y]\n"
    let comments = ConfigFixer.comments(in: Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    #expect(comments == ["# one", "# two", "# three"])
  }

  @Test func positionsAndOffsets() {
    let bytes = Array("ab\r\nä🎯x\ny".utf8)
    let positions = TextPositions(bytes)
    #expect(positions.lineStarts == [0, 4, 12])
    #expect(positions.offset(of: SourcePosition(line: 2, column: 3)) == 10)
    #expect(positions.offset(of: SourcePosition(line: 2, column: 4)) == 11)
    #expect(positions.offset(of: SourcePosition(line: 2, column: 6)) == nil)
    #expect(positions.offset(of: SourcePosition(line: 4, column: 1)) == nil)
    #expect(positions.position(of: 10) == SourcePosition(line: 2, column: 3))
    #expect(positions.position(of: 12) == SourcePosition(line: 3, column: 1))
    // A byte order mark is not a column.
    #expect(TextPositions([0xEF, 0xBB, 0xBF, 0x61]).offset(of: SourcePosition(line: 1, column: 1)) == 3)
  }

  @Test func unifiedDiff() {
    let old = Array((1...12).map { "line \($0)\n" }.joined().utf8)
    var newText = (1...12).map { "line \($0)\n" }
    newText[1] = "line two\n"
    newText[10] = "line eleven\n"
    let diff = UnifiedDiff.render(old: old, new: Array(newText.joined().utf8), path: "t.yaml")
    #expect(
      diff == """
        --- a/t.yaml
        +++ b/t.yaml
        @@ -1,5 +1,5 @@
         line 1
        -line 2
        +line two
         line 3
         line 4
         line 5
        @@ -8,5 +8,5 @@
         line 8
         line 9
         line 10
        -line 11
        +line eleven
         line 12

        """)
    #expect(UnifiedDiff.render(old: old, new: old, path: "t.yaml") == "")
    let inserted = UnifiedDiff.render(old: Array("a\nb".utf8), new: Array("x\na\nb".utf8), path: "t")
    #expect(inserted == "--- a/t\n+++ b/t\n@@ -1,2 +1,3 @@\n+x\n a\n b\n\\ No newline at end of file\n")
  }
}
