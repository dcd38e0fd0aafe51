/// Collections nested deeper than any config needs: rejected before they can exhaust anything.
public enum NestingDepthRule: YAMLRule {
  public static let id = "yaml-nesting-depth"
  public static let summary = "Collections may not be nested more than 100 levels deep."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      "version: 1\nscreens: " + String(repeating: "[", count: 99) + "1️⃣[]" + String(repeating: "]", count: 99),
      expecting: [.error("collections are nested more than 100 levels deep here; a trackc config needs only a few")]),
    .passes("version: 1\nscreens: {Home: {control_events: {onFav(_:): {event: FAV, properties: {a: 1}}}}}"),
  ]

  // Found by the YAML reader (`YAMLProblem.nestingTooDeep`), which stops there rather than recurse on.
  static func report(limit: Int, at position: SourcePosition, in context: inout RuleContext) {
    context.report(
      Self.self,
      "collections are nested more than \(NumberText.grouped(limit)) levels deep here; a trackc config needs only a few",
      at: SourceRange(at: position))
  }
}
