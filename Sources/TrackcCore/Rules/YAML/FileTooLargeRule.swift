/// A config larger than the size limit, rejected before it is read into memory.
public enum FileTooLargeRule: Rule {
  public static let id = "file-too-large"
  public static let summary = "A config may not be larger than the size limit (32 MiB by default)."
  public static let severity = Diagnostic.Severity.error
  public static let phase = RulePhase.input

  public static let examples: [RuleExample] = [
    .triggers(
      "1️⃣version: 1\nscreens: {}\n# a long comment that takes this example over its limit", options: LintOptions(maxConfigBytes: 32),
      expecting: [.error("the config is 78 bytes, over the 32 bytes limit for a tracking config; is this the right file?")]),
    .passes("version: 1\nscreens: {}\n", options: LintOptions(maxConfigBytes: 32)),
  ]

  /// Whether the config is over the limit, by its size on disk (it is read only up to the limit) or in
  /// memory; reported once, at the start of the file. `Linter` asks before anything is parsed.
  static func check(_ source: ConfigSource, limit: Int, in context: inout RuleContext) -> Bool {
    let byteCount = max(source.fileSize, source.byteCount)
    guard byteCount > limit else { return false }
    context.report(
      Self.self,
      "the config is \(ByteCountText.describe(byteCount)), over the \(ByteCountText.describe(limit)) limit for a tracking config; is this the right file?",
      at: SourceRange(at: .start))
    return true
  }
}

enum ByteCountText {
  static func describe(_ bytes: Int) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 20 {
      let tenths = (bytes * 10) >> 20
      return "\(tenths / 10).\(tenths % 10) MiB"
    }
    return "\(bytes) bytes"
  }
}
