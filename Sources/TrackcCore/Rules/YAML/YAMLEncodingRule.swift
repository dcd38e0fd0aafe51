/// The config is not UTF-8 text (UTF-16 or UTF-32, invalid bytes, or binary data), or holds a line
/// break that only YAML 1.1 knows (so that libyaml and the editor would disagree on the lines).
public enum YAMLEncodingRule: YAMLRule {
  public static let id = "yaml-encoding"
  public static let summary = "The config must be UTF-8 text, without the line breaks only YAML 1.1 knows (U+0085, U+2028, U+2029)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      bytes: Array("version: 1\nscreens: {}\n# caf".utf8) + [0xE9] + Array("\n".utf8), at: [SourcePosition(line: 3, column: 6)],
      expecting: [
        .error(
          "the config is not valid UTF-8: byte 0xE9 here cannot start or continue a character; save the file as UTF-8 (is it Latin-1, or binary?)")
      ]),
    .triggers(
      bytes: [0xFF, 0xFE] + Array("v\0:\0 \01\0".utf8), at: [.start],
      expecting: [.error("the config is UTF-16 (little-endian byte order mark); save it as UTF-8")]),
    .triggers(
      bytes: Array("version: 1\n# a note\u{2028}screens: {}\n".utf8), at: [SourcePosition(line: 2, column: 9)],
      expecting: [
        .error(
          "the config holds a LINE SEPARATOR character (U+2028), which libyaml (YAML 1.1) reads as a line break and editors do not; remove it, or write it as \"\\u2028\" in a double-quoted string"
        )
      ]),
    .passes(
      """
      # café: UTF-8 text is fine, with or without a byte order mark
      version: 1
      screens: {}
      """),
  ]

  // Found by the YAML reader before libyaml sees the bytes (`YAMLProblem.encoding`), so that a wrong
  // encoding is reported as such rather than as a confusing syntax error.
  static func report(_ problem: TextEncoding.Problem, at position: SourcePosition, in context: inout RuleContext) {
    let message: String
    switch problem {
    case .utf16(let bigEndian):
      message = "the config is UTF-16 (\(bigEndian ? "big" : "little")-endian byte order mark); save it as UTF-8"
    case .utf32(let bigEndian):
      message = "the config is UTF-32 (\(bigEndian ? "big" : "little")-endian byte order mark); save it as UTF-8"
    case .invalidUTF8(_, let byte):
      let hex = String(byte, radix: 16, uppercase: true)
      message =
        "the config is not valid UTF-8: byte 0x\(hex.count == 1 ? "0" + hex : hex) here cannot start or continue a character; save the file as UTF-8 (is it Latin-1, or binary?)"
    }
    context.report(Self.self, message, at: SourceRange(at: position))
  }

  // Found by the YAML reader before libyaml sees the bytes (`YAMLProblem.yaml11LineBreak`).
  static func reportLineBreak(_ scalar: Unicode.Scalar, at position: SourcePosition, in context: inout RuleContext) {
    let name = scalar == "\u{85}" ? "NEXT LINE" : scalar == "\u{2028}" ? "LINE SEPARATOR" : "PARAGRAPH SEPARATOR"
    let hex = String(scalar.value, radix: 16, uppercase: true)
    let code = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    context.report(
      Self.self,
      "the config holds a \(name) character (U+\(code)), which libyaml (YAML 1.1) reads as a line break and editors do not; remove it, or write it as \"\\u\(code)\" in a double-quoted string",
      at: SourceRange(at: position))
  }
}
