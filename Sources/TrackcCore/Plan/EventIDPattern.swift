/// `conventions.event_id_pattern`, compiled once and shared by every rule.
///
/// Patterns use Swift's regular expression syntax (the `Regex` type), with Unicode-scalar semantics:
/// the family of the ECMAScript patterns JSON Schema and editors use. A match may occur anywhere unless
/// the pattern is anchored, and `$` matches only at the very end. The default pattern, which most
/// configs use, is checked by `DefaultEventIDPattern` instead: the same answers (a test compares the two
/// on every short string of a wide alphabet) at a small fraction of the cost.
public struct EventIDPattern: Sendable {
  public let source: String
  /// Where the pattern is written; nil for the default.
  public let range: SourceRange?
  private let regex: SharedRegex?

  public struct CompileError: Error, Sendable {
    public var message: String
  }

  public static func compile(_ written: Located<String>?) -> Result<EventIDPattern, CompileError> {
    let source = written?.value ?? TrackingConfig.defaultEventIDPattern
    if source == TrackingConfig.defaultEventIDPattern {
      return .success(EventIDPattern(source: source, range: written?.range, regex: nil))
    }
    do {
      return .success(EventIDPattern(source: source, range: written?.range, regex: SharedRegex(try Regex(source))))
    } catch {
      return .failure(CompileError(message: "\(error)"))
    }
  }

  public func matches(_ id: String) -> Bool {
    guard let regex else { return DefaultEventIDPattern.matches(id) }
    return regex.matches(id)
  }

  /// The same check through `Regex`, whatever the pattern (for tests of the default's fast path).
  public static func matchesWithRegex(_ id: String, pattern: String) throws -> Bool {
    SharedRegex(try Regex(pattern)).matches(id)
  }
}

/// A compiled pattern read by several threads at once.
///
/// `Regex` is not declared `Sendable`, because a regex built with the DSL may hold closures. One compiled
/// from a string holds none, and matching only reads it: the program it runs is lowered once, behind an
/// atomic, and each match uses its own matcher state. So sharing it is safe, which this wrapper asserts.
private final class SharedRegex: @unchecked Sendable {
  private let regex: Regex<AnyRegexOutput>

  init(_ regex: Regex<AnyRegexOutput>) {
    self.regex = regex.matchingSemantics(.unicodeScalar)
  }

  func matches(_ id: String) -> Bool {
    (try? regex.firstMatch(in: id)) != nil
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
