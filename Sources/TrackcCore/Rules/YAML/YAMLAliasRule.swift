/// An alias that refers to no anchor, to itself, or that expands past the alias budget (an alias bomb).
public enum YAMLAliasRule: Rule {
  public static let id = "yaml-alias"
  public static let summary = "Aliases must refer to an earlier anchor and must not expand past a fixed budget."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      screens:
        Home: {page_events: {enter: 1️⃣*missing}}
      """),
    .triggers("""
      version: 1
      a: &a [x, x, x, x, x, x, x, x, x, x]
      b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
      c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
      d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
      e: &e [*d, *d, *d, *d, *d, *d, *d, 1️⃣*d, *d, *d]
      f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
      screens: {}
      """),
    .passes("""
      version: 1
      destinations: {firebase: {}, mixpanel: {}}
      screens:
        Home:
          control_events:
            onShare(_:): {event: HOME_SHARE, destinations: &web_only [firebase]}
            onFav(_:): {event: HOME_FAV, destinations: *web_only}
      """),
  ]
}
