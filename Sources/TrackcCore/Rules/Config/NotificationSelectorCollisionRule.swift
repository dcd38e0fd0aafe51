/// Two entry points whose notification selectors one payload can satisfy both of.
public enum NotificationSelectorCollisionRule: PlanRule {
  public static let id = "notification-selector-collision"
  public static let summary = "No notification payload may select two entry points: selectors must differ in a value of a key both test."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      \(config)
        chat: {screen: Chat, 1️⃣notification: {match: {category: chat}}}
      """,
      expecting: [
        .error(
          "the notification of entry point 'chat' collides with that of entry point 'order': a payload such as {category: chat, type: order_shipped} selects both"
        )
      ]),
    .passes(
      """
      \(config)
        chat: {screen: Chat, notification: {match: {type: chat_message, category: chat}}}
      """),
  ]

  /// The examples' screens and the first entry point, whose selector the second must not collide with.
  private static let config = """
    version: 1
    screens:
      Order: {page_events: {enter: ORDER_ENTER}}
      Chat: {page_events: {enter: CHAT_ENTER}}
    entry_points:
      order: {screen: Order, notification: {match: {type: order_shipped}}}
    """

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    for (first, second, payload) in plan.entryPoints.selectorCollisions {
      guard let notification = plan.config.entryPoints[second].notification, let original = plan.config.entryPoints[first].notification else {
        continue
      }
      context.report(
        Self.self,
        "the notification of entry point '\(plan.config.entryPoints[second].name.value)' collides with that of entry point '\(plan.config.entryPoints[first].name.value)': a payload such as \(payload) selects both",
        at: notification.range, notes: [Diagnostic.Note("the other selector is here", at: context.location(original.range))])
    }
  }
}
