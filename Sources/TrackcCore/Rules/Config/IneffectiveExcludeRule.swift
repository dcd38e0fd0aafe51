/// Excluding a destination that the event would not reach anyway (it is not among the defaults).
public enum IneffectiveExcludeRule: ScreenRule {
  public static let id = "ineffective-exclude"
  public static let summary = "'exclude' should only name destinations that are among the defaults."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      destinations: {firebase: {}, mixpanel: {}, amplitude: {}}
      defaults: {destinations: [firebase, mixpanel]}
      screens:
        Home:
          control_events:
            onFav(_:): {event: HOME_FAV, exclude: [1️⃣amplitude]}
      """),
    .passes("""
      version: 1
      destinations: {firebase: {}, mixpanel: {}, amplitude: {}}
      defaults: {destinations: [firebase, mixpanel]}
      screens:
        Home:
          control_events:
            onFav(_:): {event: HOME_FAV, exclude: [mixpanel]}
      """),
  ]

  public static func check(_ screen: TrackingConfig.Screen, in environment: RuleEnvironment, context: inout RuleContext) {
    guard let declared = environment.declaredDestinations, environment.hasExplicitDefaults else { return }
    screen.forEachEvent { trigger, event in
      guard let exclude = event.exclude else { return }
      for entry in exclude.entries where declared.contains(entry.value) && !environment.defaultDestinations.contains(entry.value) {
        context.report(
          Self.self,
          "excluding '\(entry.value)' from \(screen.describe(trigger)) has no effect: it is not among the default destinations",
          at: entry.range)
      }
    }
  }
}
