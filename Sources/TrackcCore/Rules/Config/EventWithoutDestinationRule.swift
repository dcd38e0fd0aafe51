/// An event whose routing leaves no destination at all, so it is built and then dropped.
public enum EventWithoutDestinationRule: ConfigRule {
  public static let id = "event-without-destination"
  public static let summary = "When destinations are declared, every event should reach at least one of them."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      destinations: {firebase: {}, mixpanel: {}}
      defaults: {destinations: [firebase]}
      screens:
        Home:
          control_events:
            onFav(_:): {event: 1️⃣HOME_FAV, exclude: [firebase]}
            onShare(_:): {event: 2️⃣HOME_SHARE, destinations: []}
      """),
    .passes("""
      version: 1
      destinations: {firebase: {}, mixpanel: {}}
      defaults: {destinations: []}
      screens:
        Home:
          control_events:
            onFav(_:): {event: HOME_FAV, destinations: [mixpanel]}
      """),
  ]

  public static func check(_ config: TrackingConfig, in context: inout RuleContext) {
    guard let declared = config.destinations else { return }
    let declaredIDs = Set(declared.map(\.id.value))
    // Undeclared names are reported by unknown-destination; here they reach nothing.
    let defaults = config.defaults.destinations.map { Set($0.map(\.value)).intersection(declaredIDs) } ?? declaredIDs
    config.forEachEvent { screen, trigger, event in
      let reached: Set<String>
      if let only = event.only {
        reached = Set(only.entries.map(\.value)).intersection(declaredIDs)
      } else if let exclude = event.exclude {
        reached = defaults.subtracting(exclude.entries.map(\.value))
      } else {
        reached = defaults
      }
      guard reached.isEmpty else { return }
      context.report(Self.self, "event '\(event.id.value)' of \(trigger.describe(on: screen)) reaches no destination", at: event.id.range)
    }
  }
}
