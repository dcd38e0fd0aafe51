/// A mapping defines the same key twice; YAML forbids it and the second would silently win elsewhere.
public enum DuplicateKeyRule: Rule {
  public static let id = "duplicate-key"
  public static let summary = "A key appears twice in one mapping (the note points at the first)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      screens:
        Home:
          page_events:
            enter: HOME_ENTER
            1️⃣enter: HOME_ENTER_AGAIN
      """),
    .triggers("""
      version: 1
      screens:
        Home: {page_events: {enter: A}}
        1️⃣"Home": {page_events: {enter: B}}
      """),
    .passes("""
      version: 1
      screens:
        Home: {page_events: {enter: HOME_ENTER, leave: HOME_LEAVE}}
        Cart: {page_events: {enter: CART_ENTER}}
      """),
  ]
}
