/// Two keys of one screen that name the same handler in different spellings (`onFav(_:)`, `onFav( _: )`).
public enum DuplicateHandlerRule: PlanRule {
  public static let id = "duplicate-handler"
  public static let summary = "A screen maps each handler once, however its name is spelt."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      \(config)
            1️⃣"open(item: at:)": HOME_OPEN_AGAIN
      """, expecting: [.error("handler 'open(item: at:)' of 'Home' is 'open(item:at:)', which 'open(item:at:)' already maps")]),
    .passes(
      """
      \(config)
            open(item:): HOME_OPEN_ITEM
      """),
  ]

  /// The examples' screen and its first handler.
  private static let config = """
    version: 1
    screens:
      Home:
        control_events:
          open(item:at:): HOME_OPEN
    """

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    // By index: a screen taken by value is copied whole (see `ResolvedPlan.init`).
    let screens = plan.config.screens
    for screen in screens.indices {
      let controls = screens[screen].controlEvents
      // Keys written identically are YAML duplicate keys already; two spellings can only collide when one
      // of them is not written canonically (spaces, backticks), which is rare, so most screens stop here.
      guard controls.indices.contains(where: { !controls[$0].isCanonicallySpelt }) else { continue }
      var seen: [String: Located<String>] = [:]
      for control in controls {
        guard case .success(let name) = control.handler else { continue }
        let canonical = name.canonical
        if let first = seen[canonical] {
          context.report(
            Self.self,
            "handler '\(control.key.value)' of '\(screens[screen].name.value)' is '\(canonical)', which '\(first.value)' already maps",
            at: control.key.range, notes: [Diagnostic.Note("first mapped here", at: context.location(first.range))])
        } else {
          seen[canonical] = control.key
        }
      }
    }
  }
}
