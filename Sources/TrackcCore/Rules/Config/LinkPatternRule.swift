import TrackcLinks

/// A link pattern that does not parse, pointed at the character where it goes wrong.
public enum LinkPatternRule: PlanRule {
  public static let id = "link-pattern"
  public static let summary =
    "Link patterns must parse: balanced braces, known parameter types, distinct names, a catch-all only last, non-empty enums, declared schemes and hosts."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      \(config)
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
      \(config)
        product:
          screen: Product
          links:
            - shop://product/{id:int}
            - https://shop.example.com/product/{id:int}?ref={ref:string?}&page={page:int=1}
        review: {screen: Product, links: ["https://shop.example.com/p/{slug:slug}/{tab:enum(reviews|specs)}"]}
        files: {screen: Product, links: ["/files/{rest:path}"]}
      """),
    // A pattern of every origin whose first segment cannot be a custom scheme's host.
    .triggers(
      """
      \(config)
        product: {screen: Product, links: [1️⃣"/product_detail/{id:int}", 2️⃣"/{tab:enum(a_b|c)}/x", 3️⃣"/{kind:enum(Gift|Card)}/y"]}
      """,
      expecting: [
        .warning(
          "link pattern '/product_detail/{id:int}' starts with 'product_detail', and on a custom scheme the first segment is the host, which 'product_detail' cannot be: it matches universal links only, never 'shop://'; write it 'https://shop.example.com/product_detail/{id:int}' to say so"
        ),
        .warning(
          "link pattern '/{tab:enum(a_b|c)}/x' starts with an enum whose value 'a_b' cannot be a custom scheme's host (its first segment): only a universal link carries it, never 'shop://'"
        ),
        .warning(
          "link pattern '/{kind:enum(Gift|Card)}/y' starts with an enum none of whose values can be a custom scheme's host (its first segment, which the app reads in lower case): it matches universal links only, never 'shop://'; write it 'https://shop.example.com/{kind:enum(Gift|Card)}/y' to say so"
        ),
      ]),
    .triggers(
      """
      version: 1
      screens:
        Product: {page_events: {enter: PRODUCT_ENTER}}
      links: {schemes: [shop]}
      entry_points:
        product: {screen: Product, links: [1️⃣"/product_detail/{id:int}", 2️⃣"/"]}
      """,
      expecting: [
        .error(
          "link pattern '/product_detail/{id:int}' starts with 'product_detail', and on a custom scheme the first segment is the host, which 'product_detail' cannot be: it never matches (the plan has only 'shop://')"
        ),
        .error(
          "link pattern '/' has no segment, and on a custom scheme the first segment is the host, which every link names: it never matches (the plan has only 'shop://')"
        ),
      ]),
    .passes(
      """
      \(config)
        product: {screen: Product, links: ["/product-detail/{id:int}", "https://shop.example.com/product_detail/{id:int}"]}
        home: {screen: Product, links: ["/"]}
        kind: {screen: Product, links: ["/{kind:enum(gift|card)}/y"]}
      """),
    // Patterns no link can match: what browsers and the systems remove, what the app's bounds refuse.
    .triggers(
      """
      version: 1
      screens:
        Product: {page_events: {enter: PRODUCT_ENTER}}
      links: {schemes: [shop], hosts: [shop.example.com], url_hosts: [help.example.com]}
      entry_points:
        up: {screen: Product, links: ["/a/1️⃣../b"]}
        here: {screen: Product, links: ["/c/2️⃣./d"]}
        twice: {screen: Product, links: ["/t?a={x:int}&a=3️⃣{y:slug}"]}
        deep: {screen: Product, links: ["shop://4️⃣\(Array(repeating: "s", count: 33).joined(separator: "/"))"]}
        wide: {screen: Product, links: ["/w/5️⃣\(String(repeating: "w", count: 1025))"]}
        long: {screen: Product, links: ["6️⃣/\(Array(repeating: String(repeating: "l", count: 1000), count: 5).joined(separator: "/"))"]}
        many: {screen: Product, links: ["/m7️⃣?\((0..<65).map { "k\($0)={v\($0):int?}" }.joined(separator: "&"))"]}
        go: {screen: Product, links: ["shop://go?to={to:8️⃣url=https://evil.example.com/}"]}
      """,
      expecting: [
        .error(
          "link pattern '/a/../b' has '..' as a path segment, which never reaches the app: browsers and the systems remove dot segments from links"),
        .error(
          "link pattern '/c/./d' has '.' as a path segment, which never reaches the app: browsers and the systems remove dot segments from links"),
        .error(
          "link pattern '/t?a={x:int}&a={y:slug}' declares the query key 'a' twice; a link that repeats a declared key matches nothing, so one key gives one parameter"
        ),
        .error(
          "link pattern 'shop://s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s' has 33 segments and can never match: a link has at most 32 (a custom scheme's host counts as one)"
        ),
        .error(
          "link pattern '/w/wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww…' has a literal of 1025 bytes and can never match: a segment, query key or value has at most 1024"
        ),
        .error(
          "link pattern '/lllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllll…' can never match: its shortest link is 5011 bytes, and a link has at most 4096"
        ),
        .error(
          "link pattern '/m?k0={v0:int?}&k1={v1:int?}&k2={v2:int?}&k3={v3:int?}&k4={v4:int?}&k5={v5:int?}&k6={v6:int?}&k7={v7:int?}&k8={v8:int?}&…' declares 65 query items; a link carries at most 64"
        ),
        .error(
          "link pattern 'shop://go?to={to:url=https://evil.example.com/}' gives the default 'https://evil.example.com/', which is no 'url' the app accepts: an https link on a host of 'links.url_hosts' (else 'links.hosts')"
        ),
      ]
    ),
    .passes(
      """
      version: 1
      screens:
        Product: {page_events: {enter: PRODUCT_ENTER}}
      links: {schemes: [shop], hosts: [shop.example.com], url_hosts: [help.example.com]}
      entry_points:
        up: {screen: Product, links: ["/a/.../b"]}
        here: {screen: Product, links: ["/c/.d/d"]}
        once: {screen: Product, links: ["/t?a={x:int}&b={y:slug}"]}
        deep: {screen: Product, links: ["shop://\(Array(repeating: "s", count: 32).joined(separator: "/"))"]}
        wide: {screen: Product, links: ["/w/\(String(repeating: "w", count: 1024))"]}
        long: {screen: Product, links: ["/\(Array(repeating: String(repeating: "l", count: 1000), count: 4).joined(separator: "/"))"]}
        many: {screen: Product, links: ["/m?\((0..<64).map { "k\($0)={v\($0):int?}" }.joined(separator: "&"))"]}
        go: {screen: Product, links: ["shop://go?to={to:url=https://help.example.com/}"]}
      """),
  ]

  /// The screen and link origins of most examples.
  private static let config = """
    version: 1
    screens:
      Product: {page_events: {enter: PRODUCT_ENTER}}
    links: {schemes: [shop], hosts: [shop.example.com]}
    entry_points:
    """

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    let entryPoints = plan.entryPoints
    for malformed in entryPoints.malformed {
      let pattern = malformed.written
      context.report(
        Self.self, "link pattern '\(Diagnostic.excerpt(pattern.value))' \(describe(malformed.problem.kind))",
        at: pattern.range(atOffset: malformed.problem.offset))
    }
    // A pattern for every origin (`/…`) is, on a custom scheme, a deep link whose first segment is the
    // host: one that is no host name (or no segment at all) never matches there, and nowhere when the
    // plan declares no universal-link host.
    guard !entryPoints.schemes.isEmpty else { return }
    for link in entryPoints.links where link.pattern.origin == .everywhere {
      let problem: String
      switch link.pattern.segments.first {
      case nil:
        problem = "has no segment, and on a custom scheme the first segment is the host, which every link names"
      case .literal(let text)? where !LinkPattern.isHostName(text):
        problem =
          "starts with '\(Diagnostic.excerpt(text))', and on a custom scheme the first segment is the host, which '\(Diagnostic.excerpt(text))' cannot be"
      case .parameter(let parameter)?:
        // An enumeration compares its raw values with the host as read, in lower case (a literal there
        // folds like the host; an enumeration only when paths fold).
        guard case .enumeration(let values) = parameter.type else { continue }
        let folds = entryPoints.rules.pathCase == .insensitive
        let uncarried = values.filter { !LinkPattern.isHostName($0) || (!folds && $0.utf8.contains { $0 >= 65 && $0 <= 90 }) }
        guard let value = uncarried.first else { continue }
        let why =
          LinkPattern.isHostName(value)
          ? "its first segment, which the app reads in lower case" : "its first segment"
        guard uncarried.count == values.count else {
          let schemes = entryPoints.schemes.map { "'\($0)://'" }.joined(separator: ", ")
          context.report(
            Self.self,
            "link pattern '\(Diagnostic.excerpt(link.written.value))' starts with an enum whose value '\(Diagnostic.excerpt(value))' cannot be a custom scheme's host (\(why)): \(entryPoints.hosts.isEmpty ? "no link carries it" : "only a universal link carries it, never \(schemes)")",
            at: link.written.range, severity: .warning)
          continue
        }
        problem = "starts with an enum none of whose values can be a custom scheme's host (\(why))"
      default:
        continue
      }
      let schemes = entryPoints.schemes.map { "'\($0)://'" }.joined(separator: ", ")
      if entryPoints.hosts.isEmpty {
        context.report(
          Self.self, "link pattern '\(Diagnostic.excerpt(link.written.value))' \(problem): it never matches (the plan has only \(schemes))",
          at: link.written.range)
      } else if link.pattern.segments.first != nil {
        context.report(
          Self.self,
          "link pattern '\(Diagnostic.excerpt(link.written.value))' \(problem): it matches universal links only, never \(schemes); write it 'https://\(entryPoints.hosts[0])\(Diagnostic.excerpt(link.written.value))'\(entryPoints.hosts.count > 1 ? " (a pattern per host)" : "") to say so",
          at: link.written.range, severity: .warning)
      }
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
    case .invalidDefault(let value, .value(.url)):
      return
        "gives the default '\(Diagnostic.excerpt(value))', which is no 'url' the app accepts: an https link on a host of 'links.url_hosts' (else 'links.hosts')"
    case .invalidDefault(let value, let type): return "gives the default '\(Diagnostic.excerpt(value))', which is not a value of type '\(type)'"
    case .misplacedType(let type, let inQuery):
      return inQuery
        ? "uses '\(type.rawValue)' in the query; it can only be the last path segment" : "uses '\(type.rawValue)' in the path; a URL is a query value"
    case .webScheme(let scheme): return "uses '\(scheme)'; universal links are 'https'"
    case .dotSegment(let dots):
      return "has '\(dots)' as a path segment, which never reaches the app: browsers and the systems remove dot segments from links"
    case .tooManySegments(let count, let limit):
      return "has \(count) segments and can never match: a link has at most \(limit) (a custom scheme's host counts as one)"
    case .literalTooLong(let bytes, let limit):
      return "has a literal of \(bytes) bytes and can never match: a segment, query key or value has at most \(limit)"
    case .linkTooLong(let bytes, let limit):
      return "can never match: its shortest link is \(bytes) bytes, and a link has at most \(limit)"
    case .duplicateQueryKey(let key):
      return "declares the query key '\(key)' twice; a link that repeats a declared key matches nothing, so one key gives one parameter"
    case .tooManyQueryItems(let count, let limit):
      return "declares \(count) query items; a link carries at most \(limit)"
    }
  }
}
