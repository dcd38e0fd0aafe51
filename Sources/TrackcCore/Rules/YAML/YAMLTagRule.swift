/// A custom or mismatched YAML tag (`!python/object`, `!!int twelve`), which trackc would otherwise ignore.
public enum YAMLTagRule: YAMLRule {
  public static let id = "yaml-tag"
  public static let summary = "Only the core schema's tags (!!str, !!int, !!float, !!bool, !!null, !!map, !!seq) are allowed."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        Home: {page_events: {enter: 1️⃣!custom HOME_ENTER}}
      """, expecting: [.error("tag '!custom' is not supported here; a trackc config uses plain YAML values")]),
    .triggers(
      """
      version: 1️⃣!!int one
      screens: {}
      """, expecting: [.error("'one' is not a valid value for tag '!!int'")]),
    .passes(
      """
      version: !!int 1
      screens:
        Home: {page_events: {enter: !!str HOME_ENTER}}
      """),
  ]

  // Found by the YAML reader on each tagged node (`YAMLProblem.unsupportedTag`, `.invalidTaggedValue`).
  static func reportUnsupported(_ tag: String, at position: SourcePosition, in context: inout RuleContext) {
    context.report(
      Self.self, "tag '\(YAMLProblem.shortTag(tag))' is not supported here; a trackc config uses plain YAML values",
      at: SourceRange(at: position))
  }

  static func reportInvalidValue(_ value: String, tag: String, at position: SourcePosition, in context: inout RuleContext) {
    context.report(Self.self, "'\(value)' is not a valid value for tag '\(YAMLProblem.shortTag(tag))'", at: SourceRange(at: position))
  }
}
