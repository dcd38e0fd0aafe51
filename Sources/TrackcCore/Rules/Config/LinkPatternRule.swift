import TrackcRouting

/// A link pattern that does not parse, pointed at the character where it goes wrong.
public enum LinkPatternRule: PlanRule {
  public static let id = "link-pattern"
  public static let summary =
    "Link patterns must parse: balanced braces, known parameter types, distinct names, a catch-all only last, non-empty enums, declared schemes and hosts."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        Product: {page_events: {enter: PRODUCT_ENTER}}
      links: {schemes: [shop], hosts: [shop.example.com]}
      entry_points:
        product:
          screen: Product
          links:
            - shop://product/1️⃣{id:int
            - /product/{id:2️⃣integer}
            - /product/{id:int}/{3️⃣id:int}
            - /p/{id:int}?id={4️⃣id:int?}
            - /files/5️⃣{rest:path}/edit
            - /tab/{tab:6️⃣enum()}
            - 7️⃣shpo://product/{id:int}
            - https://8️⃣shop.example.org/product/{id:int}
      """,
      expecting: [
        .error(
          "link pattern 'shop://product/{id:int' has an unbalanced brace: a parameter is '{name:type}' and fills a whole segment or query value"),
        .error(
          "link pattern '/product/{id:integer}' uses an unknown parameter type 'integer'; the types are int, int64, string, slug, uuid, path, url, enum(a|b)"
        ), .error("link pattern '/product/{id:int}/{id:int}' declares parameter 'id' twice"),
        .error("link pattern '/p/{id:int}?id={id:int?}' uses the name 'id' for both a path and a query parameter"),
        .error("link pattern '/files/{rest:path}/edit' has a catch-all '{…:path}' that is not the last segment"),
        .error("link pattern '/tab/{tab:enum()}' has an empty enum; list its values as 'enum(a|b)'"),
        .error("link pattern 'shpo://product/{id:int}' uses the scheme 'shpo', which 'links.schemes' does not declare"),
        .error(
          "link pattern 'https://shop.example.org/product/{id:int}' uses the host 'shop.example.org', which 'links.hosts' does not declare; did you mean 'shop.example.com'?"
        ),
      ]),
    .passes(
      """
      version: 1
      screens:
        Product: {page_events: {enter: PRODUCT_ENTER}}
      links: {schemes: [shop], hosts: [shop.example.com]}
      entry_points:
        product:
          screen: Product
          links:
            - shop://product/{id:int}
            - https://shop.example.com/product/{id:int}?ref={ref:string?}&page={page:int=1}
        review: {screen: Product, links: ["https://shop.example.com/p/{slug:slug}/{tab:enum(reviews|specs)}"]}
        files: {screen: Product, links: ["/files/{rest:path}"]}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    for malformed in plan.entryPoints.malformed {
      let pattern = malformed.written
      context.report(
        Self.self, "link pattern '\(pattern.value)' \(describe(malformed.problem.kind))", at: pattern.range(atOffset: malformed.problem.offset))
    }
  }

  static func describe(_ kind: LinkPatternProblem.Kind) -> String {
    let types = (LinkValueType.allCases.map(\.rawValue) + ["enum(a|b)"]).joined(separator: ", ")
    switch kind {
    case .empty: return "is empty"
    case .unbalancedBrace: return "has an unbalanced brace: a parameter is '{name:type}' and fills a whole segment or query value"
    case .unknownType(let type, let suggestion):
      return "uses an unknown parameter type '\(type)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "; the types are \(types)")
    case .missingType(let name): return "declares '{\(name)}' without a type; write '{\(name):string}' or another of \(types)"
    case .invalidName(let name): return "has a parameter named '\(name)'; names are letters, digits and '_', not starting with a digit"
    case .duplicateName(let name): return "declares parameter '\(name)' twice"
    case .pathAndQuery(let name): return "uses the name '\(name)' for both a path and a query parameter"
    case .restNotLast: return "has a catch-all '{…:path}' that is not the last segment"
    case .emptyEnum: return "has an empty enum; list its values as 'enum(a|b)'"
    case .enumValue(let value): return "has an enum value '\(value)' that cannot be a path segment"
    case .duplicateEnumValue(let value): return "lists the enum value '\(value)' twice"
    case .emptySegment: return "has an empty segment ('//')"
    case .invalidCharacter(let character):
      return
        "has '\(String(character).unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined())' in a literal; write literals decoded, without '/ ? # { } % & ='"
    case .undeclaredScheme(let scheme, let suggestion):
      return "uses the scheme '\(scheme)', which 'links.schemes' does not declare" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    case .undeclaredHost(let host, let suggestion):
      return "uses the host '\(host)', which 'links.hosts' does not declare" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    case .noStart: return "must start with '/' (every scheme and host), 'scheme://' or 'https://host/'"
    case .deepLinkHost(let host): return "has '\(host)' where a custom scheme's host goes; the first segment of a deep link is a literal host name"
    case .optionalInPath(let name):
      return "makes path parameter '\(name)' optional; a path segment is always there (declare a second pattern without it)"
    case .queryItem(let item): return "has a query item '\(item)' that is not 'key={name:type}'"
    case .invalidDefault(let value, let type): return "gives the default '\(value)', which is not a value of type '\(type)'"
    case .misplacedType(let type, let inQuery):
      return inQuery
        ? "uses '\(type.rawValue)' in the query; it can only be the last path segment" : "uses '\(type.rawValue)' in the path; a URL is a query value"
    case .webScheme(let scheme): return "uses '\(scheme)'; universal links are 'https'"
    }
  }
}
