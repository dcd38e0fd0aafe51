/// One property name with two types in one plan: a warehouse column or a dashboard filter on it can
/// only have one, so events disagreeing about it would be dropped or mis-read downstream.
///
/// An error against the plan's `properties` or a binding; between two static values (which configs
/// written before bindings may have, and which the collector reads as either type) a warning, so that
/// an old config keeps its meaning.
public enum PropertyTypeConflictRule: PlanRule {
  public static let id = "property-type-conflict"
  public static let summary =
    "A property name has one type across the plan: its 'properties' declaration, else its first use (an integer fits a double; two literals that disagree only warn)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      properties:
        product_id: string
      screens:
        Home:
          control_events:
            open(id:): {event: HOME_OPEN, properties: {product_id: {from: id, type: 1️⃣int}, position: 1}}
            share(id:): {event: HOME_SHARE, properties: {product_id: 2️⃣42, position: 3️⃣"first"}}
      """,
      expecting: [
        .error("property 'product_id' of handler 'open(id:)' of 'Home' is an int, but the plan's 'properties' declare it a string"),
        .error("property 'product_id' of handler 'share(id:)' of 'Home' is an int, but the plan's 'properties' declare it a string"),
        .warning(
          "property 'position' of handler 'share(id:)' of 'Home' is a string, but handler 'open(id:)' of 'Home' makes it an int; one name has one type in a plan (declare it under 'properties')"
        ),
      ]),
    .passes(
      """
      version: 1
      properties:
        product_id: string
        ratio: double
      screens:
        Home:
          control_events:
            open(id:): {event: HOME_OPEN, properties: {product_id: {from: id}, ratio: 1, position: 1}}
            share(id:): {event: HOME_SHARE, properties: {product_id: sku-1, ratio: 0.5, position: {from: id, type: double}}}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    plan.forEachLongFormEvent { event, details in
      for property in details.properties {
        guard let type = ResolvedPlan.writtenType(of: property), let expected = plan.propertyTypes[property.key.value] else { continue }
        switch expected.origin {
        case .declaration(let range):
          guard !type.fits(expected.type) else { continue }
          context.report(
            Self.self,
            "property '\(property.key.value)' of \(plan.describe(event)) is \(article(type)), but the plan's 'properties' declare it \(article(expected.type))",
            at: ResolvedPlan.typeRange(of: property), notes: [Diagnostic.Note("declared here", at: context.location(range))])
        case .usage(let first, let range, let firstIsBinding):
          // Integers and doubles mix (the name is a double); anything else must be the first use's type.
          guard first != event.id || range != ResolvedPlan.typeRange(of: property) else { continue }
          guard !type.fits(expected.type) && !(type == .double && expected.type == .int) else { continue }
          context.report(
            Self.self,
            "property '\(property.key.value)' of \(plan.describe(event)) is \(article(type)), but \(plan.describe(plan[first])) makes it \(article(expected.type)); one name has one type in a plan (declare it under 'properties')",
            at: ResolvedPlan.typeRange(of: property), severity: firstIsBinding || property.binding != nil ? nil : .warning,
            notes: [Diagnostic.Note("first used here", at: context.location(range))])
        }
      }
    }
  }

  /// "a string", "an int".
  static func article(_ type: PropertyType) -> String {
    type == .int ? "an int" : "a \(type.rawValue)"
  }
}
