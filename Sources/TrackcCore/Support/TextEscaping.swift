/// Every way trackc escapes text for another language, one function a language: Swift string literals
/// (generated code), markup (the HTML plan, the Android manifest, the privacy manifest), JSON strings
/// (the registry file, the collector's records, exports) and Markdown (plan diffs and the privacy
/// export). A string from a config, a registry or a request goes into output through these only, so that
/// it cannot break out of its place; each escapes what its language gives a meaning to, and the Swift
/// literal and markup every character that is not plainly visible as well.
///
/// The runtime (`TrackcRuntime`, which apps link and which imports nothing of this module) writes its
/// upload bodies with a JSON string writer of its own.
package enum TextEscaping {
  /// Whether a character is not plainly visible: a control, a separator, a bidirectional or zero-width
  /// format character, an unassigned or private code point. None reaches generated code as itself.
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return true }
    if scalar.isASCII { return false }
    switch scalar.properties.generalCategory {
    case .format, .lineSeparator, .paragraphSeparator, .control, .unassigned, .privateUse, .surrogate, .spaceSeparator:
      return true
    default:
      return false
    }
  }

  // MARK: Swift

  /// A Swift string literal holding exactly `text`: quotes, backslashes and every invisible character
  /// escaped, so the literal is one line, cannot end early, has no interpolation, and reads as it will
  /// compare. The only way generated code gets a string literal.
  static func swiftStringLiteral(_ text: String) -> String {
    var result = "\""
    append(text, to: &result) { scalar in
      switch scalar {
      case "\"": return "\\\""
      case "\\": return "\\\\"
      case "\n": return "\\n"
      case "\r": return "\\r"
      case "\t": return "\\t"
      case "\0": return "\\0"
      default: return isInvisible(scalar) ? "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" : nil
      }
    }
    return result + "\""
  }

  // MARK: Markup

  /// Text for HTML or XML, as element content or a quoted attribute value: `&`, `<`, `>`, `"` and `'` as
  /// character references; what XML 1.0 cannot hold even as a reference (C0 controls but tab, line feed
  /// and carriage return; U+FFFE and U+FFFF) as U+FFFD; every other invisible character (a tab, a line
  /// feed or a carriage return too, which an attribute value or a parser would otherwise normalise) as a
  /// numeric reference. Every string XML can hold reads back exactly.
  static func markup(_ text: String, into output: inout String) {
    append(text, to: &output) { scalar in
      switch scalar {
      case "&": return "&amp;"
      case "<": return "&lt;"
      case ">": return "&gt;"
      case "\"": return "&quot;"
      case "'": return "&#39;"
      case "\t", "\n", "\r": return "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
      case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": return "\u{FFFD}"
      default: return isInvisible(scalar) ? "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";" : nil
      }
    }
  }

  static func markup(_ text: String) -> String {
    var output = ""
    markup(text, into: &output)
    return output
  }

  /// Text inside an XML comment: one line of visible characters (`SwiftSource.commentText`), never `--`
  /// (which would end the comment), as markup.
  static func markupComment(_ text: String) -> String {
    var result = SwiftSource.commentText(text)
    while result.contains("--") { result = result.replacing("--", with: "- -") }
    return markup(result)
  }

  /// Appends `text` to `output`, each scalar as `replacement` gives it, or as itself where that is nil.
  private static func append(_ text: String, to output: inout String, replacing replacement: (Unicode.Scalar) -> String?) {
    // Most text has nothing to replace: appended whole.
    guard text.unicodeScalars.contains(where: { replacement($0) != nil }) else {
      output += text
      return
    }
    for scalar in text.unicodeScalars {
      if let replaced = replacement(scalar) {
        output += replaced
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
  }

  // MARK: JSON

  /// `text` as a JSON string, quotes included, appended as UTF-8: `"` and `\` escaped, control
  /// characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`, and U+2028 and U+2029, which end a line in
  /// JavaScript, as `\u2028` and `\u2029`.
  static func appendJSONString(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var text = text
    let copied = text.withUTF8 { utf8 in
      // Most strings need no escaping: copied whole. (0xE2 leads U+2028 and U+2029 in UTF-8.)
      guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0xE2 }) else { return false }
      output.append(contentsOf: utf8)
      return true
    }
    if !copied {
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": output += #"\""#.utf8
        case "\\": output += #"\\"#.utf8
        case "\n": output += #"\n"#.utf8
        case "\r": output += #"\r"#.utf8
        case "\t": output += #"\t"#.utf8
        case "\u{8}": output += #"\b"#.utf8
        case "\u{C}": output += #"\f"#.utf8
        case "\u{2028}": output += #"\u2028"#.utf8
        case "\u{2029}": output += #"\u2029"#.utf8
        case _ where scalar.value < 0x20:
          output += #"\u00"#.utf8
          output.append(hexDigits[Int(scalar.value >> 4)])
          output.append(hexDigits[Int(scalar.value & 0xF)])
        default:
          UTF8.encode(scalar) { output.append($0) }
        }
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  /// `text` as a JSON string, quotes included (see `appendJSONString`).
  package static func jsonString(_ text: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count + 2)
    appendJSONString(text, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  // MARK: Markdown

  /// Text made inert for Markdown (GitHub's included): the characters that can start emphasis, code, a
  /// link, an image, HTML, an entity, a table cell or strike-through are backslash-escaped (CommonMark
  /// allows that for any ASCII punctuation), `:` too so that no URL becomes a link; line breaks become
  /// spaces; control characters and bidirectional overrides are escaped (`TerminalText`). A config's
  /// strings cannot add links, images, HTML or cells to a pull-request comment, or reorder its text.
  static func markdown(_ text: String) -> String {
    let flat = text.contains(where: \.isNewline) ? text.split(whereSeparator: \.isNewline).joined(separator: " ") : text
    var escaped = ""
    for scalar in TerminalText.escaped(flat).unicodeScalars {
      if "\\`*_{}[]()<>|!~&#:".unicodeScalars.contains(scalar) { escaped.unicodeScalars.append("\\") }
      escaped.unicodeScalars.append(scalar)
    }
    return escaped
  }
}
