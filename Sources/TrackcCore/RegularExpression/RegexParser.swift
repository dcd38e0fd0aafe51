/// Reads a pattern into a `RegexNode`, refusing what is outside the subset (see `RegexNode`).
struct RegexParser {
  /// Patterns longer than this are refused before they are read.
  static let maxLength = 10_000
  /// The largest count a `{m,n}` quantifier may give.
  static let maxRepetition = 1_000
  /// Groups nested deeper than this are refused (the reader and the compiler recurse on groups).
  static let maxNesting = 100

  private let scalars: [Unicode.Scalar]
  private var position = 0
  private var depth = 0

  private init(_ scalars: [Unicode.Scalar]) {
    self.scalars = scalars
  }

  static func parse(_ source: String) throws(RegexSyntaxError) -> RegexNode {
    var offset = 0
    for character in source {
      let count = character.unicodeScalars.count
      if count > 1 {
        let codes = character.unicodeScalars.map(\.codePoint).joined(separator: " ")
        throw RegexSyntaxError(
          kind: .unsupported,
          detail:
            "a character of several Unicode scalars at character \(offset + 1), \(String(character).debugDescription) (\(codes)), which Regex would read as one",
          hint: "write each scalar as \\u{...}")
      }
      offset += count
      if offset > maxLength {
        throw RegexSyntaxError(kind: .tooLarge, detail: "the pattern is longer than \(NumberText.grouped(maxLength)) characters")
      }
    }
    var parser = RegexParser(Array(source.unicodeScalars))
    let tree = try parser.parseAlternation()
    if parser.position < parser.scalars.count {
      // Only an unbalanced `)` stops the top-level alternation early.
      throw parser.invalid("the ')' at character \(parser.position + 1) closes no group")
    }
    return tree
  }

  // MARK: - Structure

  private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

  private func peek(_ ahead: Int) -> Unicode.Scalar? {
    position + ahead < scalars.count ? scalars[position + ahead] : nil
  }

  private func invalid(_ detail: String) -> RegexSyntaxError { RegexSyntaxError(kind: .invalid, detail: detail) }
  private func unsupported(_ detail: String, hint: String? = nil) -> RegexSyntaxError {
    RegexSyntaxError(kind: .unsupported, detail: detail, hint: hint)
  }

  private mutating func parseAlternation() throws(RegexSyntaxError) -> RegexNode {
    var branches = [try parseSequence()]
    while peek == "|" {
      position += 1
      branches.append(try parseSequence())
    }
    return branches.count == 1 ? branches[0] : .alternation(branches)
  }

  private mutating func parseSequence() throws(RegexSyntaxError) -> RegexNode {
    var items: [RegexNode] = []
    while let next = peek, next != "|", next != ")" {
      let start = position
      let atom = try parseAtom()
      items.append(try parseQuantifier(of: atom, at: start))
    }
    switch items.count {
    case 0: return .empty
    case 1: return items[0]
    default: return .sequence(items)
    }
  }

  private mutating func parseAtom() throws(RegexSyntaxError) -> RegexNode {
    let start = position
    let scalar = scalars[position]
    switch scalar {
    case "(":
      return try parseGroup()
    case "[":
      return .scalar(try parseClass())
    case ".":
      position += 1
      return .scalar(.dot)
    case "^":
      position += 1
      return .startAnchor
    case "$":
      position += 1
      return .endAnchor
    case "\\":
      switch try parseEscape(inClass: false) {
      case .scalar(let value): return .scalar(.single(value))
      case .classEscape(let escape): return .scalar(ScalarSet(ranges: [], classes: [escape]))
      }
    case "*", "+", "?":
      throw invalid("the quantifier '\(scalar)' at character \(start + 1) has nothing to repeat")
    case "{":
      if (try quantifierBounds()) != nil {
        position = start
        throw invalid("the quantifier at character \(start + 1) has nothing to repeat")
      }
      position = start
      throw unsupported("a '{' that does not begin a quantifier at character \(start + 1)", hint: "write '\\{' for the character")
    default:
      position += 1
      return .scalar(.single(scalar.value))
    }
  }

  private mutating func parseGroup() throws(RegexSyntaxError) -> RegexNode {
    let open = position
    position += 1
    if peek == "?" {
      let construct: String? =
        switch (peek(1), peek(2)) {
        case (":", _): nil
        case ("=", _): "a lookahead '(?='"
        case ("!", _): "a negative lookahead '(?!'"
        case ("<", "="): "a lookbehind '(?<='"
        case ("<", "!"): "a negative lookbehind '(?<!'"
        case ("<", _), ("P", _), ("'", _): "a named group"
        case (">", _): "an atomic group '(?>'"
        case ("#", _): "a comment group '(?#'"
        case ("|", _): "a branch reset group '(?|'"
        default: "the group syntax '(?\(peek(1).map { String($0) } ?? "")' (inline options such as '(?i)' among others)"
        }
      if let construct { throw unsupported("\(construct) at character \(open + 1)") }
      position += 2
    } else if peek == "*" {
      throw unsupported("the verb or group syntax '(*' at character \(open + 1)")
    }
    depth += 1
    if depth > Self.maxNesting {
      throw RegexSyntaxError(kind: .tooLarge, detail: "groups are nested more than \(Self.maxNesting) deep (at character \(open + 1))")
    }
    let inner = try parseAlternation()
    depth -= 1
    guard peek == ")" else { throw invalid("the group opened at character \(open + 1) is not closed: expected ')'") }
    position += 1
    return inner
  }

  // MARK: - Quantifiers

  private mutating func parseQuantifier(of atom: RegexNode, at atomStart: Int) throws(RegexSyntaxError) -> RegexNode {
    let start = position
    let bounds: (min: Int, max: Int?)
    switch peek {
    case "*":
      bounds = (0, nil)
      position += 1
    case "+":
      bounds = (1, nil)
      position += 1
    case "?":
      bounds = (0, 1)
      position += 1
    case "{":
      guard let counted = try quantifierBounds() else { return atom }
      bounds = counted
    default:
      return atom
    }
    if scalars[atomStart] == "^" || scalars[atomStart] == "$" {
      throw invalid("the anchor at character \(atomStart + 1) cannot be repeated")
    }
    if peek == "?" {
      position += 1  // lazy: the same matches exist
    } else if peek == "+" {
      throw unsupported("a possessive quantifier at character \(start + 1)", hint: "drop the '+' after the quantifier")
    }
    if let next = peek, next == "*" || next == "+" || next == "?" || (next == "{" && startsQuantifier()) {
      throw invalid("the quantifier at character \(position + 1) follows another; group what it repeats: '(...)'")
    }
    return .repetition(atom, min: bounds.min, max: bounds.max)
  }

  private mutating func startsQuantifier() -> Bool {
    let start = position
    defer { position = start }
    return (try? quantifierBounds()) != nil
  }

  /// `{m}`, `{m,}` or `{m,n}` at the position, which it passes; nil (the position kept) if the `{`
  /// begins none of them. `{,n}`, which `Regex` reads as `{0,n}` and ECMAScript as text, is refused.
  private mutating func quantifierBounds() throws(RegexSyntaxError) -> (min: Int, max: Int?)? {
    let start = position
    position += 1
    if peek == "," {
      if let after = peek(1), after >= "0", after <= "9" {
        throw unsupported("the quantifier '{,n}' at character \(start + 1)", hint: "write '{0,n}'")
      }
      position = start
      return nil
    }
    guard let minimum = try number(quantifierAt: start) else {
      position = start
      return nil
    }
    var maximum: Int? = minimum
    if peek == "," {
      position += 1
      maximum = try number(quantifierAt: start)
    }
    guard peek == "}" else {
      position = start
      return nil
    }
    position += 1
    if let maximum, maximum < minimum {
      throw invalid("the quantifier at character \(start + 1) has a maximum below its minimum ({\(minimum),\(maximum)})")
    }
    return (minimum, maximum)
  }

  private mutating func number(quantifierAt start: Int) throws(RegexSyntaxError) -> Int? {
    var value = 0
    var digits = 0
    while let scalar = peek, scalar >= "0", scalar <= "9" {
      value = min(value * 10 + Int(scalar.value - 0x30), Self.maxRepetition + 1)
      digits += 1
      position += 1
    }
    guard digits > 0 else { return nil }
    if value > Self.maxRepetition {
      throw RegexSyntaxError(
        kind: .tooLarge, detail: "the quantifier at character \(start + 1) counts past \(NumberText.grouped(Self.maxRepetition))")
    }
    return value
  }

  // MARK: - Character classes

  private mutating func parseClass() throws(RegexSyntaxError) -> ScalarSet {
    let open = position
    position += 1
    let isNegated = peek == "^"
    if isNegated { position += 1 }
    switch peek {
    case ":":
      throw unsupported(
        "a class beginning with ':' at character \(open + 1), which Regex reads as a POSIX class such as '[:alpha:]'",
        hint: "write '\\:' for the character")
    case "]":
      throw unsupported("an empty class or a ']' first in a class at character \(open + 1)", hint: "write '\\]' for the character")
    default:
      break
    }
    var ranges: [ClosedRange<UInt32>] = []
    var classes: [ClassEscape] = []
    var isFirst = true
    while true {
      guard let next = peek else { throw invalid("the class opened at character \(open + 1) is not closed: expected ']'") }
      if next == "]" {
        position += 1
        break
      }
      if next == "[" {
        throw unsupported(
          "a '[' inside a class at character \(position + 1) (nested classes and POSIX classes)", hint: "write '\\[' for the character")
      }
      if let operation = setOperation() {
        throw unsupported("'\(operation)' inside a class at character \(position + 1) (a set operation in Regex)", hint: "escape the characters")
      }
      if next == "-" && !isFirst && peek(1) != "]" {
        throw unsupported(
          "a '-' inside a class at character \(position + 1) that is neither first, last nor between two characters", hint: "write '\\-'")
      }
      let memberStart = position
      let member = try parseClassMember()
      isFirst = false
      if peek == "-", let after = peek(1), after != "]" {
        position += 1
        if after == "[" || after == "-" {
          throw unsupported("'-\(after)' inside a class at character \(position)", hint: "write '\\\(after)' for the character")
        }
        let upper = try parseClassMember()
        guard case .scalar(let low) = member, case .scalar(let high) = upper else {
          throw invalid("the range at character \(memberStart + 1) must run between two characters, not a class such as '\\d'")
        }
        guard low <= high else {
          throw invalid("the range at character \(memberStart + 1) runs backwards (U+\(hex(low)) to U+\(hex(high)))")
        }
        ranges.append(low...high)
        continue
      }
      switch member {
      case .scalar(let value): ranges.append(value...value)
      case .classEscape(let escape): classes.append(escape)
      }
    }
    return ScalarSet(ranges: ranges, classes: classes, isNegated: isNegated)
  }

  /// `--`, `&&` or `~~` at the position: `Regex`'s set operations, which ECMAScript reads as characters.
  private func setOperation() -> String? {
    guard let first = peek, let second = peek(1), first == second, first == "-" || first == "&" || first == "~" else { return nil }
    return "\(first)\(second)"
  }

  private enum Member {
    case scalar(UInt32)
    case classEscape(ClassEscape)
  }

  private mutating func parseClassMember() throws(RegexSyntaxError) -> Member {
    if peek == "\\" { return try parseEscape(inClass: true) }
    let value = scalars[position].value
    position += 1
    return .scalar(value)
  }

  // MARK: - Escapes

  private mutating func parseEscape(inClass: Bool) throws(RegexSyntaxError) -> Member {
    let start = position
    position += 1
    guard let scalar = peek else { throw invalid("the pattern ends with a lone '\\'") }
    position += 1
    switch scalar {
    case "d": return .classEscape(.digit)
    case "D": return .classEscape(.notDigit)
    case "w": return .classEscape(.word)
    case "W": return .classEscape(.notWord)
    case "s": return .classEscape(.whitespace)
    case "S": return .classEscape(.notWhitespace)
    case "t": return .scalar(0x09)
    case "n": return .scalar(0x0A)
    case "r": return .scalar(0x0D)
    case "f": return .scalar(0x0C)
    case "u", "x":
      return .scalar(try parseCodePoint(scalar, at: start))
    case "b" where inClass:
      throw unsupported("'\\b' inside a class at character \(start + 1) (a backspace in Regex)", hint: "write '\\u{8}'")
    case "b", "B", "A", "z", "Z", "G":
      throw unsupported("the anchor '\\\(scalar)' at character \(start + 1)", hint: "of the anchors, '^' and '$' are supported")
    case "1"..."9", "0", "k", "g":
      throw unsupported("a backreference or octal escape '\\\(scalar)' at character \(start + 1)")
    case "p", "P":
      throw unsupported("the Unicode property '\\\(scalar)' at character \(start + 1)")
    case "Q", "E":
      throw unsupported("quoting with '\\Q...\\E' at character \(start + 1)", hint: "escape each character instead")
    default:
      if scalar.isASCII, scalar.properties.isAlphabetic {
        throw unsupported("the escape '\\\(scalar)' at character \(start + 1)")
      }
      if scalar.isASCII, scalar.value >= 0x20, scalar.value < 0x7F {
        return .scalar(scalar.value)  // '\.', '\\', '\-', '\ ' and the other ASCII punctuation: the character itself
      }
      throw invalid("'\\' followed by \(String(scalar).debugDescription) at character \(start + 1) is not an escape")
    }
  }

  /// `\u{h...}`, `\uhhhh`, `\x{h...}` or `\xhh`: a Unicode scalar by its code point.
  private mutating func parseCodePoint(_ letter: Unicode.Scalar, at start: Int) throws(RegexSyntaxError) -> UInt32 {
    let form = letter == "u" ? "'\\u{...}' or '\\uhhhh'" : "'\\x{...}' or '\\xhh'"
    var digits: [UInt32] = []
    if peek == "{" {
      position += 1
      while let scalar = peek, let digit = hexValue(scalar), digits.count < 8 {
        digits.append(digit)
        position += 1
      }
      guard !digits.isEmpty, peek == "}" else {
        throw invalid("the escape at character \(start + 1) must be \(form), one to eight hexadecimal digits in braces")
      }
      position += 1
    } else {
      let count = letter == "u" ? 4 : 2
      while digits.count < count, let scalar = peek, let digit = hexValue(scalar) {
        digits.append(digit)
        position += 1
      }
      guard digits.count == count else {
        throw invalid("the escape at character \(start + 1) must be \(form), with exactly \(count) hexadecimal digits")
      }
    }
    let value = digits.reduce(UInt32(0)) { $0 &* 16 &+ $1 }
    guard Unicode.Scalar(value) != nil else {
      throw invalid("the escape at character \(start + 1) names U+\(hex(value)), which is not a Unicode scalar")
    }
    return value
  }

  private func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
    switch scalar {
    case "0"..."9": scalar.value - 0x30
    case "a"..."f": scalar.value - 0x61 + 10
    case "A"..."F": scalar.value - 0x41 + 10
    default: nil
    }
  }
}

private func hex(_ value: UInt32) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

extension Unicode.Scalar {
  fileprivate var codePoint: String { "U+\(hex(value))" }
}
