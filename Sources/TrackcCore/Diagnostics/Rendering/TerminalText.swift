/// Text from an input (a config's strings, a file's name) as a terminal, a log or a review page shows
/// it: characters that would act rather than show are escaped the way Swift writes them (`\u{1B}`,
/// `\u{202E}`, `\n`), as compilers escape them in their diagnostics, so that no config can colour,
/// clear or retitle a terminal (ESC), hide text (NUL, DEL) or reorder what a reader sees (the
/// bidirectional overrides of "Trojan Source").
public enum TerminalText {
  /// `text` with every character that `acts` escaped.
  public static func escaped(_ text: some StringProtocol) -> String {
    guard text.unicodeScalars.contains(where: acts) else { return String(text) }
    var result = ""
    for scalar in text.unicodeScalars {
      guard acts(scalar) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\0": result += "\\0"
      default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return result
  }

  /// Control characters (C0, DEL, C1), the bidirectional marks, embeddings, overrides and isolates,
  /// the line and paragraph separators, and the invisible zero-width space and byte order mark.
  public static func acts(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: return true
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    case 0x2028, 0x2029, 0x200B, 0xFEFF: return true
    default: return false
    }
  }
}
