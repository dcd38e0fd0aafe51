import TrackcCore

/// The lines of an input as trackc numbers them: broken at `\n`, `\r\n` or a lone `\r` (YAML's line
/// breaks), each line's length in Unicode scalars, a leading byte order mark not counted.
///
/// A position is inside the input when its line is one of these and its column is at most one past the
/// line's last character (the place just after it, where a range ends or an insertion goes).
public struct InputLines: Sendable {
  /// The length of each line in Unicode scalars (bytes that do not continue a UTF-8 sequence).
  public let lengths: [Int]

  public init(_ bytes: some Collection<UInt8>) {
    var lengths: [Int] = []
    var length = 0
    var previous: UInt8 = 0
    var skipped = 0
    let hasByteOrderMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
    for byte in bytes {
      if hasByteOrderMark && skipped < 3 {
        skipped += 1
        continue
      }
      if byte == 0x0A {
        // The `\n` of `\r\n` ends the line the `\r` already ended.
        if previous != 0x0D {
          lengths.append(length)
          length = 0
        }
      } else if byte == 0x0D {
        lengths.append(length)
        length = 0
      } else if byte & 0xC0 != 0x80 {
        length += 1
      }
      previous = byte
    }
    lengths.append(length)
    self.lengths = lengths
  }

  public func contains(_ position: SourcePosition) -> Bool {
    guard position.line >= 1, position.line <= lengths.count else { return false }
    return position.column >= 1 && position.column <= lengths[position.line - 1] + 1
  }

  /// What is wrong with a range in this input, in words; nil when it lies inside and does not run backwards.
  public func problem(with range: SourceRange) -> String? {
    for (name, position) in [("starts", range.start), ("ends", range.end)] where !contains(position) {
      let width = position.line >= 1 && position.line <= lengths.count ? " (the line has \(lengths[position.line - 1]) characters)" : ""
      return "\(name) at \(position.line):\(position.column), outside the input's \(lengths.count) lines\(width)"
    }
    if range.end < range.start { return "ends at \(range.end.line):\(range.end.column), before it starts" }
    return nil
  }
}

extension Invariants {
  /// Every position a diagnostic gives in `file` (its range, its notes', its fix-it's) lies inside `input`.
  /// Positions in other files (Swift sources, a registry) are not this input's to check.
  public static func positionViolations(in diagnostics: [Diagnostic], file: String, input: some Collection<UInt8>) -> [String] {
    let lines = InputLines(input)
    var violations: [String] = []
    for diagnostic in diagnostics {
      var locations = [("", diagnostic.location)]
      locations += diagnostic.notes.compactMap { note in note.location.map { ("its note '\(note.message)' ", $0) } }
      if let fixIt = diagnostic.fixIt { locations.append(("its fix-it ", fixIt.range)) }
      for (what, location) in locations where location.file == file {
        if let problem = lines.problem(with: location.range) {
          violations.append("[\(diagnostic.ruleID)] \(diagnostic.message): \(what)\(problem)")
        }
      }
    }
    return violations
  }
}
