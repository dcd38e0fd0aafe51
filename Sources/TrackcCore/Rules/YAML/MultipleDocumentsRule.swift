/// A second YAML document (`---`) in the config, which would otherwise be silently ignored.
public enum MultipleDocumentsRule: Rule {
  public static let id = "multiple-documents"
  public static let summary = "A config is one YAML document; a second '---' document is an error."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      screens: {}
      1️⃣---
      version: 1
      screens: {}
      """),
    .passes("""
      ---
      version: 1
      screens: {}
      ...
      """),
  ]
}
