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

  /// Names longer than every keyword skip the keyword lookup (and the String it would need).
  private static let longestKeyword = keywords.map(\.utf8.count).max() ?? 0

  static func isValid(_ name: Substring, as role: Role) -> Bool {
    guard let first = name.utf8.first else { return false }
    if first == UInt8(ascii: "`") {
      guard name.count >= 3, name.utf8.last == UInt8(ascii: "`") else { return false }
      let inner = name.dropFirst().dropLast()
      // Inside backticks a keyword is an ordinary name.
      return keywords.contains(String(inner)) || isValid(inner, as: .member)
    }
    if isPlainASCII(name) && (name.utf8.count > longestKeyword || !keywords.contains(String(name))) { return true }
    switch role {
    case .declaration: return String(name).isValidSwiftIdentifier(for: .variableName)
    case .member: return String(name).isValidSwiftIdentifier(for: .memberAccess)
    }
  }

  /// `[A-Za-z_][A-Za-z0-9_]*`, excluding a lone `_`.
  private static func isPlainASCII(_ name: Substring) -> Bool {
    var isFirst = true
    for byte in name.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
        break
      case UInt8(ascii: "0")...UInt8(ascii: "9") where !isFirst:
        break
      default:
        return false
      }
      isFirst = false
    }
    return name != "_"
  }
}
