/// What a decoded value (a path segment or a query value) looks like, as one of a few disjoint kinds:
/// every parameter type accepts either all values of a kind or none (`LinkValueType.accepts`), so the
/// compiler can decide statically which patterns two links can share, and the generated matcher can
/// branch on a kind instead of trying each pattern.
public enum SegmentKind: UInt8, Sendable, Hashable, CaseIterable, Comparable {
  /// ASCII digits whose value fits `Int` (and `Int64`).
  case int
  /// ASCII digits that fit `Int64` but not `Int` (only where `Int` is 32 bits wide).
  case int64
  /// ASCII digits too large for `Int64`.
  case digits
  /// A UUID in its canonical textual form: 8-4-4-4-12 hexadecimal digits, either case.
  case uuid
  /// ASCII letters, digits, `-` and `_` (Django's slug), and not one of the kinds above.
  case slug
  /// Any other non-empty text without control characters.
  case text
  /// Nothing: `//` in a path, `?q=`.
  case empty
  /// Text holding a control character (U+0000-U+001F, U+007F-U+009F).
  case control

  public static func < (lhs: SegmentKind, rhs: SegmentKind) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The kind of decoded UTF-8 bytes.
  @inlinable
  public static func of<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> SegmentKind {
    if bytes.isEmpty { return .empty }
    var allDigits = true
    var slug = true
    var previous: UInt8 = 0
    for byte in bytes {
      if byte < 0x20 || byte == 0x7F { return .control }
      // U+0080-U+009F are C2 80 - C2 9F in UTF-8.
      if previous == 0xC2 && byte >= 0x80 && byte <= 0x9F { return .control }
      previous = byte
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): break
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "_"):
        allDigits = false
      default:
        allDigits = false
        slug = false
      }
    }
    if allDigits {
      guard let value = LinkNumber.int64(bytes) else { return .digits }
      return Int.bitWidth >= 64 || (value >= Int64(Int.min) && value <= Int64(Int.max)) ? .int : .int64
    }
    if slug && LinkNumber.isUUID(bytes) { return .uuid }
    return slug ? .slug : .text
  }

  /// The kind of a string (a literal of a pattern, a notification value).
  public static func of(_ text: String) -> SegmentKind {
    of(Array(text.utf8))
  }
}

/// Numbers and UUIDs as links write them.
public enum LinkNumber {
  /// ASCII digits as an `Int64`; nil when empty, not all digits, or too large.
  @inlinable
  public static func int64<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int64? {
    guard !bytes.isEmpty else { return nil }
    var value: Int64 = 0
    for byte in bytes {
      guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
      let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
      if overflow1 || overflow2 { return nil }
      value = sum
    }
    return value
  }

  /// 8-4-4-4-12 hexadecimal digits separated by `-`.
  @inlinable
  public static func isUUID<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
    guard bytes.count == 36 else { return false }
    for (index, byte) in bytes.enumerated() {
      if index == 8 || index == 13 || index == 18 || index == 23 {
        if byte != UInt8(ascii: "-") { return false }
      } else if hexValue(byte) == nil {
        return false
      }
    }
    return true
  }

  @inlinable
  public static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}

/// The 64-bit FNV-1a hash of decoded bytes: what the generated matcher switches on to find a literal
/// among thousands in a few comparisons. The compiler hashes each literal with this same function; a
/// match is always confirmed by comparing the bytes, so a collision costs a comparison, never a wrong
/// route.
public enum LinkHash {
  public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  public static let prime: UInt64 = 0x0000_0100_0000_01B3

  @inlinable
  public static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes, foldingCase: Bool = false) -> UInt64 {
    var hash = offsetBasis
    for var byte in bytes {
      if foldingCase && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 32 }
      hash = (hash ^ UInt64(byte)) &* prime
    }
    return hash
  }

  public static func hash(_ text: String, foldingCase: Bool = false) -> UInt64 {
    hash(text.utf8, foldingCase: foldingCase)
  }
}

/// Percent-encoding as trackc writes links: every byte but RFC 3986's unreserved characters escaped,
/// so a value is one segment or one query value whatever it holds.
public enum LinkEncoding {
  public static func percentEncoded(_ text: String) -> String {
    let hex = Array("0123456789ABCDEF".unicodeScalars)
    var result = String.UnicodeScalarView()
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
        result.append(Unicode.Scalar(byte))
      default:
        result.append("%")
        result.append(hex[Int(byte >> 4)])
        result.append(hex[Int(byte & 0xF)])
      }
    }
    return String(result)
  }

  /// A path segment: encoded, and `.` or `..` escaped so that no URL library resolves them away.
  public static func segment(_ text: String) -> String {
    text == "." || text == ".." ? String(repeating: "%2E", count: text.count) : percentEncoded(text)
  }
}
