import SwiftParser
import SwiftSyntax

/// Whether a piece of text is a Swift identifier, as swift-syntax's parser decides it.
///
/// Asking the parser costs a few microseconds a name, and a large config holds a hundred thousand; so plain
/// ASCII names that are not keywords (nearly all of them) take a fast path, and everything else (Unicode
/// names, keywords, backticks) goes to `String.isValidSwiftIdentifier(for:)`.
enum SwiftIdentifier {
  enum Role {
    /// A declared name: a type, a method's base name. Keywords need backticks.
    case declaration
    /// A name after a dot or an argument label, where most keywords are fine.
    case member
  }

  /// Every keyword swift-syntax knows (reserved and contextual), read from its `Keyword` enum.
  private static let keywords: Set<String> = {
    var result = Set<String>()
    for raw in UInt8.min...UInt8.max {
      if let keyword = Keyword(rawValue: raw) { result.insert(String(describing: keyword)) }
    }
    return result
  }()

  /// A name without the backticks that escape it: `` `default` `` is `default`.
  static func unescaped(_ name: String) -> String {
    name.hasPrefix("`") && name.hasSuffix("`") && name.count >= 2 ? String(name.dropFirst().dropLast()) : name
  }

  static func isValid(_ name: Substring, as role: Role) -> Bool {
    if let answer = name.utf8.withContiguousStorageIfAvailable({ isValid($0, as: role) }) { return answer }
    var copy = String(name)
    return copy.withUTF8 { isValid($0, as: role) }
  }

  /// The same, on UTF-8 bytes: the form the hot paths (handler and type names) have at hand.
  static func isValid(_ name: UnsafeBufferPointer<UInt8>, as role: Role) -> Bool {
    guard let first = name.first else { return false }
    if first == UInt8(ascii: "`") {
      guard name.count >= 3, name[name.count - 1] == UInt8(ascii: "`") else { return false }
      let inner = UnsafeBufferPointer(rebasing: name[1..<(name.count - 1)])
      // One pair of backticks: "``name``" is no identifier (the check below would otherwise take the
      // inner "`name`" for one, and the name would keep a pair of backticks: found by the `names` target).
      guard !inner.contains(UInt8(ascii: "`")) else { return false }
      // Inside backticks a keyword is an ordinary name.
      return isKeyword(inner) || isValid(inner, as: .member)
    }
    if isPlainASCII(name) && !isKeyword(name) { return true }
    // No identifier holds ASCII punctuation or spaces (`_` and `$` aside): such a name is refused here,
    // not handed to swift-syntax, whose parser takes exponential time on some of them (found by fuzzing:
    // a screen named `a[[[[[[[[[[[[[[[[[[x` took seconds, twice as long with each `[`).
    if name.contains(where: { $0 < 0x80 && !isIdentifierASCII($0) }) { return false }
    let text = String(decoding: name, as: UTF8.self)
    switch role {
    case .declaration: return text.isValidSwiftIdentifier(for: .variableName)
    case .member: return text.isValidSwiftIdentifier(for: .memberAccess)
    }
  }

  private static func isKeyword(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    keywords.contains(String(decoding: name, as: UTF8.self))
  }

  /// An ASCII byte an identifier may hold: a letter, a digit, `_` or `$`.
  private static func isIdentifierASCII(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "_"), UInt8(ascii: "$"):
      return true
    default:
      return false
    }
  }

  /// `[A-Za-z_][A-Za-z0-9_]*`, excluding a lone `_`.
  private static func isPlainASCII(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    for (index, byte) in name.enumerated() {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
        continue
      case UInt8(ascii: "0")...UInt8(ascii: "9") where index > 0:
        continue
      default:
        return false
      }
    }
    return !(name.count == 1 && name[0] == UInt8(ascii: "_"))
  }
}
