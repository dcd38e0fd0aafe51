/// The syntax of event ID patterns: the part of ECMAScript's and Swift `Regex`'s common syntax that a
/// matcher without backtracking can run in linear time, read into a tree (`RegexNode`).
///
/// Everything outside the subset is refused with its name (a lookahead, a backreference, an inline
/// option...) rather than read differently: a pattern means what Swift's `Regex` and an editor's
/// ECMAScript engine take it to mean, or it is an error. Where the two disagree on what a spelling means
/// (`\v`, `[:alpha:]`, `a{,2}`, `[a--b]`, an unescaped `{` that is not a quantifier), it is refused too.
/// The pattern is read one Unicode scalar at a time, as `Regex` reads it one `Character` at a time: a
/// character made of several scalars (`e` and a combining accent, `\r\n`, a flag) is refused, so that
/// the two readings cannot part.
indirect enum RegexNode: Sendable {
  case empty
  /// One Unicode scalar from the set.
  case scalar(ScalarSet)
  case sequence([RegexNode])
  case alternation([RegexNode])
  /// `max` nil: no upper bound. Laziness is not kept: it changes which match is found, never whether one is.
  case repetition(RegexNode, min: Int, max: Int?)
  /// `^`: only at the start of the ID.
  case startAnchor
  /// `$`: only at the very end of the ID (not before a final line break).
  case endAnchor
}

/// Why a pattern is refused: `invalid` where `Regex` would refuse it too, `unsupported` where it is
/// syntax outside the linear-time subset, `tooLarge` past one of the limits.
struct RegexSyntaxError: Error, Equatable, Sendable {
  enum Kind: Sendable { case invalid, unsupported, tooLarge }
  var kind: Kind
  /// What is wrong, naming the construct and where it is (characters counted from 1).
  var detail: String
  /// What to write instead, if there is something.
  var hint: String? = nil
}

/// A set of Unicode scalars: explicit ranges plus the class escapes (`\d`, `\w`, `\s` and their
/// negations) written in it, optionally negated. ASCII membership is precomputed as a 128-bit map.
struct ScalarSet: Hashable, Sendable {
  /// Sorted, non-overlapping and not adjacent.
  let ranges: [ClosedRange<UInt32>]
  let classes: [ClassEscape]
  let isNegated: Bool
  let asciiLow: UInt64
  let asciiHigh: UInt64

  init(ranges: [ClosedRange<UInt32>], classes: [ClassEscape] = [], isNegated: Bool = false) {
    self.ranges = Self.normalized(ranges)
    self.classes = classes
    self.isNegated = isNegated
    var low: UInt64 = 0
    var high: UInt64 = 0
    for value in UInt32(0)..<128 where Self.computeContains(value, self.ranges, classes, isNegated) {
      if value < 64 { low |= 1 << UInt64(value) } else { high |= 1 << UInt64(value - 64) }
    }
    asciiLow = low
    asciiHigh = high
  }

  static func single(_ value: UInt32) -> ScalarSet { ScalarSet(ranges: [value...value]) }

  /// `.`: every scalar but the line terminators, as `Regex` leaves them out (LF, VT, FF, CR, NEL,
  /// LINE SEPARATOR, PARAGRAPH SEPARATOR).
  static let dot = ScalarSet(ranges: [0x0A...0x0D, 0x85...0x85, 0x2028...0x2029], isNegated: true)

  func contains(_ value: UInt32) -> Bool {
    if value < 64 { return asciiLow & (1 << UInt64(value)) != 0 }
    if value < 128 { return asciiHigh & (1 << UInt64(value - 64)) != 0 }
    return Self.computeContains(value, ranges, classes, isNegated)
  }

  private static func computeContains(_ value: UInt32, _ ranges: [ClosedRange<UInt32>], _ classes: [ClassEscape], _ isNegated: Bool) -> Bool {
    var low = 0
    var high = ranges.count
    var found = false
    while low < high {
      let middle = (low + high) / 2
      if ranges[middle].upperBound < value {
        low = middle + 1
      } else if ranges[middle].lowerBound > value {
        high = middle
      } else {
        found = true
        break
      }
    }
    if !found { found = classes.contains { $0.contains(value) } }
    return found != isNegated
  }

  private static func normalized(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
    var merged: [ClosedRange<UInt32>] = []
    for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
        merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
      } else {
        merged.append(range)
      }
    }
    return merged
  }
}

/// `\d`, `\w`, `\s` and their negations, with the meanings `Regex` gives them under Unicode-scalar
/// semantics: a digit is any scalar with a numeric value (`٣`, `½`, `²`), a word character an ASCII
/// letter, digit or `_` or any alphabetic scalar (`é`, `中`), whitespace any White_Space scalar.
///
/// Two differences, on purpose, where `Regex`'s answer depends on what follows the scalar (its fast
/// path for ASCII reads a whole `Character`, and gives way to a slower path when the next scalar is
/// U+0300 or above): its slower path counts only alphabetic scalars as word characters, so it finds no
/// `\w` in the `1` of `1中`; and its `\W` and `\D` take a CR LF pair as one scalar. Here a scalar is in a
/// class or not, whatever follows it.
enum ClassEscape: Hashable, Sendable {
  case digit, notDigit, word, notWord, whitespace, notWhitespace

  func contains(_ value: UInt32) -> Bool {
    switch self {
    case .digit: Self.isDigit(value)
    case .notDigit: !Self.isDigit(value)
    case .word: Self.isWord(value)
    case .notWord: !Self.isWord(value)
    case .whitespace: Self.isWhitespace(value)
    case .notWhitespace: !Self.isWhitespace(value)
    }
  }

  private static func isDigit(_ value: UInt32) -> Bool {
    if value < 128 { return value >= 0x30 && value <= 0x39 }
    return Unicode.Scalar(value).map { $0.properties.numericType != nil } ?? false
  }

  private static func isWord(_ value: UInt32) -> Bool {
    if value < 128 {
      return (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A) || value == 0x5F
    }
    return Unicode.Scalar(value).map { $0.properties.isAlphabetic } ?? false
  }

  private static func isWhitespace(_ value: UInt32) -> Bool {
    if value < 128 { return value == 0x20 || (value >= 0x09 && value <= 0x0D) }
    return Unicode.Scalar(value).map { $0.properties.isWhitespace } ?? false
  }
}
