/// Renders findings the way clang does, so that Xcode, editors and terminals link them to the source;
/// what the input wrote is escaped where it would act on the terminal (`TerminalText`).
public enum TextDiagnosticRenderer {
  public static func render(_ diagnostics: [Diagnostic]) -> String {
    var output = ""
    for diagnostic in diagnostics {
      output += line(diagnostic.location, diagnostic.severity.rawValue, "\(diagnostic.message) [\(diagnostic.ruleID)]")
      for note in diagnostic.notes {
        output += line(note.location ?? diagnostic.location, "note", note.message)
      }
    }
    return output
  }

  /// One line: a line break in user text is escaped like any control character, so it cannot split a
  /// finding in two.
  private static func line(_ location: SourceLocation, _ label: String, _ message: String) -> String {
    "\(TerminalText.escaped(location.file)):\(location.line):\(location.column): \(label): \(TerminalText.escaped(message))\n"
  }

  /// "2 errors and 1 warning in 3 files": the closing line on standard error.
  public static func summary(_ diagnostics: [Diagnostic], fileCount: Int) -> String {
    func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
    return "\(count(diagnostics.errorCount, "error")) and \(count(diagnostics.warningCount, "warning")) in \(count(fileCount, "file"))"
  }
}
