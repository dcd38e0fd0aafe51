#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Renders findings as one JSON document: `{"diagnostics": [...], "summary": {...}}`.
public enum JSONDiagnosticRenderer {
  struct Document: Encodable {
    var diagnostics: [Entry]
    var summary: Summary
    /// `trackc adopt`'s counts; absent for the other commands.
    var adoption: AdoptionCounts?
  }

  struct Summary: Encodable {
    var errors: Int
    var warnings: Int
  }

  struct Position: Encodable {
    var file: String
    var line: Int
    var column: Int
    var endLine: Int
    var endColumn: Int

    init(_ location: SourceLocation) {
      file = location.file
      line = location.range.start.line
      column = location.range.start.column
      endLine = location.range.end.line
      endColumn = location.range.end.column
    }
  }

  struct Entry: Encodable {
    var severity: String
    var rule: String
    var message: String
    var location: Position
    var notes: [Note]
    var fixIt: FixIt?
  }

  struct Note: Encodable {
    var message: String
    var location: Position?
  }

  struct FixIt: Encodable {
    var message: String
    var location: Position
    var replacement: String
  }

  public static func render(_ diagnostics: [Diagnostic], adoption: AdoptionCounts? = nil) -> String {
    let document = Document(
      diagnostics: diagnostics.map { diagnostic in
        Entry(
          severity: diagnostic.severity.rawValue, rule: diagnostic.ruleID, message: diagnostic.message,
          location: Position(diagnostic.location),
          notes: diagnostic.notes.map { Note(message: $0.message, location: $0.location.map(Position.init)) },
          fixIt: diagnostic.fixIt.map { FixIt(message: $0.message, location: Position($0.range), replacement: $0.replacement) })
      },
      summary: Summary(errors: diagnostics.errorCount, warnings: diagnostics.warningCount), adoption: adoption)
    return JSONOutput.encode(document)
  }
}

enum JSONOutput {
  /// Pretty, key-sorted, slash-preserving JSON with a final newline: stable enough to diff and golden-test.
  /// Every character that would act on a terminal (`TerminalText.acts`) is a `\uXXXX` escape, which
  /// JSONEncoder writes only for C0: the document means the same and can be printed safely (`cat`, a
  /// CI log).
  static func encode(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let text: String
    do {
      text = String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    } catch {
      // Only non-finite floats fail to encode, and these documents hold none.
      preconditionFailure("JSON encoding failed: \(error)")
    }
    // Outside strings, JSON holds only ASCII punctuation, letters, digits and spaces, so any such
    // character is inside a string, where an escape stands for it.
    guard text.unicodeScalars.contains(where: TerminalText.acts) else { return text }
    var escaped = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if TerminalText.acts(scalar) && scalar != "\n" {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        escaped.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
      } else {
        escaped.append(scalar)
      }
    }
    return String(escaped)
  }
}
