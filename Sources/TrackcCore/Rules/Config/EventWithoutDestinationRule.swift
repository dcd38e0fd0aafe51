/// An event whose routing leaves no destination at all, so it is built and then dropped.
public enum EventWithoutDestinationRule: PlanRule {
  public static let id = "event-without-destination"
  public static let summary = "When destinations are declared, every event should reach at least one of them."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      destinations: {firebase: {wire_name: Firebase}, mixpanel: {wire_name: Mixpanel}}
      defaults: {destinations: [firebase]}
      screens:
        Home:
          control_events:
            onFav(_:): {event: 1️⃣HOME_FAV, exclude: [firebase]}
            onShare(_:): {event: 2️⃣HOME_SHARE, destinations: []}
      """,
      expecting: [
        .warning("event 'HOME_FAV' of handler 'onFav(_:)' of 'Home' reaches no destination"),
        .warning("event 'HOME_SHARE' of handler 'onShare(_:)' of 'Home' reaches no destination"),
      ]),
    .passes(
      """
      version: 1
      destinations: {firebase: {wire_name: Firebase}, mixpanel: {wire_name: Mixpanel}}
      defaults: {destinations: []}
      screens:
        Home:
          control_events:
            onFav(_:): {event: HOME_FAV, destinations: [mixpanel]}
      """),
  ]

  /// Reads the routing the plan resolved: the same that the generated code carries.
  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    // By index: an event taken by value retains its routing, which most events share with each other
    // (see `ResolvedPlan.forEachEvent`).
    let events = plan.events
    for index in events.indices where events[index].routing.reachesNone {
      let event = events[index]
      let id = plan.written(event).id
      context.report(Self.self, "event '\(id.value)' of \(plan.describe(event)) reaches no destination", at: id.range)
    }
  }
}
