/// A `version` other than the one this trackc reads.
public enum InvalidVersionRule: Rule {
  public static let id = "invalid-version"
  public static let summary = "'version' must be 1, the config format this trackc reads."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("version: 1️⃣2\nscreens: {}\n"),
    .triggers("version: 1️⃣\"1\"\nscreens: {}\n"),
    .triggers("version: 1️⃣1.0\nscreens: {}\n"),
    .passes("version: 1\nscreens: {}\n"),
  ]
}
