/// The Objective-C selector Swift gives a method it exposes to Objective-C, derived as the compiler does.
///
/// `f()` is `f`, `f(_ x:)` is `f:`, `open(item:at:)` is `openWithItem:at:`, `move(to:)` is `moveTo:`
/// (no `With` before a preposition), `f(with x:)` is `fWith:`; a throwing method gains `error:` (or
/// `AndReturnError` when it has no other argument), an `async` one `completionHandler:` (or
/// `WithCompletionHandler`). An explicit `@objc(name:)` wins over all of this.
public enum ObjCSelector {
  /// - Parameter labels: the argument labels, nil for an unlabeled (`_`) argument.
  public static func derive(baseName: String, labels: [String?], isThrowing: Bool = false, isAsync: Bool = false) -> String {
    // An async method's completion handler comes last; a throwing one's error before it.
    let trailing: String? = isAsync ? "completionHandler" : (isThrowing ? "error" : nil)
    guard !labels.isEmpty || trailing != nil else { return baseName }
    var pieces: [String] = []
    var firstPiece = baseName
    var rest = labels[...]
    if labels.isEmpty {
      firstPiece += isAsync ? "WithCompletionHandler" : "AndReturnError"
    } else if let firstLabel = labels[0] {
      if !isPreposition(CamelCase.firstWord(of: firstLabel)) && !isPreposition(CamelCase.lastWord(of: baseName)) {
        firstPiece += "With"
      }
      firstPiece += CamelCase.capitalizingFirst(firstLabel)
      rest = labels.dropFirst()
    } else {
      rest = labels.dropFirst()
    }
    pieces.append(firstPiece)
    pieces.append(contentsOf: rest.map { $0 ?? "" })
    if let trailing, !labels.isEmpty { pieces.append(trailing) }
    return pieces.joined(separator: ":") + ":"
  }

  /// The compiler's prepositions (`include/swift/Basic/PartsOfSpeech.def`): before or after one of them,
  /// the first selector piece takes no `With`.
  static let prepositions: Set<String> = [
    "above", "after", "along", "alongside", "as", "at", "before", "below", "by", "following", "for", "from", "given",
    "in", "including", "inside", "into", "matching", "of", "on", "passing", "preceding", "since", "to", "until",
    "using", "via", "when", "with", "within",
  ]

  static func isPreposition(_ word: Substring) -> Bool {
    prepositions.contains(word.lowercased())
  }
}

/// Words of a camelCase name, as the compiler splits them for selectors.
enum CamelCase {
  static func firstWord(of name: String) -> Substring {
    let scalars = name.unicodeScalars
    guard let first = scalars.first else { return "" }
    if CharacterSet.isUppercase(first) {
      // "URLHandler" -> "URL"; "Handler" -> "Handler"
      var end = scalars.index(after: scalars.startIndex)
      while end < scalars.endIndex, CharacterSet.isUppercase(scalars[end]) {
        let next = scalars.index(after: end)
        if next < scalars.endIndex, !CharacterSet.isUppercase(scalars[next]) { break }
        end = next
      }
      while end < scalars.endIndex, !CharacterSet.isUppercase(scalars[end]) { end = scalars.index(after: end) }
      return Substring(name.unicodeScalars[..<end])
    }
    let end = scalars.firstIndex(where: CharacterSet.isUppercase) ?? scalars.endIndex
    return Substring(name.unicodeScalars[..<end])
  }

  static func lastWord(of name: String) -> Substring {
    let scalars = name.unicodeScalars
    guard let lastUpper = scalars.lastIndex(where: CharacterSet.isUppercase) else { return Substring(name) }
    return Substring(scalars[lastUpper...])
  }

  static func capitalizingFirst(_ word: String) -> String {
    guard let first = word.unicodeScalars.first else { return word }
    if (0x61...0x7A).contains(first.value) {
      return String(Unicode.Scalar(first.value - 0x20)!) + String(word.unicodeScalars.dropFirst())
    }
    return String(first).uppercased() + String(word.unicodeScalars.dropFirst())
  }

  /// Just enough of Unicode's case properties for names, without Foundation.
  enum CharacterSet {
    static func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
      scalar.isASCII ? (0x41...0x5A).contains(scalar.value) : scalar.properties.isUppercase
    }
  }
}
