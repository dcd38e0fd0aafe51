/// An entry point or parameter name that cannot name a `Route` case or its associated value, or that
/// two names would share.
public enum EntryPointNameRule: PlanRule {
  public static let id = "entry-point-name"
  public static let summary =
    "Entry point names must be letters, digits and '_' (not starting with a digit) and give distinct Swift case names; so must an entry point's parameter names."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      \(config)
        1️⃣orderShipped: {screen: Order, shortcut: {type: com.example.b, title: B}}
        2️⃣2fa: {screen: Order, shortcut: {type: com.example.c, title: C}}
      """,
      expecting: [
        .error("entry points 'order_shipped' and 'orderShipped' would both be 'Route.orderShipped'; rename one"),
        .error("entry point name '2fa' must be letters, digits and '_', not starting with a digit"),
      ]),
    .passes(
      """
      \(config)
        order_returned: {screen: Order, shortcut: {type: com.example.b, title: B}}
      """),
  ]

  /// The examples' screen and first entry point.
  private static let config = """
    version: 1
    screens:
      Order: {page_events: {enter: ORDER_ENTER}}
    entry_points:
      order_shipped: {screen: Order, shortcut: {type: com.example.a, title: A}}
    """

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    var cases: [String: String] = [:]
    for entry in plan.config.entryPoints {
      let name = entry.name.value
      guard LinkPattern.isName(Substring(name)) else {
        context.report(Self.self, "entry point name '\(name)' must be letters, digits and '_', not starting with a digit", at: entry.name.range)
        continue
      }
      let identifier = RouteNames.caseName(name).text
      if let first = cases[identifier] {
        context.report(
          Self.self, "entry points '\(first)' and '\(name)' would both be 'Route.\(identifier)'; rename one", at: entry.name.range)
      } else {
        cases[identifier] = name
      }
    }
    for route in plan.entryPoints.routes {
      var labels: [String: String] = [:]
      for parameter in route.parameters {
        let label = RouteNames.label(parameter.name).text
        if let first = labels[label] {
          context.report(
            Self.self, "parameters '\(first)' and '\(parameter.name)' of entry point '\(route.name)' would both be '\(label)'; rename one",
            at: plan.config.entryPoints[route.entry].name.range)
        } else {
          labels[label] = parameter.name
        }
      }
    }
  }
}
