/// A config with no content (an empty file, or only comments).
public enum EmptyConfigRule: Rule {
  public static let id = "empty-config"
  public static let summary = "The config must not be empty."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("1️⃣"),
    .triggers("1️⃣# only a comment\n# and another\n"),
    .passes("version: 1\nscreens: {}\n"),
  ]
}
