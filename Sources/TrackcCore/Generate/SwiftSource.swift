/// Everything that puts text from a config or a registry into generated Swift goes through here, so
/// that no string (an event ID, a property, a screen name, a file name) can break out of its place.
public enum SwiftSource {
  /// A string literal holding exactly `text`: quotes, backslashes and every character that is not
  /// plainly visible (controls, line and paragraph separators, bidirectional and zero-width format
  /// characters, unassigned code points) are escaped, so the literal is one line, cannot end early, has
  /// no interpolation, and reads as it will compare.
  static func stringLiteral(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\0": result += "\\0"
      default:
        if needsEscape(scalar) {
          result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return true }
    if scalar.isASCII { return false }
    switch scalar.properties.generalCategory {
    case .format, .lineSeparator, .paragraphSeparator, .control, .unassigned, .privateUse, .surrogate, .spaceSeparator:
      return true
    default:
      return false
    }
  }

  /// Text for a `//` comment: one line, visible characters only.
  static func commentText(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == " " || !needsEscape($0) ? $0 : "?" }))
  }

  /// A Swift identifier made from an event ID: `PAGE_HOME_ENTER` → `pageHomeEnter`, `page.home-enter` →
  /// `pageHomeEnter`, `HomeOpened` → `homeOpened`. ASCII only: other characters become `uXXXX`; a
  /// leading digit gets `_`; a keyword gets backticks; names an enum with raw values already has get `_`.
  static func identifier(fromEventID id: String) -> String {
    // Words: runs of letters and digits.
    var words: [String] = []
    var current = ""
    for scalar in id.unicodeScalars {
      if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
        current.unicodeScalars.append(scalar)
      } else if !current.isEmpty {
        words.append(current)
        current = ""
      }
    }
    if !current.isEmpty { words.append(current) }
    var name = ""
    for (index, word) in words.enumerated() {
      // An all-capitals word is lowered; a mixed-case one keeps its inner capitals.
      var word = word.unicodeScalars.contains(where: \.properties.isLowercase) ? word : word.lowercased()
      word = (index == 0 ? word.prefix(1).lowercased() : word.prefix(1).uppercased()) + word.dropFirst()
      name += word
    }
    var ascii = asciiOnly(name)
    if ascii.isEmpty { ascii = "event" }
    if ascii.first!.isNumber { ascii = "_" + ascii }
    if reservedMembers.contains(ascii) { ascii += "_" }
    return escapedIdentifier(ascii)
  }

  /// ASCII only: anything else becomes `uXXXX`.
  private static func asciiOnly(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      if scalar.isASCII { result.unicodeScalars.append(scalar) } else { result += "u" + String(scalar.value, radix: 16, uppercase: true) }
    }
    return result
  }

  /// Members every `enum: String, CaseIterable` already has.
  private static let reservedMembers: Set<String> = ["rawValue", "allCases", "init", "hashValue", "hash", "self", "Type", "Protocol", "RawValue", "AllCases"]

  /// A name known to be an identifier, in backticks when it is a keyword (`default`, `class`).
  static func escapedIdentifier(_ name: String) -> String {
    SwiftIdentifier.isValid(Substring(name), as: .declaration) ? name : "`\(name)`"
  }

  /// A name made of `[A-Za-z0-9_]` only, for names derived from code (handler and type names) that
  /// must become one identifier: `open(item:at:)` → `open_item_at`, `onFav(_:)` → `onFav_`, `reload()` →
  /// `reload`, `Home.Cart` → `Home_Cart`.
  static func identifier(fromSwiftName name: String) -> String {
    var text = name
    if let open = name.firstIndex(of: "("), name.hasSuffix(")") {
      let labels = name[name.index(after: open)..<name.index(before: name.endIndex)]
        .split(separator: ":", omittingEmptySubsequences: false).dropLast()
      text = String(name[..<open]) + labels.map { "_" + ($0 == "_" ? "" : $0) }.joined()
    }
    // ASCII punctuation (dots, say) becomes `_`.
    let underscored = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
      !scalar.isASCII || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" ? scalar : "_"
    }))
    var result = asciiOnly(underscored)
    if result.isEmpty || result == "_" { result = "name" + result }
    if result.first!.isNumber { result = "_" + result }
    return escapedIdentifier(result)
  }

  /// Whether `text` is one Swift identifier (not a keyword).
  public static func isIdentifier(_ text: String) -> Bool {
    !text.isEmpty && !text.contains(".") && SwiftIdentifier.isValid(Substring(text), as: .declaration)
  }

  /// Whether `text` is a (possibly dotted) Swift type or module name: what may stand in an import or an
  /// extension unquoted.
  static func isTypeName(_ text: String) -> Bool {
    !text.isEmpty && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { SwiftIdentifier.isValid($0, as: .declaration) }
  }
}
