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
    if text.isEmpty { return failure("a handler name cannot be empty") }
    if let open = text.firstIndex(of: "(") {
      return parseSwiftName(text, open: open).mapError { ParseError(message: $0.message) }
    }
    if text.contains(")") { return failure("'\(text)' has ')' without '('") }
    if text.contains(":") { return parseSelector(text) }
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
    guard text.hasSuffix(")") else {
      return failure("'\(text)' must end with ')' after its argument labels, as in 'open(item:at:)'")
    }
    let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
    if inside.contains("(") || inside.contains(")") {
      return failure("'\(text)' has nested parentheses; write only the argument labels, as in 'open(item:at:)'")
    }
    var labels: [String] = []
    let trimmed = inside.filter { $0 != " " }
    if !trimmed.isEmpty {
      guard trimmed.hasSuffix(":") else {
        return failure("'\(text)': every argument label ends with ':', as in 'open(item:at:)' or 'onTap(_:)'")
      }
      for label in trimmed.dropLast().split(separator: ":", omittingEmptySubsequences: false) {
        if label.isEmpty {
          return failure("'\(text)' has an empty argument label; write '_:' for an unlabeled argument")
        }
        guard label == "_" || SwiftIdentifier.isValid(label, as: .member) else {
          return failure("'\(text)': '\(label)' is not a valid argument label")
        }
        labels.append(unescaped(label))
      }
    }
    return .success(.swiftName(base: unescaped(base), labels: labels))
  }

  private static func parseSelector(_ text: String) -> Result<HandlerName, ParseError> {
    func failure(_ message: String) -> Result<HandlerName, ParseError> { .failure(ParseError(message: message)) }
    guard text.hasSuffix(":") else {
      return failure("'\(text)' looks like an Objective-C selector but does not end with ':'; every piece ends with ':', as in 'openWithItem:at:'")
    }
    if text.contains(" ") { return failure("'\(text)': an Objective-C selector has no spaces") }
    let pieces = text.dropLast().split(separator: ":", omittingEmptySubsequences: false)
    guard let first = pieces.first, !first.isEmpty else {
      return failure("'\(text)' has no method name before the first ':'")
    }
    for (index, piece) in pieces.enumerated() where !(index > 0 && piece.isEmpty) {
      guard !piece.hasPrefix("`"), SwiftIdentifier.isValid(piece, as: .member) else {
        return failure("'\(text)': '\(piece)' is not a valid selector piece")
      }
    }
    return .success(.selector(pieces.map(String.init)))
  }

  private static func unescaped(_ name: Substring) -> String {
    name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : String(name)
  }
}
