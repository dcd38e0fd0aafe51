/// `conventions.event_id_pattern`, compiled once and shared by every rule.
///
/// Patterns are regular expressions in the subset of ECMAScript's and Swift `Regex`'s syntax that
/// `LinearRegex` matches in linear time (docs/configuration.md lists it), with Unicode-scalar
/// semantics: a match may occur anywhere unless the pattern is anchored, and `$` matches only at the
/// very end. A config is untrusted input, and a backtracking engine can take minutes on a short pattern
/// and a short ID. The default pattern, which most configs use, is checked by `DefaultEventIDPattern`
/// instead: the same answers (a test compares it with `Regex` on every short string of a wide alphabet)
/// at a fraction of the cost.
public struct EventIDPattern: Sendable {
  public let source: String
  /// Where the pattern is written; nil for the default.
  public let range: SourceRange?
  private let compiled: LinearRegex?

  public struct CompileError: Error, Sendable {
    /// What follows "event_id_pattern '...'" in a diagnostic: "is not a valid regular expression: ...",
    /// "uses ..., which event ID patterns do not support" or "is too large: ...".
    public var message: String
  }

  public static func compile(_ written: Located<String>?) -> Result<EventIDPattern, CompileError> {
    let source = written?.value ?? TrackingConfig.defaultEventIDPattern
    if source == TrackingConfig.defaultEventIDPattern {
      return .success(EventIDPattern(source: source, range: written?.range, compiled: nil))
    }
    do {
      return .success(EventIDPattern(source: source, range: written?.range, compiled: try LinearRegex.compile(source)))
    } catch {
      let hint = error.hint.map { "; \($0)" } ?? ""
      switch error.kind {
      case .invalid: return .failure(CompileError(message: "is not a valid regular expression: \(error.detail)\(hint)"))
      case .unsupported:
        return .failure(
          CompileError(message: "uses \(error.detail), which event ID patterns do not support (they are matched in linear time)\(hint)"))
      case .tooLarge: return .failure(CompileError(message: "is too large: \(error.detail)\(hint)"))
      }
    }
  }

  public func matches(_ id: String) -> Bool {
    guard let compiled else { return DefaultEventIDPattern.matches(id) }
    return compiled.matches(id)
  }

  /// Instructions a lint may visit simulating the NFA over all its IDs (about two seconds here): enough
  /// for any real plan by orders of magnitude (the DFA covers the patterns people write), and a bound on
  /// a hostile one.
  public static let lintBudget = 100_000_000

  /// Whether `id` matches, or nil once matching has used up `budget` (see `LinearRegex`).
  public func matches(_ id: String, budget: inout Int) -> Bool? {
    guard let compiled else { return DefaultEventIDPattern.matches(id) }
    return compiled.matches(id, budget: &budget)
  }
}

/// `^[A-Z][A-Z0-9_]*$` exactly as `Regex` matches it: ASCII capitals first, then capitals, digits and
/// underscores to the very end.
enum DefaultEventIDPattern {
  static func matches(_ id: String) -> Bool {
    if let answer = id.utf8.withContiguousStorageIfAvailable(matches) { return answer }
    return Array(id.utf8).withUnsafeBufferPointer { matches($0) }
  }

  private static func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = bytes.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return false }
    for byte in bytes.dropFirst() {
      let isIDByte =
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || byte == UInt8(ascii: "_")
      guard isIDByte else { return false }
    }
    return true
  }
}
