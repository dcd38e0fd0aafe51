/// A page event bound to a handler parameter: page events come from the lifecycle, which has no
/// handler, so only the screen's state (`self.`) can be read.
public enum BindingOnPageEventRule: PlanRule {
  public static let id = "binding-on-page-event"
  public static let summary = "A page event's bindings can read only the screen's state ('self.selectedTab'), not a handler parameter."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      \(config)
              properties: {product_id: {from: 1️⃣id}, animated: {from: 2️⃣animated}}
      """,
      expecting: [
        .error(
          "property 'product_id' of the enter page event of 'Home' reads 'id', a handler parameter, but a page event has no handler (it fires on 'enter'); it can read only the screen's state, through a 'self.' path to one of its properties"
        ),
        .error(
          "property 'animated' of the enter page event of 'Home' reads 'animated', a handler parameter, but a page event has no handler (it fires on 'enter'); it can read only the screen's state, through a 'self.' path to one of its properties"
        ),
      ]),
    .passes(
      """
      \(config)
              properties: {tab: {from: self.selectedTab}}
          control_events:
            open(id:): {event: HOME_OPEN, properties: {product_id: {from: id}}}
      """),
  ]

  /// The examples' page event, up to its properties.
  private static let config = """
    version: 1
    screens:
      Home:
        page_events:
          enter:
            event: HOME_ENTER
    """

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    for binding in plan.bindings {
      let event = plan[binding.event]
      guard case .page(let phase) = event.trigger, let property = plan.written(binding).binding,
        case .success(let path)? = property.path, case .parameter(let name) = path.root, let source = property.source
      else { continue }
      context.report(
        Self.self,
        "property '\(plan.written(binding).key.value)' of \(plan.describe(event)) reads '\(Diagnostic.excerpt(name))', a handler parameter, but a page event has no handler (it fires on '\(phase.rawValue)'); it can read only the screen's state, through a 'self.' path to one of its properties",
        at: source.range)
    }
  }
}
