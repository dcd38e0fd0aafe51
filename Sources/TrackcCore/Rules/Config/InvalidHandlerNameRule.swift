/// A handler key that is not a Swift name, a bare method name or an Objective-C selector.
public enum InvalidHandlerNameRule: PlanRule {
  public static let id = "invalid-handler-name"
  public static let summary = "Handler keys must be a Swift name ('open(item:at:)'), a base name ('onFav') or a selector ('openWithItem:at:')."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        Home:
          control_events:
            1️⃣onFav(sender): HOME_FAV
            2️⃣"open:at": HOME_OPEN
            3️⃣"on Share": HOME_SHARE
            4️⃣"2fast()": HOME_FAST
      """,
      expecting: [
        .error("'onFav(sender)': every argument label ends with ':', as in 'open(item:at:)' or 'onTap(_:)'"),
        .error("'open:at' looks like an Objective-C selector but does not end with ':'; every piece ends with ':', as in 'openWithItem:at:'"),
        .error("'on Share' is not a Swift method name"), .error("'2fast()': '2fast' is not a Swift method name"),
      ]),
    .passes(
      """
      version: 1
      screens:
        Home:
          control_events:
            onFav(_:): HOME_FAV
            open(item:at:): HOME_OPEN
            reload(): HOME_RELOAD
            onShare: HOME_SHARE
            "onBuy:": HOME_BUY
            "openWithItem:at:": HOME_OPEN_ITEM
            "`default`(for:)": HOME_DEFAULT
            onCafé(_:): HOME_CAFE
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    // By index, reading only the fields used: a screen or handler taken by value is copied whole (see
    // `ResolvedPlan.init`).
    let screens = plan.config.screens
    for screen in screens.indices {
      for control in screens[screen].controlEvents.indices {
        guard case .failure(let error) = screens[screen].controlEvents[control].handler else { continue }
        context.report(Self.self, error.message, at: screens[screen].controlEvents[control].key.range)
      }
    }
  }
}
