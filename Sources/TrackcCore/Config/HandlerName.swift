/// A handler key, in one of the three ways a config may name a method, parsed into one canonical form.
///
/// - Swift full name: `onFavBtnPressed(_:)`, `open(item:at:)`, `reload()`
/// - bare base name: `onFavBtnPressed` (matches any overload; ambiguity is checked against the code)
/// - Objective-C selector: `onFavBtnPressed:`, `openWithItem:at:`, `f::`
///
/// The forms are kept apart because a selector does not determine a Swift name (`openWithItem:at:` is
/// both `open(withItem:at:)` and `openWithItem(_:at:)`); matching against declared methods resolves them.
/// The name is stored as its canonical text, which for a key written canonically is the key itself:
/// parsing a hundred thousand handlers allocates nothing for them.
public struct HandlerName: Hashable, Sendable, CustomStringConvertible {
  public enum Form: UInt8, Hashable, Sendable {
    case swiftName
    case baseName
    case selector
  }

  public let form: Form
  /// The one spelling of this name: no spaces, no backticks.
  public let canonical: String

  public var description: String { canonical }

  public struct ParseError: Error, Hashable, Sendable {
    public var message: String
  }

  /// `open(item:at:)` from its parts; labels are `_` for unlabeled arguments.
  public static func swiftName(base: String, labels: [String]) -> HandlerName {
    HandlerName(form: .swiftName, canonical: base + "(" + labels.map { $0 + ":" }.joined() + ")")
  }

  public static func baseName(_ base: String) -> HandlerName {
    HandlerName(form: .baseName, canonical: base)
  }

  /// `openWithItem:at:` from its pieces.
  public static func selector(_ pieces: [String]) -> HandlerName {
    HandlerName(form: .selector, canonical: pieces.joined(separator: ":") + ":")
  }

  /// The name before any arguments (for a selector, its first piece).
  public var baseName: String {
    switch form {
    case .baseName: return canonical
    case .swiftName: return String(canonical.prefix { $0 != "(" })
    case .selector: return String(canonical.prefix { $0 != ":" })
    }
  }

  /// The argument labels of a Swift name (`_` for unlabeled ones); empty for the other forms.
  public var labels: [String] {
    guard form == .swiftName, let open = canonical.firstIndex(of: "(") else { return [] }
    return canonical[canonical.index(after: open)...].dropLast().split(separator: ":").map(String.init)
  }

  /// The pieces of a selector (`["openWithItem", "at"]`); empty for the other forms.
  public var selectorPieces: [String] {
    guard form == .selector else { return [] }
    return canonical.dropLast().split(separator: ":", omittingEmptySubsequences: false).map(String.init)
  }

  public static func parse(_ text: String) -> Result<HandlerName, ParseError> {
    var bytes = text
    // A single pass over the UTF-8 bytes decides validity; only a failure pays for finding the words.
    if let (form, isCanonical) = bytes.withUTF8(validate) {
      return .success(HandlerName(form: form, canonical: isCanonical ? text : text.filter { $0 != " " && $0 != "`" }))
    }
    return .failure(ParseError(message: problem(in: text) ?? "'\(text)' is not a valid handler name"))
  }

  /// The form of a valid name, and whether it is written canonically; nil when it is not valid.
  private static func validate(_ bytes: UnsafeBufferPointer<UInt8>) -> (Form, Bool)? {
    guard !bytes.isEmpty else { return nil }
    let isCanonical = !bytes.contains { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "`") }
    if let open = bytes.firstIndex(of: UInt8(ascii: "(")) {
      guard isValidPart(UnsafeBufferPointer(rebasing: bytes[..<open])),
        bytes[bytes.count - 1] == UInt8(ascii: ")"), open < bytes.count - 1
      else { return nil }
      // Labels, each up to its ':', with spaces allowed around them.
      var labelStart = -1
      var labelEnd = -1
      var index = open + 1
      while index < bytes.count - 1 {
        switch bytes[index] {
        case UInt8(ascii: "("), UInt8(ascii: ")"):
          return nil
        case UInt8(ascii: " "):
          break
        case UInt8(ascii: ":"):
          guard labelStart >= 0 else { return nil }
          let label = UnsafeBufferPointer(rebasing: bytes[labelStart..<labelEnd])
          guard (label.count == 1 && label[0] == UInt8(ascii: "_")) || isValidPart(label) else { return nil }
          labelStart = -1
        default:
          if labelStart < 0 {
            labelStart = index
          } else if bytes[index - 1] == UInt8(ascii: " ") {
            return nil
          }
          labelEnd = index + 1
        }
        index += 1
      }
      return labelStart < 0 ? (.swiftName, isCanonical) : nil
    }
    if bytes.contains(UInt8(ascii: ")")) { return nil }
    if bytes.contains(UInt8(ascii: ":")) {
      guard bytes[bytes.count - 1] == UInt8(ascii: ":") else { return nil }
      var pieceStart = 0
      for index in bytes.indices where bytes[index] == UInt8(ascii: ":") || bytes[index] == UInt8(ascii: " ") {
        guard bytes[index] == UInt8(ascii: ":") else { return nil }
        let piece = UnsafeBufferPointer(rebasing: bytes[pieceStart..<index])
        if piece.isEmpty {
          guard pieceStart > 0 else { return nil }
        } else if piece[0] == UInt8(ascii: "`") || !SwiftIdentifier.isValid(piece, as: .member) {
          return nil
        }
        pieceStart = index + 1
      }
      return (.selector, isCanonical)
    }
    return isValidPart(bytes) ? (.baseName, isCanonical) : nil
  }

  /// A base name or argument label: a Swift member name, in backticks or not. The canonical spelling
  /// drops backticks, so a name in backticks must be valid without them too, or its canonical spelling
  /// would not parse (found by fuzzing: `` `self` `` was accepted, and became `self`).
  private static func isValidPart(_ part: UnsafeBufferPointer<UInt8>) -> Bool {
    guard SwiftIdentifier.isValid(part, as: .member) else { return false }
    guard part.first == UInt8(ascii: "`") else { return true }
    return SwiftIdentifier.isValid(UnsafeBufferPointer(rebasing: part[1..<(part.count - 1)]), as: .member)
  }

  private static func isValidPart(_ part: Substring) -> Bool {
    var copy = String(part)
    return copy.withUTF8 { isValidPart($0) }
  }

  /// What is wrong with a name that `validate` rejected, in words.
  private static func problem(in text: String) -> String? {
    let utf8 = text.utf8
    if utf8.isEmpty { return "a handler name cannot be empty" }
    if let open = utf8.firstIndex(of: UInt8(ascii: "(")) { return swiftNameError(text, open: open) }
    if utf8.contains(UInt8(ascii: ")")) { return "'\(text)' has ')' without '('" }
    if utf8.contains(UInt8(ascii: ":")) { return selectorError(text) }
    return isValidPart(Substring(text)) ? nil : "'\(text)' is not a Swift method name"
  }

  private static func swiftNameError(_ text: String, open: String.Index) -> String? {
    let base = text[..<open]
    guard isValidPart(base) else {
      return base.isEmpty ? "'\(text)' has no base name before '('" : "'\(text)': '\(base)' is not a Swift method name"
    }
    guard text.utf8.last == UInt8(ascii: ")") else {
      return "'\(text)' must end with ')' after its argument labels, as in 'open(item:at:)'"
    }
    let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
    // One pass over the labels: each runs up to its ':'; spaces around them are allowed.
    var labelStart: String.Index?
    var labelEnd = inside.startIndex
    var index = inside.startIndex
    while index < inside.endIndex {
      switch inside.utf8[index] {
      case UInt8(ascii: "("), UInt8(ascii: ")"):
        return "'\(text)' has nested parentheses; write only the argument labels, as in 'open(item:at:)'"
      case UInt8(ascii: " "):
        break
      case UInt8(ascii: ":"):
        guard let start = labelStart else {
          return "'\(text)' has an empty argument label; write '_:' for an unlabeled argument"
        }
        let label = inside[start..<labelEnd]
        guard label == "_" || isValidPart(label) else {
          return "'\(text)': '\(label)' is not a valid argument label"
        }
        labelStart = nil
      default:
        if labelStart == nil {
          labelStart = index
        } else if inside.utf8[inside.utf8.index(before: index)] == UInt8(ascii: " ") {
          return "'\(text)': every argument label ends with ':', as in 'open(item:at:)' or 'onTap(_:)'"
        }
        labelEnd = inside.utf8.index(after: index)
      }
      index = inside.utf8.index(after: index)
    }
    if labelStart != nil {
      return "'\(text)': every argument label ends with ':', as in 'open(item:at:)' or 'onTap(_:)'"
    }
    return nil
  }

  private static func selectorError(_ text: String) -> String? {
    let utf8 = text.utf8
    guard utf8.last == UInt8(ascii: ":") else {
      return "'\(text)' looks like an Objective-C selector but does not end with ':'; every piece ends with ':', as in 'openWithItem:at:'"
    }
    var pieceStart = utf8.startIndex
    var index = utf8.startIndex
    while index < utf8.endIndex {
      let byte = utf8[index]
      if byte == UInt8(ascii: " ") { return "'\(text)': an Objective-C selector has no spaces" }
      if byte == UInt8(ascii: ":") {
        let piece = text[pieceStart..<index]
        if piece.isEmpty {
          if pieceStart == utf8.startIndex { return "'\(text)' has no method name before the first ':'" }
        } else if piece.utf8.first == UInt8(ascii: "`") || !SwiftIdentifier.isValid(piece, as: .member) {
          return "'\(text)': '\(piece)' is not a valid selector piece"
        }
        pieceStart = utf8.index(after: index)
      }
      index = utf8.index(after: index)
    }
    return nil
  }
}
