import TrackcLinks

/// What the config's entry points mean, worked out once in the plan stage: the link rules, every
/// pattern parsed, each entry point as a route with its typed parameters gathered from all its sources,
/// notification selectors and shortcuts, and the analyses the rules report (malformed patterns,
/// overlapping and shadowed patterns, colliding selectors, duplicate shortcut types, parameters that
/// disagree). The plan rules, the generator and the plan tools read this one value.
public struct EntryPointPlan: Sendable {
  public let rules: LinkRules
  /// Declared custom schemes, lower case, each once, in file order.
  public let schemes: [String]
  /// Declared universal-link hosts, lower case, each once, in file order.
  public let hosts: [String]
  /// Where `url` parameters may point: `url_hosts`, else `hosts`.
  public let urlHosts: [String]
  /// One per entry point, in file order.
  public let routes: [Route]
  /// Every link pattern that parsed, entry point by entry point in file order.
  public let links: [Link]
  /// Every problem of every pattern that did not parse.
  public let malformed: [Malformed]
  /// Pairs of patterns that some URL matches both of, in file order of the later one.
  public let overlaps: [LinkOverlap]
  public let parameterProblems: [ParameterProblem]
  /// Pairs of entry points (indices) whose notification selectors a payload can satisfy both of.
  public let selectorCollisions: [(first: Int, second: Int, payload: String)]
  /// Pairs of entry points (indices) with the same shortcut type.
  public let duplicateShortcuts: [(first: Int, second: Int)]

  public struct Route: Sendable {
    /// The entry point's index in `config.entryPoints`.
    public let entry: Int
    public let name: String
    /// The screen it opens, when its `screen` is a key of `screens`.
    public let screen: ResolvedPlan.Screen.ID?
    /// Every parameter any source gives, in first-seen order.
    public let parameters: [RouteParameter]
    /// Indices into `links`.
    public let links: [Int]
    public let notification: NotificationSource?
    public let shortcut: ShortcutSource?
  }

  /// A parameter of a route: the associated value of its `Route` case.
  public struct RouteParameter: Sendable, Hashable {
    public let name: String
    public let type: ParameterType
    /// Some source may lack it: the Swift value is optional.
    public let isOptional: Bool
  }

  /// One parsed link pattern of a route.
  public struct Link: Sendable {
    public let route: Int
    public let pattern: LinkPattern
    /// As written, with its position.
    public let written: Located<String>
  }

  public struct Malformed: Sendable {
    public let route: Int
    public let written: Located<String>
    public let problem: LinkPatternProblem
  }

  /// How a notification selects a route and fills its parameters.
  public struct NotificationSource: Sendable {
    /// Payload key paths (dotted) and the values that select the route, as written.
    public let match: [(path: String, value: String)]
    public let parameters: [NotificationParameter]
  }

  public struct NotificationParameter: Sendable {
    public let name: String
    /// The key path inside the payload (`order.id`, without `payload.`).
    public let path: String
    public let type: ParameterType
    public let requirement: Requirement
  }

  public struct ShortcutSource: Sendable {
    public let type: String
    public let title: String
    public let conditions: [String]
  }

  /// A parameter problem, at a place in the config.
  public struct ParameterProblem: Sendable {
    public enum Kind: Sendable {
      /// Two sources give the parameter different types.
      case typeMismatch(name: String, first: ParameterType, second: ParameterType, secondSource: String)
      /// A source requires it and another lacks it, so the route's value is optional.
      case missing(name: String, requiredBy: String, missingFrom: String)
      /// A notification parameter whose `from` is not `payload.` and a key path.
      case payloadPath(String)
      /// A notification parameter whose type does not parse, or cannot be read from a payload.
      case type(String, problem: LinkPatternProblem.Kind)
      case defaultValue(String, type: ParameterType)
      /// A notification `match` key that is not a key path.
      case matchPath(String)
      case parameterName(String)
    }

    public let route: Int
    public let kind: Kind
    public let range: SourceRange
    public let severity: Diagnostic.Severity
  }

  // MARK: Working it out

  init(_ config: TrackingConfig, screenNamed: (String) -> ResolvedPlan.Screen.ID?) {
    let written = config.links
    rules = LinkRules(pathCase: written?.pathCase?.value ?? .sensitive, trailingSlash: written?.trailingSlash?.value ?? .ignore)
    func declared(_ list: [Located<String>]) -> [String] {
      var seen = Set<String>()
      return list.map { $0.value.lowercased() }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
    schemes = declared(written?.schemes ?? [])
    hosts = declared(written?.hosts ?? [])
    let urlHosts = written?.urlHosts.map(declared) ?? hosts
    self.urlHosts = urlHosts
    let rules = rules
    let schemeSet = Set(schemes)
    let hostSet = Set(hosts)

    var routes: [Route] = []
    var links: [Link] = []
    var malformed: [Malformed] = []
    var parameterProblems: [ParameterProblem] = []
    for (index, entry) in config.entryPoints.enumerated() {
      var linkIndices: [Int] = []
      for written in entry.links {
        let parsed = LinkPattern.parse(written.value, schemes: schemeSet, hosts: hostSet, urlHosts: urlHosts, limits: rules.limits)
        if let pattern = parsed.pattern {
          linkIndices.append(links.count)
          links.append(Link(route: index, pattern: pattern, written: written))
        }
        malformed += parsed.problems.map { Malformed(route: index, written: written, problem: $0) }
      }
      let notification = entry.notification.map { Self.notification($0, route: index, urlHosts: urlHosts, problems: &parameterProblems) }
      let shortcut = entry.shortcut.flatMap { written -> ShortcutSource? in
        guard let type = written.type?.value, let title = written.title?.value else { return nil }
        return ShortcutSource(type: type, title: title, conditions: written.conditions.map(\.value))
      }
      let parameters = Self.parameters(
        entry, links: linkIndices.map { links[$0] }, notification: notification, shortcut: shortcut, route: index, problems: &parameterProblems)
      routes.append(
        Route(
          entry: index, name: entry.name.value, screen: entry.screen.flatMap { screenNamed($0.value) }, parameters: parameters,
          links: linkIndices, notification: notification, shortcut: shortcut))
    }
    self.routes = routes
    self.links = links
    self.malformed = malformed
    self.parameterProblems = parameterProblems
    overlaps = LinkOverlap.find(in: links, rules: rules, schemes: schemes, hosts: hosts, urlHosts: urlHosts)
    selectorCollisions = Self.selectorCollisions(routes)
    var firstShortcut: [String: Int] = [:]
    var duplicates: [(first: Int, second: Int)] = []
    for route in routes {
      guard let type = route.shortcut?.type else { continue }
      if let first = firstShortcut[type] { duplicates.append((first, route.entry)) } else { firstShortcut[type] = route.entry }
    }
    duplicateShortcuts = duplicates
  }

  private static func notification(
    _ written: TrackingConfig.Notification, route: Int, urlHosts: [String], problems: inout [ParameterProblem]
  ) -> NotificationSource {
    var match: [(path: String, value: String)] = []
    for (key, value) in written.match {
      guard isKeyPath(key.value) else {
        problems.append(ParameterProblem(route: route, kind: .matchPath(key.value), range: key.range, severity: .error))
        continue
      }
      match.append((key.value, value.value))
    }
    var parameters: [NotificationParameter] = []
    for parameter in written.parameters {
      guard LinkPattern.isName(Substring(parameter.name.value)) else {
        problems.append(ParameterProblem(route: route, kind: .parameterName(parameter.name.value), range: parameter.name.range, severity: .error))
        continue
      }
      guard let from = parameter.from else { continue }
      guard from.value.hasPrefix("payload."), isKeyPath(String(from.value.dropFirst(8))) else {
        problems.append(ParameterProblem(route: route, kind: .payloadPath(from.value), range: from.range, severity: .error))
        continue
      }
      var typeText = Substring(parameter.type?.value ?? "string")
      var requirement = Requirement.required
      if typeText.hasSuffix("?") {
        typeText = typeText.dropLast()
        requirement = .optional
      }
      let type: ParameterType
      switch ParameterType.parse(typeText) {
      case .success(.value(.path)):
        problems.append(
          ParameterProblem(
            route: route, kind: .type(parameter.type?.value ?? "", problem: .misplacedType(.path, inQuery: true)),
            range: parameter.type?.range ?? parameter.name.range, severity: .error))
        continue
      case .success(let parsed):
        type = parsed
      case .failure(let kind):
        problems.append(
          ParameterProblem(
            route: route, kind: .type(String(typeText), problem: kind), range: parameter.type?.range ?? parameter.name.range, severity: .error))
        continue
      }
      if let value = parameter.defaultValue {
        guard accepts(type, value.value, urlHosts: urlHosts) else {
          problems.append(ParameterProblem(route: route, kind: .defaultValue(value.value, type: type), range: value.range, severity: .error))
          continue
        }
        requirement = .defaulted(value.value)
      }
      parameters.append(
        NotificationParameter(name: parameter.name.value, path: String(from.value.dropFirst(8)), type: type, requirement: requirement))
    }
    return NotificationSource(match: match, parameters: parameters)
  }

  /// `order.id`: keys of letters, digits, `_` and `-`, separated by dots, at most
  /// `maximumKeyPathDepth` deep.
  static func isKeyPath(_ text: String) -> Bool {
    let keys = text.split(separator: ".", omittingEmptySubsequences: false)
    return !keys.isEmpty && keys.count <= maximumKeyPathDepth
      && keys.allSatisfy { key in
        !key.isEmpty
          && key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
          }
      }
  }

  /// The depth the runtime follows a payload (`NotificationPayload.maximumDepth`).
  static let maximumKeyPathDepth = 8

  /// The route's parameters from every source: the types must agree; a parameter is optional when a
  /// source may lack it.
  private static func parameters(
    _ entry: TrackingConfig.EntryPoint, links: [Link], notification: NotificationSource?, shortcut: ShortcutSource?, route: Int,
    problems: inout [ParameterProblem]
  ) -> [RouteParameter] {
    struct Source {
      let name: String
      /// In the order the source writes them.
      let given: [(name: String, type: ParameterType, requirement: Requirement)]
      let range: SourceRange
      var isShortcut = false

      func lookUp(_ name: String) -> (name: String, type: ParameterType, requirement: Requirement)? { given.first { $0.name == name } }
    }
    var sources: [Source] = links.map { link in
      Source(
        name: "link '\(link.written.value)'", given: link.pattern.parameters.map { ($0.parameter.name, $0.parameter.type, $0.requirement) },
        range: link.written.range)
    }
    if let notification, let written = entry.notification {
      sources.append(
        Source(name: "the notification", given: notification.parameters.map { ($0.name, $0.type, $0.requirement) }, range: written.range))
    }
    if let shortcut, let written = entry.shortcut {
      sources.append(Source(name: "shortcut '\(shortcut.type)'", given: [], range: written.range, isShortcut: true))
    }
    var parameters: [RouteParameter] = []
    var seen = Set<String>()
    for (firstIndex, firstSource) in sources.enumerated() {
      for first in firstSource.given where seen.insert(first.name).inserted {
        var optional = false
        for (index, source) in sources.enumerated() where index != firstIndex {
          guard let given = source.lookUp(first.name) else {
            optional = true
            // A shortcut never carries values: the parameter is optional, which needs no warning.
            if source.isShortcut { continue }
            if let requiring = sources.first(where: { $0.lookUp(first.name)?.requirement == .required }) {
              problems.append(
                ParameterProblem(
                  route: route, kind: .missing(name: first.name, requiredBy: requiring.name, missingFrom: source.name), range: source.range,
                  severity: .warning))
            }
            continue
          }
          if given.type != first.type {
            problems.append(
              ParameterProblem(
                route: route, kind: .typeMismatch(name: first.name, first: first.type, second: given.type, secondSource: firstSource.name),
                range: source.range, severity: .error))
          }
          if given.requirement == .optional { optional = true }
        }
        if first.requirement == .optional { optional = true }
        parameters.append(RouteParameter(name: first.name, type: first.type, isOptional: optional))
      }
    }
    return parameters
  }

  /// Two routes whose selectors agree on every key both test: a payload with both sets of keys
  /// selects both.
  private static func selectorCollisions(_ routes: [Route]) -> [(first: Int, second: Int, payload: String)] {
    let selecting = routes.filter { !($0.notification?.match.isEmpty ?? true) }
    guard selecting.count > 1 else { return [] }
    // Routes that test the most common key and give it different values cannot collide: compare each
    // only with those of the same value there, and with the routes that do not test that key.
    var keyCounts: [String: Int] = [:]
    for route in selecting { for pair in route.notification!.match { keyCounts[pair.path, default: 0] += 1 } }
    let commonKey = keyCounts.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key
    var groups: [String: [Int]] = [:]
    var without: [Int] = []
    for (position, route) in selecting.enumerated() {
      if let value = route.notification!.match.first(where: { $0.path == commonKey })?.value {
        groups[value, default: []].append(position)
      } else {
        without.append(position)
      }
    }
    var pairs = Set<[Int]>()
    for group in groups.values {
      for (offset, a) in group.enumerated() { for b in group[(offset + 1)...] { pairs.insert([a, b]) } }
    }
    for a in without { for b in selecting.indices where b != a { pairs.insert([min(a, b), max(a, b)]) } }
    var result: [(first: Int, second: Int, payload: String)] = []
    for pair in pairs.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      var values: [String: String] = [:]
      var agree = true
      for (path, value) in selecting[pair[0]].notification!.match { values[path] = value }
      for (path, value) in selecting[pair[1]].notification!.match {
        if let existing = values[path], existing != value {
          agree = false
          break
        }
        values[path] = value
      }
      guard agree else { continue }
      let payload = values.keys.sorted().map { "\($0): \(values[$0]!)" }.joined(separator: ", ")
      result.append((selecting[pair[0]].entry, selecting[pair[1]].entry, "{" + payload + "}"))
    }
    return result
  }

  // MARK: Types and values

  /// Whether `type` accepts the text (a default, a literal) as the app reads it: by the text's kind
  /// (within a value's bound), among an enumeration's values, or, for a `url`, an `https` link on one of
  /// `urlHosts` (`RouteValueType.url`).
  static func accepts(_ type: ParameterType, _ text: String, urlHosts: [String]) -> Bool {
    guard text.utf8.count <= LinkLimits().maximumValueBytes else { return false }
    switch type {
    case .value(.url): return LinkValueType.acceptsURL(text, allowing: Set(urlHosts))
    case .value(let value): return value.accepted.contains(SegmentKind.of(text))
    case .enumeration(let values): return values.contains(text)
    }
  }

  /// The route and link a pattern belongs to, by position in `links`.
  public func route(of link: Int) -> Route { routes[links[link].route] }
}
