/// Collections nested deeper than any config needs: rejected before they can exhaust anything.
public enum NestingDepthRule: Rule {
  public static let id = "yaml-nesting-depth"
  public static let summary = "Collections may not be nested more than 100 levels deep."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("version: 1\nscreens: " + String(repeating: "[", count: 99) + "1️⃣[]" + String(repeating: "]", count: 99)),
    .passes("version: 1\nscreens: {Home: {control_events: {onFav(_:): {event: FAV, properties: {a: 1}}}}}"),
  ]
}
