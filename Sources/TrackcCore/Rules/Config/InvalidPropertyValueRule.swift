/// A property whose value is neither a string, number or boolean nor a binding (`{from: ...}`).
public enum InvalidPropertyValueRule: PlanRule {
  public static let id = "invalid-property-value"
  public static let summary = "Event property values must be a string, a finite number, a boolean, or a binding ('{from: id}')."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      \(config)
              properties:
                tags: 1️⃣[a, b]
                nested: 2️⃣{a: 1}
                missing:3️⃣
                ratio: 4️⃣.nan
      """,
      expecting: [
        .error("property 'tags' of handler 'onFav(_:)' of 'Home' must be a string, number or boolean, found a sequence"),
        .error(
          "property 'nested' of handler 'onFav(_:)' of 'Home' must be a string, number or boolean, found a mapping (a binding is written '{from: id}')"
        ), .error("property 'missing' of handler 'onFav(_:)' of 'Home' must be a string, number or boolean, found no value (null)"),
        .error("property 'ratio' of handler 'onFav(_:)' of 'Home' must be a string, number or boolean, found '.nan', which is not a finite number"),
      ]),
    .passes(
      """
      \(config)
              properties: {source: home, position: 2, ratio: 0.5, promoted: true, label: "yes", code: "007", id: {from: id}}
      """),
  ]

  /// The examples' handler, up to its properties.
  private static let config = """
    version: 1
    screens:
      Home:
        control_events:
          onFav(_:):
            event: HOME_FAV
    """

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    plan.forEachLongFormEvent { event, details in
      for property in details.properties where property.value == nil && property.binding == nil {
        context.report(
          Self.self,
          "property '\(property.key.value)' of \(plan.describe(event)) must be a string, number or boolean, found \(describe(property.found))",
          at: property.valueRange)
      }
    }
  }

  /// What was found instead of a value, in words.
  private static func describe(_ found: FoundValue) -> String {
    switch found {
    case .number(let text): return "'\(text)', which is not a finite number"
    case .null: return "no value (null)"
    case .string: return "a string"
    case .integer: return "an integer"
    case .boolean: return "a boolean"
    case .sequence: return "a sequence"
    case .mapping: return "a mapping (a binding is written '{from: id}')"
    }
  }
}
