import Foundation
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// What a config writes reaches the terminal, a CI log and a review page only as text: control
/// characters and bidirectional overrides are escaped in every format, and the data formats still
/// decode to exactly what was written.
@Suite struct DiagnosticEscapingTests {
  /// ESC (a terminal's colours and titles), NUL, DEL, a C1 control, the right-to-left override and
  /// isolate, a line separator, a tab and a line break.
  static let hostile = "a\u{1B}[2J\u{1B}]0;pwned\u{7}b\u{0}c\u{7F}d\u{9B}e\u{202E}f\u{2066}g\u{2028}h\ti\nj"

  static let diagnostics = [
    Diagnostic(
      .error, rule: "unknown-screen", "screen '\(hostile)' is not declared",
      at: SourceLocation(file: "dir\u{1B}[31m/t\u{202E}.yaml", range: SourceRange(at: SourcePosition(line: 2, column: 3))),
      notes: [
        Diagnostic.Note("first here: \(hostile)", at: SourceLocation(file: "x.yaml", range: SourceRange(at: SourcePosition(line: 1, column: 1))))
      ])
  ]

  static func acting(_ text: String) -> [Unicode.Scalar] {
    text.unicodeScalars.filter { TerminalText.acts($0) && $0 != "\n" }
  }

  @Test func textEscapesWhatWouldActOnTheTerminal() {
    let text = TextDiagnosticRenderer.render(Self.diagnostics)
    #expect(Self.acting(text) == [])
    #expect(text.split(separator: "\n").count == 2, "one line for the finding, one for its note")
    #expect(
      text.hasPrefix(
        #"dir\u{1B}[31m/t\u{202E}.yaml:2:3: error: screen 'a\u{1B}[2J\u{1B}]0;pwned\u{7}b\0c\u{7F}d\u{9B}e\u{202E}f\u{2066}g\u{2028}h\ti\nj' is not declared [unknown-screen]"#
      ), "\(text)")
  }

  @Test func githubAnnotationsEscapeItToo() {
    let commands = GitHubActionsDiagnosticRenderer.render(Self.diagnostics)
    #expect(Self.acting(commands) == [])
    #expect(commands.split(separator: "\n").count == 1)
    #expect(commands.contains(#"a\u{1B}[2J"#))
  }

  /// JSON and SARIF carry the text as written (a reader decodes it back), with every such character a
  /// `\u` escape in the document itself.
  @Test(arguments: [DiagnosticFormat.json, .sarif])
  func dataFormatsEscapeAndDecodeToTheText(format: DiagnosticFormat) throws {
    let document = format.render(Self.diagnostics)
    #expect(Self.acting(document) == [])
    #expect(document.contains(#"\u202E"#))
    let decoded = try JSONSerialization.jsonObject(with: Data(document.utf8))
    var strings: [String] = []
    func collect(_ value: Any) {
      if let string = value as? String { strings.append(string) }
      if let array = value as? [Any] { array.forEach(collect) }
      if let object = value as? [String: Any] { object.values.forEach(collect) }
    }
    collect(decoded)
    #expect(strings.contains("screen '\(Self.hostile)' is not declared"))
  }

  /// From a config: a screen name with ESC and an override, quoted by a finding.
  @Test func aFindingQuotingTheConfigIsEscaped() {
    let result = Linter.lint(
      ConfigSource(path: "t.yaml", text: "version: 1\nscreens:\n  \"Home\\e[2J\\u202E\": {page_events: {enter: HOME_ENTER}}\n"))
    let text = TextDiagnosticRenderer.render(result.diagnostics)
    #expect(!result.diagnostics.isEmpty)
    #expect(Self.acting(text) == [])
    #expect(text.contains(#"Home\u{1B}[2J\u{202E}"#), "\(text)")
  }
}
