/// A static property whose value is not a string, number or boolean.
public enum InvalidPropertyValueRule: ScreenRule {
  public static let id = "invalid-property-value"
  public static let summary = "Event property values must be scalars: a string, a finite number or a boolean."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      screens:
        Home:
          control_events:
            onFav(_:):
              event: HOME_FAV
              properties:
                tags: 1️⃣[a, b]
                nested: 2️⃣{a: 1}
                missing:3️⃣
                ratio: 4️⃣.nan
      """),
    .passes("""
      version: 1
      screens:
        Home:
          control_events:
            onFav(_:):
              event: HOME_FAV
              properties: {source: home, position: 2, ratio: 0.5, promoted: true, label: "yes", code: "007"}
      """),
  ]

  public static func check(_ screen: TrackingConfig.Screen, in environment: RuleEnvironment, context: inout RuleContext) {
    screen.forEachEvent { trigger, event in
      for property in event.properties where property.value == nil {
        context.report(
          Self.self,
          "property '\(property.key.value)' of \(screen.describe(trigger)) must be a string, number or boolean, found \(property.written)",
          at: property.valueRange)
      }
    }
  }
}
