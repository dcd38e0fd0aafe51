/// `call: screen` on an event that is not a page's enter event. A Segment screen call says a screen was
/// shown; only the enter event is that (a leave, a handler, an entry point or an application event is
/// not), and the runtime sends each of those as a track call whatever the plan says.
public enum ScreenCallRule: PlanRule {
  public static let id = "screen-call"
  public static let summary = "Only a page's enter event can go as a screen call ('call: screen'); every other event goes as a track call."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        Home:
          page_events:
            leave: {event: HOME_LEAVE, call: 1️⃣screen}
          control_events:
            onFav(_:): {event: HOME_FAV, call: 2️⃣screen}
      """,
      expecting: [
        .error("the leave page event of 'Home' cannot go as a screen call: only an enter page event can; say 'call: track' or leave 'call' out"),
        .error("handler 'onFav(_:)' of 'Home' cannot go as a screen call: only an enter page event can; say 'call: track' or leave 'call' out"),
      ]),
    .passes(
      """
      version: 1
      screens:
        Home:
          page_events:
            enter: {event: HOME_ENTER, call: screen}
            leave: {event: HOME_LEAVE, call: track}
        Cart:
          page_events:
            enter: {event: CART_ENTER, call: track, wire_name: Cart Viewed}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    plan.forEachLongFormEvent { event, details in
      guard let call = details.call, call.value == .screen, event.trigger != .page(.enter) else { return }
      context.report(
        Self.self,
        "\(plan.describe(event)) cannot go as a screen call: only an enter page event can; say 'call: track' or leave 'call' out",
        at: call.range)
    }
  }
}
