/// Renders findings as GitHub Actions workflow commands (`::error file=…,line=…::message`), which the
/// Actions runner turns into annotations on the pull request's changed lines, as SwiftLint's
/// `GitHubActionsLoggingReporter` does.
public enum GitHubActionsDiagnosticRenderer {
  public static func render(_ diagnostics: [Diagnostic]) -> String {
    var output = ""
    for diagnostic in diagnostics {
      // Notes have no annotation of their own: they follow the message, one per line. What the input
      // wrote is escaped as on a terminal (the runner's log shows ANSI escapes, the page bidi overrides).
      var message = TerminalText.escaped(diagnostic.message)
      for note in diagnostic.notes {
        let place = note.location.map { "\(TerminalText.escaped($0.file)):\($0.line):\($0.column): " } ?? ""
        message += "\nnote: \(place)\(TerminalText.escaped(note.message))"
      }
      output +=
        GitHubActionsCommand(
          level: diagnostic.severity == .error ? .error : .warning, file: TerminalText.escaped(diagnostic.location.file),
          range: diagnostic.location.range, title: diagnostic.ruleID, message: message
        ).line
    }
    return output
  }
}

/// One workflow command: `::LEVEL file=F,line=L,col=C,endLine=L2,endColumn=C2,title=T::MESSAGE`.
///
/// Escaped as the Actions toolkit escapes (`@actions/core`'s `escapeData` and `escapeProperty`): the
/// message's `%`, CR and LF, and in properties also `:` and `,`, so that no string from a config or a
/// source file can end a command early or start a second one.
public struct GitHubActionsCommand: Sendable, Hashable {
  public enum Level: String, Sendable {
    case error, warning, notice
  }

  public var level: Level
  /// The file the annotation is on; nil for one on no file.
  public var file: String?
  /// Where in the file; nil for the whole file.
  public var range: SourceRange?
  public var title: String?
  public var message: String

  public init(level: Level, file: String?, range: SourceRange?, title: String?, message: String) {
    self.level = level
    self.file = file
    self.range = range
    self.title = title
    self.message = message
  }

  /// The command, with its line break.
  public var line: String {
    var properties: [String] = []
    if let file { properties.append("file=" + Self.escapeProperty(file)) }
    if file != nil, let range {
      properties.append("line=\(range.start.line)")
      properties.append("col=\(range.start.column)")
      // The runner uses the end column only on a one-line range; a multi-line range ends at its line.
      if range.end.line > range.start.line {
        properties.append("endLine=\(range.end.line)")
      } else if range.end.line == range.start.line, range.end.column > range.start.column {
        properties.append("endLine=\(range.end.line)")
        properties.append("endColumn=\(range.end.column)")
      }
    }
    if let title { properties.append("title=" + Self.escapeProperty(title)) }
    let head = properties.isEmpty ? "::\(level.rawValue)" : "::\(level.rawValue) " + properties.joined(separator: ",")
    return head + "::" + Self.escapeData(message) + "\n"
  }

  /// `escapeData`: `%`, CR, LF.
  public static func escapeData(_ text: String) -> String {
    var escaped = ""
    escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "%": escaped += "%25"
      case "\r": escaped += "%0D"
      case "\n": escaped += "%0A"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// `escapeProperty`: `%`, CR, LF, `:` and `,`.
  public static func escapeProperty(_ text: String) -> String {
    var escaped = ""
    for scalar in escapeData(text).unicodeScalars {
      switch scalar {
      case ":": escaped += "%3A"
      case ",": escaped += "%2C"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}
