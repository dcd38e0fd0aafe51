/// A binding whose declared type (`type:` or the plan's `properties`) is not what the Swift value is.
public enum BindingTypeMismatchRule: CodeRule {
  public static let id = "binding-type-mismatch"
  public static let summary =
    "A binding's declared type ('type:' or the plan's 'properties') must be the Swift value's (an integer also fits a double)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      interception: dynamic-replacement
      properties:
        position: string
      screens:
        FeedViewController:
          control_events:
            open(_:at:): {event: FEED_OPEN, properties: {product_id: {from: 1️⃣product, type: int}, position: {from: 2️⃣at}}}
      """,
      swift: ["Sources/Feed/Feed.swift": "final class FeedViewController {\n  func open(_ product: String, at position: Int) {}\n}\n"],
      expecting: [
        .error(
          "property 'product_id' of handler 'open(_:at:)' of 'FeedViewController' declares it an int, but 'product' is 'String', a string on the wire"
        ),
        .error(
          "property 'position' of handler 'open(_:at:)' of 'FeedViewController' the plan's 'properties' declare it a string, but 'at' is 'Int', an int on the wire"
        ),
      ]),
    .passes(
      """
      version: 1
      interception: dynamic-replacement
      properties:
        position: double
      screens:
        FeedViewController:
          control_events:
            open(_:at:): {event: FEED_OPEN, properties: {product_id: {from: product, type: string}, position: {from: at}}}
      """,
      swift: ["Sources/Feed/Feed.swift": "final class FeedViewController {\n  func open(_ product: String, at position: Int) {}\n}\n"]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    code.forEachBinding { site in
      guard case .resolved(let value) = site.resolution, let expected = code.plan.expectedType(of: site.property),
        !value.wireType.fits(expected)
      else { return }
      let origin: String
      var notes = [Diagnostic.Note("'\(site.source.value)' is declared here, as '\(value.valueType.name)'", at: value.declaration)]
      if let declared = site.property.binding?.declaredType {
        origin = "declares it \(PropertyTypeConflictRule.article(declared.value))"
        notes.insert(Diagnostic.Note("declared type", at: context.location(declared.range)), at: 0)
      } else {
        origin = "the plan's 'properties' declare it \(PropertyTypeConflictRule.article(expected))"
        if case .declaration(let range)? = code.plan.propertyTypes[site.property.key.value]?.origin {
          notes.insert(Diagnostic.Note("declared here", at: context.location(range)), at: 0)
        }
      }
      context.report(
        Self.self,
        "\(site.subject) \(origin), but '\(site.source.value)' is '\(value.valueType.name)', \(PropertyTypeConflictRule.article(value.wireType)) on the wire",
        at: site.source.range, notes: notes)
    }
  }
}
