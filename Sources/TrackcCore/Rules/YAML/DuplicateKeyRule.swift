/// A mapping defines the same key twice; YAML forbids it and the second would silently win elsewhere.
public enum DuplicateKeyRule: YAMLRule {
  public static let id = "duplicate-key"
  public static let summary = "A key appears twice in one mapping (the note points at the first)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        Home:
          page_events:
            enter: HOME_ENTER
            1️⃣enter: HOME_ENTER_AGAIN
      """, expecting: [.error("duplicate key 'enter' in this mapping")]),
    .triggers(
      """
      version: 1
      screens:
        Home: {page_events: {enter: A}}
        1️⃣"Home": {page_events: {enter: B}}
      """, expecting: [.error("duplicate key 'Home' in this mapping")]),
    .passes(
      """
      version: 1
      screens:
        Home: {page_events: {enter: HOME_ENTER, leave: HOME_LEAVE}}
        Cart: {page_events: {enter: CART_ENTER}}
      """),
  ]

  // Found by the YAML reader while it builds the tree (`YAMLProblem.duplicateKey`), because the second
  // value must be dropped there: no later stage could tell which one was meant.
  static func report(key: String, at range: SourceRange, first: SourceRange, in context: inout RuleContext) {
    context.report(
      Self.self, "duplicate key '\(key)' in this mapping", at: range,
      notes: [Diagnostic.Note("'\(key)' is first defined here", at: context.location(first))])
  }
}
