/// An event whose routing leaves no destination at all, so it is built and then dropped.
public enum EventWithoutDestinationRule: ScreenRule {
  public static let id = "event-without-destination"
  public static let summary = "When destinations are declared, every event should reach at least one of them."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      destinations: {firebase: {}, mixpanel: {}}
      defaults: {destinations: [firebase]}
      screens:
        Home:
          control_events:
            onFav(_:): {event: 1️⃣HOME_FAV, exclude: [firebase]}
            onShare(_:): {event: 2️⃣HOME_SHARE, destinations: []}
      """),
    .passes("""
      version: 1
      destinations: {firebase: {}, mixpanel: {}}
      defaults: {destinations: []}
      screens:
        Home:
          control_events:
            onFav(_:): {event: HOME_FAV, destinations: [mixpanel]}
      """),
  ]

  public static func check(_ screen: TrackingConfig.Screen, in environment: RuleEnvironment, context: inout RuleContext) {
    guard let declared = environment.declaredDestinations else { return }
    screen.forEachEvent { trigger, event in
      let reachesSome: Bool
      if let only = event.only {
        reachesSome = only.entries.contains { declared.contains($0.value) }
      } else if let exclude = event.exclude {
        reachesSome = !environment.defaultDestinations.isSubset(of: exclude.entries.map(\.value))
      } else {
        reachesSome = !environment.defaultDestinations.isEmpty
      }
      guard !reachesSome else { return }
      context.report(Self.self, "event '\(event.id.value)' of \(screen.describe(trigger)) reaches no destination", at: event.id.range)
    }
  }
}
