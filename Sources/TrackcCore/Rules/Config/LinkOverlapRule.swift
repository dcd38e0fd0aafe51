/// Two link patterns that can match the same URL: which screen opens would depend on order.
public enum LinkOverlapRule: PlanRule {
  public static let id = "link-overlap"
  public static let summary =
    "No URL may match two link patterns (decided by type: '{id:int}' and '{id:uuid}' never meet); the message gives a URL both match."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        User: {page_events: {enter: USER_ENTER}}
        Team: {page_events: {enter: TEAM_ENTER}}
        Search: {page_events: {enter: SEARCH_ENTER}}
        Tag: {page_events: {enter: TAG_ENTER}}
      links: {schemes: [app]}
      entry_points:
        user: {screen: User, links: ["/user/{id:int}/{tab:slug}"]}
        team: {screen: Team, links: [1️⃣"/user/{name:slug}/{page:int}"]}
        search: {screen: Search, links: ["/search?q={q:string}"]}
        tag: {screen: Tag, links: [2️⃣"/search?tag={tag:string}"]}
      """,
      expecting: [
        .error(
          "link pattern '/user/{name:slug}/{page:int}' of entry point 'team' overlaps '/user/{id:int}/{tab:slug}' of entry point 'user': both match app://user/1/1"
        ),
        .error(
          "link pattern '/search?tag={tag:string}' of entry point 'tag' overlaps '/search?q={q:string}' of entry point 'search': both match app://search?q=1&tag=1"
        ),
      ]),
    .passes(
      """
      version: 1
      screens:
        User: {page_events: {enter: USER_ENTER}}
        Orders: {page_events: {enter: ORDERS_ENTER}}
        Order: {page_events: {enter: ORDER_ENTER}}
        Refund: {page_events: {enter: REFUND_ENTER}}
        Settings: {page_events: {enter: SETTINGS_ENTER}}
      links: {schemes: [app]}
      entry_points:
        user: {screen: User, links: ["/user/{id:int}"]}
        orders: {screen: Orders, links: ["/user/{id:uuid}/orders"]}
        order: {screen: Order, links: ["/order/{id:int}?tab={tab:enum(items|billing)}"]}
        refund: {screen: Refund, links: ["/order/{id:int}?tab={tab:enum(refund)}"]}
        settings: {screen: Settings, links: ["/user/settings"]}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    let entryPoints = plan.entryPoints
    for overlap in entryPoints.overlaps where overlap.shadowing == nil {
      let earlier = entryPoints.links[overlap.earlier]
      let later = entryPoints.links[overlap.later]
      context.report(
        Self.self,
        "link pattern '\(Diagnostic.excerpt(later.written.value))' of entry point '\(entryPoints.routes[later.route].name)' overlaps '\(Diagnostic.excerpt(earlier.written.value))' of entry point '\(entryPoints.routes[earlier.route].name)': both match \(overlap.example)",
        at: later.written.range,
        notes: [Diagnostic.Note("'\(Diagnostic.excerpt(earlier.written.value))' is declared here", at: context.location(earlier.written.range))])
    }
  }
}
