/// An alias that refers to no anchor, to itself, or that expands past the alias budget (an alias bomb).
public enum YAMLAliasRule: YAMLRule {
  public static let id = "yaml-alias"
  public static let summary = "Aliases must refer to an earlier anchor and must not expand past a fixed budget."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        Home: {page_events: {enter: 1️⃣*missing}}
      """, expecting: [.error("alias '*missing' refers to no anchor; define '&missing' before using it")]),
    .triggers(
      """
      version: 1
      a: &a [x, x, x, x, x, x, x, x, x, x]
      b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
      c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
      d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
      e: &e [*d, *d, *d, *d, *d, *d, *d, 1️⃣*d, *d, *d]
      f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
      screens: {}
      """, expecting: [.error("aliases expand to more than 100,000 nodes; the file looks like an alias bomb ('billion laughs') and is rejected")]),
    .passes(
      """
      version: 1
      destinations: {firebase: {wire_name: Firebase}, mixpanel: {wire_name: Mixpanel}}
      screens:
        Home:
          control_events:
            onShare(_:): {event: HOME_SHARE, destinations: &web_only [firebase]}
            onFav(_:): {event: HOME_FAV, destinations: *web_only}
      """),
  ]

  // Found by the YAML reader as it meets each alias (`YAMLProblem.undefinedAlias`, `.recursiveAlias`,
  // `.aliasExpansionTooLarge`), so that an alias bomb is stopped before it costs anything.
  static func reportUndefined(_ name: String, at position: SourcePosition, in context: inout RuleContext) {
    context.report(Self.self, "alias '*\(name)' refers to no anchor; define '&\(name)' before using it", at: SourceRange(at: position))
  }

  static func reportRecursive(_ name: String, at position: SourcePosition, in context: inout RuleContext) {
    context.report(
      Self.self, "alias '*\(name)' refers to a node that contains it; recursive aliases are not allowed", at: SourceRange(at: position))
  }

  static func reportExpansion(anchor: String, limit: Int, at position: SourcePosition, anchorAt: SourcePosition, in context: inout RuleContext) {
    context.report(
      Self.self,
      "aliases expand to more than \(NumberText.grouped(limit)) nodes; the file looks like an alias bomb ('billion laughs') and is rejected",
      at: SourceRange(at: position),
      notes: [Diagnostic.Note("'&\(anchor)' is defined here", at: context.location(SourceRange(at: anchorAt)))])
  }
}
