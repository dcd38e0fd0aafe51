/// Two screen keys that name the same type in different spellings (`Home`, `` `Home` ``).
public enum DuplicateScreenRule: PlanRule {
  public static let id = "duplicate-screen"
  public static let summary = "Each screen type is listed once, however its name is spelt."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        Shop.Home: {page_events: {enter: HOME_ENTER}}
        1️⃣Shop.`Home`: {page_events: {leave: HOME_LEAVE}}
      """, expecting: [.error("screen 'Shop.`Home`' is 'Shop.Home', which 'Shop.Home' already lists")]),
    .passes(
      """
      version: 1
      screens:
        Shop.Home: {page_events: {enter: SHOP_HOME_ENTER}}
        Admin.Home: {page_events: {enter: ADMIN_HOME_ENTER}}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    var seen: [SwiftTypeName: Located<String>] = [:]
    // By index: a screen taken by value is copied whole (see `ResolvedPlan.init`).
    let screens = plan.config.screens
    seen.reserveCapacity(screens.count)
    for screen in screens.indices {
      guard case .success(let name) = screens[screen].typeName else { continue }
      if let first = seen[name] {
        context.report(
          Self.self, "screen '\(screens[screen].name.value)' is '\(name)', which '\(first.value)' already lists",
          at: screens[screen].name.range, notes: [Diagnostic.Note("first listed here", at: context.location(first.range))])
      } else {
        seen[name] = screens[screen].name
      }
    }
  }
}
