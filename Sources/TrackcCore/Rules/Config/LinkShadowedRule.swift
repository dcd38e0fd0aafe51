/// A link pattern every URL of which another pattern matches too: it can never be told apart.
public enum LinkShadowedRule: PlanRule {
  public static let id = "link-shadowed"
  public static let summary = "A link pattern must not be wholly shadowed by another (every URL it matches, the other matches too)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      \(config)
        product: {screen: Product, links: ["/product/{id:string}", 1️⃣"shop://product/{id:string}"]}
        newProduct: {screen: NewProduct, links: [2️⃣"https://shop.example.com/product/new"]}
      """,
      expecting: [
        .error(
          "link pattern 'shop://product/{id:string}' of entry point 'product' is shadowed by '/product/{id:string}' of entry point 'product': every URL it matches (such as shop://product/1) the other matches too"
        ),
        .error(
          "link pattern 'https://shop.example.com/product/new' of entry point 'newProduct' is shadowed by '/product/{id:string}' of entry point 'product': every URL it matches (such as https://shop.example.com/product/new) the other matches too"
        ),
      ]),
    .passes(
      """
      \(config)
        product: {screen: Product, links: ["/product/{id:int}"]}
        newProduct: {screen: NewProduct, links: ["https://shop.example.com/product/new"]}
      """),
  ]

  /// The examples' screens and link origins.
  private static let config = """
    version: 1
    screens:
      Product: {page_events: {enter: PRODUCT_ENTER}}
      NewProduct: {page_events: {enter: NEW_PRODUCT_ENTER}}
    links: {schemes: [shop], hosts: [shop.example.com]}
    entry_points:
    """

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    let entryPoints = plan.entryPoints
    for overlap in entryPoints.overlaps {
      guard let shadowing = overlap.shadowing else { continue }
      let (shadowed, by) = shadowing == .laterByEarlier ? (overlap.later, overlap.earlier) : (overlap.earlier, overlap.later)
      let inner = entryPoints.links[shadowed]
      let outer = entryPoints.links[by]
      context.report(
        Self.self,
        "link pattern '\(Diagnostic.excerpt(inner.written.value))' of entry point '\(entryPoints.routes[inner.route].name)' is shadowed by '\(Diagnostic.excerpt(outer.written.value))' of entry point '\(entryPoints.routes[outer.route].name)': every URL it matches (such as \(overlap.example)) the other matches too",
        at: inner.written.range,
        notes: [Diagnostic.Note("'\(Diagnostic.excerpt(outer.written.value))' is declared here", at: context.location(outer.written.range))])
    }
  }
}
