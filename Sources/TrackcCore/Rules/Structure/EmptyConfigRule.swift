/// A config with no content (an empty file, or only comments).
public enum EmptyConfigRule: StructureRule {
  public static let id = "empty-config"
  public static let summary = "The config must not be empty."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("1️⃣", expecting: [.error("the config is empty; a trackc config starts with 'version: 1' and lists its 'screens'")]),
    .triggers(
      "1️⃣# only a comment\n# and another\n",
      expecting: [.error("the config is empty; a trackc config starts with 'version: 1' and lists its 'screens'")]),
    .passes("version: 1\nscreens: {}\n"),
  ]

  // Found by the config decoder (`ConfigProblem.empty`).
  static func report(at position: SourcePosition, in context: inout RuleContext) {
    context.report(
      Self.self, "the config is empty; a trackc config starts with 'version: 1' and lists its 'screens'", at: SourceRange(at: position))
  }
}
