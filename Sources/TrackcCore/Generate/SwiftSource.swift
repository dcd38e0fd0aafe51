/// Everything that puts text from a config or a registry into generated Swift goes through here, so
/// that no string (an event ID, a property, a screen name, a file name) can break out of its place: a
/// string becomes a literal whose contents are escaped (`TextEscaping.swiftStringLiteral`), a name
/// becomes an identifier only as a `ValidIdentifier`, and a comment is one line of visible characters.
public enum SwiftSource {
  /// Text for a comment (`Comment`): one line, visible characters only (anything else becomes `?`), so
  /// that a line break in a file or type name cannot end the comment and start code.
  static func commentText(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == " " || !TextEscaping.isInvisible($0) ? $0 : "?" }))
  }

  /// A Swift identifier made from an event ID: `PAGE_HOME_ENTER` → `pageHomeEnter`, `page.home-enter` →
  /// `pageHomeEnter`, `HomeOpened` → `homeOpened`. ASCII only: other characters become `uXXXX`; a
  /// leading digit gets `_`; a keyword gets backticks; names an enum with raw values already has get `_`.
  static func identifier(fromEventID id: String) -> ValidIdentifier {
    // Words: runs of letters and digits.
    var words: [String] = []
    var current = ""
    for scalar in id.unicodeScalars {
      if isWordCharacter(scalar) {
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
      var word = word.unicodeScalars.contains(where: isLowercase) ? word : word.lowercased()
      word = (index == 0 ? word.prefix(1).lowercased() : word.prefix(1).uppercased()) + word.dropFirst()
      name += word
    }
    var ascii = asciiOnly(name)
    if ascii.isEmpty { ascii = "event" }
    if reservedMembers.contains(ascii) { ascii += "_" }
    return ValidIdentifier(derived: ascii)
  }

  /// A letter or a digit. (Most IDs are ASCII, which is answered without Unicode's property tables.)
  private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9": return true
    case _ where scalar.isASCII: return false
    default: return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
  }

  private static func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII ? ("a"..."z").contains(scalar) : scalar.properties.isLowercase
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
  private static let reservedMembers: Set<String> = [
    "rawValue", "allCases", "init", "hashValue", "hash", "self", "Type", "Protocol", "RawValue", "AllCases",
  ]

  /// A name made of `[A-Za-z0-9_]` only, for names derived from code (handler and type names) that
  /// must become one identifier: `open(item:at:)` → `open_item_at`, `onFav(_:)` → `onFav_`, `reload()` →
  /// `reload`, `Home.Cart` → `Home_Cart`.
  static func identifier(fromSwiftName name: String) -> ValidIdentifier {
    var text = name
    if let open = name.firstIndex(of: "("), name.hasSuffix(")") {
      let labels = name[name.index(after: open)..<name.index(before: name.endIndex)]
        .split(separator: ":", omittingEmptySubsequences: false).dropLast()
      text = String(name[..<open]) + labels.map { "_" + ($0 == "_" ? "" : $0) }.joined()
    }
    return ValidIdentifier(derived: text)
  }

  /// Whether `text` is one Swift identifier (not a keyword).
  public static func isIdentifier(_ text: String) -> Bool {
    !text.isEmpty && !text.contains(".") && SwiftIdentifier.isValid(Substring(text), as: .declaration)
  }
}

/// A name checked to be one Swift identifier, in backticks when it is a keyword (`` `default` ``): the
/// only way a name reaches generated code as an identifier. Names from a config, a registry or the
/// command line are checked (`init?`); names trackc derives are made of ASCII letters, digits and `_` and
/// escaped, which makes them identifiers by construction (`init(derived:)`); names of trackc's own are
/// `StaticString`s (`init(fixed:)`), which nothing read at run time can be.
struct ValidIdentifier: Hashable, Sendable, CustomStringConvertible {
  /// As written in Swift, backticks included.
  let text: String

  var description: String { text }

  /// `text` as it is, when it is an identifier where a name is declared or referenced (a keyword only
  /// in backticks) made of visible characters; nil otherwise. (Swift lets an identifier hold
  /// bidirectional overrides, which could make generated code read other than it compiles.)
  init?(_ text: String) {
    guard SwiftIdentifier.isValid(Substring(text), as: .declaration), !text.unicodeScalars.contains(where: TextEscaping.isInvisible) else {
      return nil
    }
    self.text = text
  }

  /// A name that may be a keyword (a method's base name from a Swift full name): `default` becomes
  /// `` `default` ``; nil when it is not a name at all.
  init?(escaping name: String) {
    if let plain = ValidIdentifier(name) {
      self = plain
    } else if !name.hasPrefix("`"), let escaped = ValidIdentifier("`\(name)`") {
      self = escaped
    } else {
      return nil
    }
  }

  /// A name written in trackc's own source (`Registry`, `rawValue`): a `StaticString`, which nothing
  /// read at run time can be.
  init(fixed name: StaticString) {
    self.text = name.description
    assert(ValidIdentifier(text) != nil, "'\(name)' is not an identifier")
  }

  /// A name from `[A-Za-z0-9_]` alone: any other ASCII character becomes `_`, anything else `uXXXX`; a
  /// leading digit or a lone `_` gets a prefix, a keyword backticks.
  init(derived name: String) {
    var ascii = ""
    for scalar in name.unicodeScalars {
      switch scalar {
      case "a"..."z", "A"..."Z", "0"..."9", "_": ascii.unicodeScalars.append(scalar)
      case _ where scalar.isASCII: ascii += "_"
      default: ascii += "u" + String(scalar.value, radix: 16, uppercase: true)
      }
    }
    if ascii.isEmpty || ascii == "_" { ascii = "name" + ascii }
    if ascii.first!.isNumber { ascii = "_" + ascii }
    // An ASCII word is an identifier unless it is a keyword, and a keyword in backticks always is one.
    text = SwiftIdentifier.isValid(Substring(ascii), as: .declaration) ? ascii : "`\(ascii)`"
  }

  /// The name without backticks, for deriving other names from it.
  var bare: String { text.hasPrefix("`") ? String(text.dropFirst().dropLast()) : text }

  /// The components of a (possibly dotted) type or module name (`Home.Cart`), each an identifier; nil
  /// when one is not.
  static func path(_ dotted: String) -> [ValidIdentifier]? {
    var components: [ValidIdentifier] = []
    for component in dotted.split(separator: ".", omittingEmptySubsequences: false) {
      guard let identifier = ValidIdentifier(String(component)) else { return nil }
      components.append(identifier)
    }
    return components.isEmpty ? nil : components
  }
}
