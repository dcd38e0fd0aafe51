/// One event ID mapped from two places, so analytics cannot tell them apart.
public enum DuplicateEventIDRule: ConfigRule {
  public static let id = "duplicate-event-id"
  public static let summary = "An event ID should be mapped from one place only; a second mapping is a warning naming both."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      screens:
        Home:
          page_events: {enter: HOME_ENTER}
          control_events:
            onFav(_:): FAV
        Detail:
          control_events:
            onFav(_:): 1️⃣FAV
            onStar(_:): {event: 2️⃣FAV}
      """),
    .passes("""
      version: 1
      screens:
        Home: {control_events: {onFav(_:): HOME_FAV}}
        Detail: {control_events: {onFav(_:): DETAIL_FAV}}
      """),
  ]

  public static func check(_ config: TrackingConfig, in context: inout RuleContext) {
    // Where each ID is first mapped: screen index, trigger and range (not the screen itself, which would
    // copy its arrays into a dictionary a hundred thousand entries large).
    var first: [String: (screen: Int, trigger: TrackingConfig.Trigger, range: SourceRange)] = [:]
    first.reserveCapacity(config.eventCount)
    for (screenIndex, screen) in config.screens.enumerated() {
      screen.forEachEvent { trigger, event in
        let id = event.id.value
        guard let original = first[id] else {
          first[id] = (screenIndex, trigger, event.id.range)
          return
        }
        context.report(
          Self.self,
          "event ID '\(id)' of \(trigger.describe(on: screen)) is also mapped from \(original.trigger.describe(on: config.screens[original.screen]))",
          at: event.id.range,
          notes: [Diagnostic.Note("'\(id)' is first mapped here", at: context.location(original.range))])
      }
    }
  }
}
