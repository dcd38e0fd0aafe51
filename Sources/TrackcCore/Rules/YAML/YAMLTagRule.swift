/// A custom or mismatched YAML tag (`!python/object`, `!!int twelve`), which trackc would otherwise ignore.
public enum YAMLTagRule: Rule {
  public static let id = "yaml-tag"
  public static let summary = "Only the core schema's tags (!!str, !!int, !!float, !!bool, !!null, !!map, !!seq) are allowed."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      screens:
        Home: {page_events: {enter: 1️⃣!custom HOME_ENTER}}
      """),
    .triggers("""
      version: 1️⃣!!int one
      screens: {}
      """),
    .passes("""
      version: !!int 1
      screens:
        Home: {page_events: {enter: !!str HOME_ENTER}}
      """),
  ]
}
