/// A property of an application event that cannot be what it says: the runtime tracks these events
/// itself, from the app's lifecycle, with no handler call or screen whose values a binding could read;
/// and it sends some properties itself (`version`, `build`, ...), whose values replace the plan's.
public enum ApplicationEventPropertyRule: PlanRule {
  public static let id = "application-event-property"
  public static let summary =
    "An application event's properties are static values, other than those the runtime sends itself (version, build, previous_version, previous_build, from_background)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens: {}
      application:
        opened:
          event: APP_OPENED
          properties: {1️⃣from_background: true, tab: {from: 2️⃣self.selectedTab}}
      """,
      expecting: [
        .error(
          "property 'from_background' of the application event 'opened' is sent by the runtime itself (a bool), whose value replaces this one; remove it"
        ),
        .error(
          "property 'tab' of the application event 'opened' reads 'self.selectedTab', but the runtime tracks application events itself, with no handler or screen to read a value from; give it a static value"
        ),
      ]),
    .passes(
      """
      version: 1
      screens: {}
      application:
        installed: APP_INSTALLED
        opened: {event: APP_OPENED, properties: {platform: ios}}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    for mapping in plan.config.application {
      let kind = mapping.kind.value
      let sent = kind.sentProperties
      for property in mapping.event.properties {
        let what = "property '\(Diagnostic.excerpt(property.key.value))' of the application event '\(kind.rawValue)'"
        if let runtime = sent.first(where: { $0.key == property.key.value }) {
          context.report(
            Self.self,
            "\(what) is sent by the runtime itself (\(runtime.type == .int ? "an" : "a") \(runtime.type)), whose value replaces this one; remove it",
            at: property.key.range)
        } else if let binding = property.binding, let source = binding.source {
          context.report(
            Self.self,
            "\(what) reads '\(Diagnostic.excerpt(source.value))', but the runtime tracks application events itself, with no handler or screen to read a value from; give it a static value",
            at: source.range)
        }
      }
    }
  }
}
