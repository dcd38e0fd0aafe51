/// A handler key, in one of the three ways a config may name a method, parsed into one canonical form.
///
/// - Swift full name: `onFavBtnPressed(_:)`, `open(item:at:)`, `reload()`
/// - bare base name: `onFavBtnPressed` (matches any overload; ambiguity is checked against the code)
/// - Objective-C selector: `onFavBtnPressed:`, `openWithItem:at:`, `f::`
///
/// The forms are kept apart because a selector does not determine a Swift name (`openWithItem:at:` is
/// both `open(withItem:at:)` and `openWithItem(_:at:)`); matching against declared methods resolves them.
public enum HandlerName: Hashable, Sendable, CustomStringConvertible {
  /// Labels are `_` for unlabeled arguments.
  case swiftName(base: String, labels: [String])
  case baseName(String)
  /// Selector pieces: `openWithItem:at:` is `["openWithItem", "at"]`; later pieces may be empty (`f::`).
  case selector([String])

  public struct ParseError: Error, Hashable, Sendable {
    public var message: String
  }

  /// The one spelling of this name: no spaces, no backticks.
  public var canonical: String {
    switch self {
    case .swiftName(let base, let labels): return base + "(" + labels.map { $0 + ":" }.joined() + ")"
    case .baseName(let base): return base
    case .selector(let pieces): return pieces.joined(separator: ":") + ":"
    }
  }

  public var description: String { canonical }

  /// The name before any arguments (for a selector, its first piece).
  public var baseName: String {
    switch self {
    case .swiftName(let base, _), .baseName(let base): return base
    case .selector(let pieces): return pieces[0]
    }
  }

  public static func parse(_ text: String) -> Result<HandlerName, ParseError> {
    func failure(_ message: String) -> Result<HandlerName, ParseError> { .failure(ParseError(message: message)) }
    // Structure is found on the UTF-8 view: the delimiters are ASCII, and this runs once per handler
    // of configs with a hundred thousand of them.
    let utf8 = text.utf8
    if utf8.isEmpty { return failure("a handler name cannot be empty") }
    if let open = utf8.firstIndex(of: UInt8(ascii: "(")) { return parseSwiftName(text, open: open) }
    if utf8.contains(UInt8(ascii: ")")) { return failure("'\(text)' has ')' without '('") }
    if utf8.contains(UInt8(ascii: ":")) { return parseSelector(text) }
    guard SwiftIdentifier.isValid(Substring(text), as: .member) else {
      return failure("'\(text)' is not a Swift method name")
    }
    return .success(.baseName(unescaped(Substring(text))))
  }

  private static func parseSwiftName(_ text: String, open: String.Index) -> Result<HandlerName, ParseError> {
    func failure(_ message: String) -> Result<HandlerName, ParseError> { .failure(ParseError(message: message)) }
    let base = text[..<open]
    guard SwiftIdentifier.isValid(base, as: .member) else {
      return failure(base.isEmpty ? "'\(text)' has no base name before '('" : "'\(text)': '\(base)' is not a Swift method name")
    }
    let utf8 = text.utf8
    guard utf8.last == UInt8(ascii: ")") else {
      return failure("'\(text)' must end with ')' after its argument labels, as in 'open(item:at:)'")
    }
    let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
    // One pass over the labels: each runs up to its ':'; spaces around them are allowed and dropped.
    var labels: [String] = []
    var labelStart: String.Index?
    var labelEnd = inside.startIndex
    var index = inside.startIndex
    while index < inside.endIndex {
      let byte = inside.utf8[index]
      switch byte {
      case UInt8(ascii: "("), UInt8(ascii: ")"):
        return failure("'\(text)' has nested parentheses; write only the argument labels, as in 'open(item:at:)'")
      case UInt8(ascii: " "):
        break
      case UInt8(ascii: ":"):
        guard let start = labelStart else {
          return failure("'\(text)' has an empty argument label; write '_:' for an unlabeled argument")
        }
        let label = inside[start..<labelEnd]
        guard label == "_" || SwiftIdentifier.isValid(label, as: .member) else {
          return failure("'\(text)': '\(label)' is not a valid argument label")
        }
        labels.append(unescaped(label))
        labelStart = nil
      default:
        if labelStart == nil {
          labelStart = index
        } else if inside.utf8[inside.utf8.index(before: index)] == UInt8(ascii: " ") {
          return failure("'\(text)': every argument label ends with ':', as in 'open(item:at:)' or 'onTap(_:)'")
        }
        labelEnd = inside.utf8.index(after: index)
      }
      index = inside.utf8.index(after: index)
    }
    if labelStart != nil {
      return failure("'\(text)': every argument label ends with ':', as in 'open(item:at:)' or 'onTap(_:)'")
    }
    return .success(.swiftName(base: unescaped(base), labels: labels))
  }

  private static func parseSelector(_ text: String) -> Result<HandlerName, ParseError> {
    func failure(_ message: String) -> Result<HandlerName, ParseError> { .failure(ParseError(message: message)) }
    let utf8 = text.utf8
    guard utf8.last == UInt8(ascii: ":") else {
      return failure("'\(text)' looks like an Objective-C selector but does not end with ':'; every piece ends with ':', as in 'openWithItem:at:'")
    }
    var pieces: [String] = []
    var pieceStart = utf8.startIndex
    var index = utf8.startIndex
    while index < utf8.endIndex {
      let byte = utf8[index]
      if byte == UInt8(ascii: " ") { return failure("'\(text)': an Objective-C selector has no spaces") }
      if byte == UInt8(ascii: ":") {
        let piece = text[pieceStart..<index]
        if piece.isEmpty {
          if pieces.isEmpty { return failure("'\(text)' has no method name before the first ':'") }
        } else if piece.utf8.first == UInt8(ascii: "`") || !SwiftIdentifier.isValid(piece, as: .member) {
          return failure("'\(text)': '\(piece)' is not a valid selector piece")
        }
        pieces.append(String(piece))
        pieceStart = utf8.index(after: index)
      }
      index = utf8.index(after: index)
    }
    return .success(.selector(pieces))
  }

  private static func unescaped(_ name: Substring) -> String {
    name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : String(name)
  }
}
