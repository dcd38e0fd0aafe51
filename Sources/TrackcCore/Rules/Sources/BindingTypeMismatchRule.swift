/// A binding whose type in the plan (its `type:`, the plan's `properties`, the first use of its name, or,
/// when the config gives the name no type, the first binding of it the code resolves) is not what the
/// Swift value is: one property name has one type in a plan.
public enum BindingTypeMismatchRule: CodeRule {
  public static let id = "binding-type-mismatch"
  public static let summary =
    "A binding's Swift value must have the property's type: its 'type:', the plan's 'properties', else the name's first use, in the config or in the code (an integer also fits a double)."
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
          "property 'position' of handler 'open(_:at:)' of 'FeedViewController': the plan's 'properties' make it a string, but 'at' is 'Int', an int on the wire"
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
    // No type in the config: the first use decides, whether a literal on another event or the code.
    .triggers(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        CartViewController:
          control_events:
            add(quantity:): {event: CART_ADD, properties: {amount: {from: quantity}}}
            remove(id:): {event: CART_REMOVE, properties: {amount: {from: 1️⃣id}}}
            share(id:): {event: CART_SHARE, properties: {count: {from: 2️⃣id}}}
            open(id:): {event: CART_OPEN, properties: {count: 4}}
      """,
      swift: [
        "Sources/Cart/Cart.swift":
          "final class CartViewController {\n  func add(quantity: Int) {}\n  func remove(id: String) {}\n  func share(id: String) {}\n  func open(id: String) {}\n}\n"
      ],
      expecting: [
        .error(
          "property 'amount' of handler 'remove(id:)' of 'CartViewController': 'quantity' ('Int') of handler 'add(quantity:)' of 'CartViewController' makes it an int, but 'id' is 'String', a string on the wire; a name has one type in a plan, its first use's (declare it under 'properties' to choose)"
        ),
        .error(
          "property 'count' of handler 'share(id:)' of 'CartViewController': the value of handler 'open(id:)' of 'CartViewController' makes it an int, but 'id' is 'String', a string on the wire; a name has one type in a plan, its first use's (declare it under 'properties' to choose)"
        ),
      ]),
    .passes(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        CartViewController:
          control_events:
            add(quantity:): {event: CART_ADD, properties: {amount: {from: quantity}, source: cart}}
            remove(count:): {event: CART_REMOVE, properties: {amount: {from: count}}}
            share(id:count:): {event: CART_SHARE, properties: {source: {from: id}, price: {from: count}}}
            open(id:): {event: CART_OPEN, properties: {price: 4.5}}
      """,
      swift: [
        "Sources/Cart/Cart.swift":
          "final class CartViewController {\n  func add(quantity: Int) {}\n  func remove(count: Int) {}\n  func share(id: String, count: Int) {}\n  func open(id: String) {}\n}\n"
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    let plan = code.plan
    code.forEachBinding { site in
      guard case .resolved(let value) = site.resolution else { return }
      let name = site.property.key.value
      var notes = [Diagnostic.Note("'\(site.source.value)' is declared here, as '\(value.valueType.name)'", at: value.declaration)]
      // Where the expected type comes from, said as such.
      let origin: String
      let expected: PropertyType
      var firstUse = false
      if let declared = site.property.binding?.declaredType {
        expected = declared.value
        origin = "\(site.subject) declares it \(PropertyTypeConflictRule.article(expected))"
        notes.insert(Diagnostic.Note("declared type", at: context.location(declared.range)), at: 0)
      } else if let planType = plan.propertyTypes[name] {
        expected = planType.type
        switch planType.origin {
        case .declaration(let range):
          origin = "\(site.subject): the plan's 'properties' make it \(PropertyTypeConflictRule.article(expected))"
          notes.insert(Diagnostic.Note("declared here", at: context.location(range)), at: 0)
        case .usage(let first, let range, let isBinding):
          let what = isBinding ? "the 'type:' of \(plan.describe(plan[first]))" : "the value of \(plan.describe(plan[first]))"
          origin = "\(site.subject): \(what) makes it \(PropertyTypeConflictRule.article(expected))"
          firstUse = true
          notes.insert(Diagnostic.Note("first used here", at: context.location(range)), at: 0)
        }
      } else if let first = code.codePropertyTypes[name], first.first != site.binding.id {
        expected = first.type
        let firstBinding = plan[first.first]
        let firstSource = plan.written(firstBinding).binding?.source
        var firstValue = "'\(firstSource?.value ?? "")'"
        if case .resolved(let firstResolved) = code.resolution(of: first.first) { firstValue += " ('\(firstResolved.valueType.name)')" }
        origin = "\(site.subject): \(firstValue) of \(plan.describe(plan[firstBinding.event])) makes it \(PropertyTypeConflictRule.article(expected))"
        firstUse = true
        if let firstSource { notes.insert(Diagnostic.Note("first used here", at: context.location(firstSource.range)), at: 0) }
      } else {
        return
      }
      guard !value.wireType.fits(expected) else { return }
      context.report(
        Self.self,
        "\(origin), but '\(site.source.value)' is '\(value.valueType.name)', \(PropertyTypeConflictRule.article(value.wireType)) on the wire"
          + (firstUse ? "; a name has one type in a plan, its first use's (declare it under 'properties' to choose)" : ""),
        at: site.source.range, notes: notes)
    }
  }
}
