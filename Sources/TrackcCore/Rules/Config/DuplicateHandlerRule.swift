/// Two keys of one screen that name the same handler in different spellings (`onFav(_:)`, `onFav( _: )`).
public enum DuplicateHandlerRule: ConfigRule {
  public static let id = "duplicate-handler"
  public static let summary = "A screen maps each handler once, however its name is spelt."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      screens:
        Home:
          control_events:
            open(item:at:): HOME_OPEN
            1️⃣"open(item: at:)": HOME_OPEN_AGAIN
      """),
    .passes("""
      version: 1
      screens:
        Home:
          control_events:
            open(item:at:): HOME_OPEN
            open(item:): HOME_OPEN_ITEM
      """),
  ]

  public static func check(_ config: TrackingConfig, in context: inout RuleContext) {
    for screen in config.screens where screen.controlEvents.count > 1 {
      var seen: [HandlerName: Located<String>] = [:]
      for control in screen.controlEvents {
        guard case .success(let name) = control.handler else { continue }
        if let first = seen[name] {
          context.report(
            Self.self,
            "handler '\(control.key.value)' of '\(screen.name.value)' is '\(name.canonical)', which '\(first.value)' already maps",
            at: control.key.range, notes: [Diagnostic.Note("first mapped here", at: context.location(first.range))])
        } else {
          seen[name] = control.key
        }
      }
    }
  }
}
