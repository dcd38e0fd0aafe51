/// A second YAML document (`---`) in the config, which would otherwise be silently ignored.
public enum MultipleDocumentsRule: YAMLRule {
  public static let id = "multiple-documents"
  public static let summary = "A config is one YAML document; a second '---' document is an error."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens: {}
      1️⃣---
      version: 1
      screens: {}
      """, expecting: [.error("the config holds more than one YAML document; a trackc config is a single document")]),
    .passes(
      """
      ---
      version: 1
      screens: {}
      ...
      """),
  ]

  // Found by the YAML reader (`YAMLProblem.multipleDocuments`) at the second document's start.
  static func report(at position: SourcePosition, firstDocument: SourcePosition?, in context: inout RuleContext) {
    context.report(
      Self.self, "the config holds more than one YAML document; a trackc config is a single document", at: SourceRange(at: position),
      notes: firstDocument.map { [Diagnostic.Note("the first document starts here", at: context.location(SourceRange(at: $0)))] } ?? [])
  }
}
