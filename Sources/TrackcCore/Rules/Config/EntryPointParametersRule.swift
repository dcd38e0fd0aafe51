/// A route parameter its sources disagree about: its type, whether it is always there, where a
/// notification keeps it.
public enum EntryPointParametersRule: PlanRule {
  public static let id = "entry-point-parameters"
  public static let summary =
    "An entry point's sources must agree on each parameter's type; notification parameters need 'from: payload.key' and a valid type; a parameter some source lacks is a warning (it becomes optional)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      \(config)
          links: ["shop://order/{id:int}"]
          1️⃣notification:
            match: {type: order_shipped}
            parameters:
              id: {from: 2️⃣order.id, type: int}
              carrier: {from: payload.carrier, type: 3️⃣carrier}
      """,
      expecting: [
        .warning(
          "the notification of entry point 'order' does not give parameter 'id', which link 'shop://order/{id:int}' requires, so the route's 'id' is optional"
        ),
        .error("'order.id' is not where a notification keeps a value; write 'payload.' and a key path of at most 8 keys, such as 'payload.order.id'"),
        .error(
          "notification parameter type 'carrier' of entry point 'order': uses an unknown parameter type 'carrier'; the types are int, int64, string, slug, uuid, path, url, enum(a|b)"
        ),
      ]),
    .triggers(
      """
      \(config)
          links: ["shop://order/{id:int}"]
          1️⃣notification:
            match: {type: order_shipped}
            parameters: {id: {from: payload.order.id, type: string}}
      """,
      expecting: [
        .error(
          "parameter 'id' of entry point 'order' is 'string' here but 'int' in link 'shop://order/{id:int}'; every source must give it the same type")
      ]),
    .passes(
      """
      \(config)
          links: ["shop://order/{id:int}?ref={ref:string?}"]
          notification:
            match: {type: order_shipped, aps.category: ORDER}
            parameters:
              id: {from: payload.order.id, type: int}
              ref: {from: payload.campaign, type: string?}
      """),
  ]

  /// The start of the examples' config, up to the entry point's links and notification, which they differ in.
  private static let config = """
    version: 1
    screens:
      Order: {page_events: {enter: ORDER_ENTER}}
    links: {schemes: [shop]}
    entry_points:
      order:
        screen: Order
    """

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    for problem in plan.entryPoints.parameterProblems {
      let entry = "entry point '\(plan.entryPoints.routes[problem.route].name)'"
      let message: String
      switch problem.kind {
      case .typeMismatch(let name, let first, let second, let source):
        message = "parameter '\(name)' of \(entry) is '\(second)' here but '\(first)' in \(source); every source must give it the same type"
      case .missing(let name, let requiredBy, let missingFrom):
        message = "\(missingFrom) of \(entry) does not give parameter '\(name)', which \(requiredBy) requires, so the route's '\(name)' is optional"
      case .payloadPath(let from):
        message =
          "'\(Diagnostic.excerpt(from))' is not where a notification keeps a value; write 'payload.' and a key path of at most \(EntryPointPlan.maximumKeyPathDepth) keys, such as 'payload.order.id'"
      case .type(let type, let kind):
        message = "notification parameter type '\(type)' of \(entry): \(LinkPatternRule.describe(kind))"
      case .defaultValue(let value, let type):
        message = "the default '\(Diagnostic.excerpt(value))' of \(entry) is not a value of type '\(type)'"
      case .matchPath(let path):
        message =
          "'\(Diagnostic.excerpt(path))' in 'match' of \(entry) is not a payload key path (at most \(EntryPointPlan.maximumKeyPathDepth) keys of letters, digits, '_' and '-', joined by '.')"
      case .parameterName(let name):
        message = "parameter name '\(name)' of \(entry) must be letters, digits and '_', not starting with a digit"
      }
      context.report(Self.self, message, at: problem.range, severity: problem.severity)
    }
  }
}
