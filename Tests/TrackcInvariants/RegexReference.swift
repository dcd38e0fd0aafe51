/// Swift's `Regex`, the engine event ID patterns were matched with before trackc's linear-time matcher:
/// the reference the matcher is compared with (by the property tests and the `names` fuzz target). It
/// backtracks, so callers keep to short IDs and patterns it finishes on (`isSafe`).
public enum RegexReference {
  /// Whether `id` matches `pattern` under Unicode-scalar semantics, anywhere unless anchored; nil if
  /// `Regex` does not compile the pattern.
  public static func matches(_ id: String, pattern: String) -> Bool? {
    guard let regex = try? Regex(pattern) else { return nil }
    return (try? regex.matchingSemantics(.unicodeScalar).firstMatch(in: id)) != nil
  }

  /// Whether `Regex` surely finishes quickly on this pattern and ID: an ID of at most 10 scalars, and a
  /// pattern with at most three quantifiers or alternatives and no count above 20 (backtracking costs
  /// about the ID's length to the power of the number of quantifiers).
  public static func isSafe(pattern: String, id: String) -> Bool {
    guard id.unicodeScalars.count <= 10 else { return false }
    var choices = 0
    var number = 0
    for scalar in pattern.unicodeScalars {
      if "*+?|{".unicodeScalars.contains(scalar) { choices += 1 }
      if let digit = Int(String(scalar)), scalar.isASCII {
        number = number * 10 + digit
        if number > 20 { return false }
      } else {
        number = 0
      }
    }
    return choices <= 3
  }

  /// Where `Regex` is known to answer otherwise, on purpose (see `ClassEscape`): its `\w` does not count
  /// an ASCII digit or `_` followed by a scalar at or above U+0300 as a word character, and its `\W` and
  /// `\D` take CR LF as one scalar.
  public static func isKnownDifference(pattern: String, id: String) -> Bool {
    let scalars = Array(id.unicodeScalars)
    if pattern.contains("\\W") || pattern.contains("\\D"), zip(scalars, scalars.dropFirst()).contains(where: { $0 == "\r" && $1 == "\n" }) {
      return true
    }
    guard pattern.contains("\\w") || pattern.contains("\\W") else { return false }
    return zip(scalars, scalars.dropFirst()).contains { scalar, next in
      ((scalar >= "0" && scalar <= "9") || scalar == "_") && next.value >= 0x300
    }
  }
}
