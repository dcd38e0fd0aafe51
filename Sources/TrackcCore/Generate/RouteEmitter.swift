import TrackcLinks

/// The routes file: `extension Tracking { public enum Route: TrackableRoute }`, one case per entry point
/// with typed associated values, as `SwiftCode` built from the plan's entry points.
///
/// The link matcher is a trie compiled to static functions: per origin (a scheme or a host) a `switch`
/// over the origin's hash, then per segment a `switch` over the segment's hash for the literals and a
/// test of the segment's kind for each parameter type, down to one function per pattern that checks the
/// query and builds the case. Every literal is confirmed by comparing bytes, so a hash collision costs a
/// comparison, never a wrong route. The work per URL depends on its length and on the number of
/// parameter types that meet at a segment, not on the number of patterns; nothing is built at launch.
/// Overlapping patterns are errors (`link-overlap`), so at most one pattern matches any URL and the
/// order in which the trie tries a segment's children never decides a route.
struct RouteEmitter {
  typealias Expression = SwiftCode.Expression
  typealias Member = SwiftCode.Member
  typealias Statement = SwiftCode.Statement

  let model: GenerationModel
  let namespace: ValidIdentifier

  private var plan: ResolvedPlan { model.plan }
  private var entryPoints: EntryPointPlan { plan.entryPoints }

  /// The Swift names of one route.
  struct RouteNaming {
    var caseName: ValidIdentifier
    /// Per parameter of `EntryPointPlan.Route.parameters`, in order.
    var labels: [ValidIdentifier]
    /// Enumeration types, by parameter name.
    var enumerations: [String: (type: ValidIdentifier, cases: [(name: ValidIdentifier, value: String)])]
  }

  private let namings: [RouteNaming]

  init(model: GenerationModel, namespace: ValidIdentifier) {
    self.model = model
    self.namespace = namespace
    var usedTypes = Set<String>(["Matcher"])
    namings = model.plan.entryPoints.routes.map { route in
      var enumerations: [String: (type: ValidIdentifier, cases: [(name: ValidIdentifier, value: String)])] = [:]
      for parameter in route.parameters {
        guard case .enumeration(let values) = parameter.type else { continue }
        var type = RouteNames.enumerationType(route: route.name, parameter: parameter.name)
        if !usedTypes.insert(type.bare).inserted { type = ValidIdentifier(derived: type.bare + "_\(usedTypes.count)") }
        usedTypes.insert(type.bare)
        var usedCases = Set<String>()
        let cases = values.enumerated().map { index, value in
          var name = SwiftSource.identifier(fromEventID: value)
          if !usedCases.insert(name.bare).inserted { name = ValidIdentifier(derived: name.bare + "_\(index)") }
          usedCases.insert(name.bare)
          return (name: name, value: value)
        }
        enumerations[parameter.name] = (type, cases)
      }
      return RouteNaming(
        caseName: RouteNames.caseName(route.name), labels: route.parameters.map { RouteNames.label($0.name) }, enumerations: enumerations)
    }
  }

  /// Whether the config declares entry points, so there is a routes file.
  var hasRoutes: Bool { !entryPoints.routes.isEmpty }

  /// `import Foundation` (URL, UUID), the runtime (what only generated code sees of it too) and
  /// TrackcLinks (`ParsedLink`, `LinkRules`: not re-exported to apps).
  func imports(runtimeModule: ValidIdentifier) -> [Member] {
    [
      Member(declaration: .importModule(testable: false, [ValidIdentifier(fixed: "Foundation")])),
      Member(declaration: .importModule(testable: false, generatedSPI: true, [runtimeModule])),
      Member(declaration: .importModule(testable: false, [ValidIdentifier(fixed: "TrackcLinks")])),
    ]
  }

  /// `extension Tracking { public enum Route: TrackableRoute { ... } }`
  func extensionOfNamespace() -> Member {
    var members: [Member] = []
    for (index, route) in entryPoints.routes.enumerated() {
      let naming = namings[index]
      let values = zip(route.parameters, naming.labels).map { parameter, label in
        (label: ArgumentLabel(label.bare) ?? ArgumentLabel(fixed: "value"), type: swiftType(parameter, in: index))
      }
      var documentation = [Comment("Opens '\(route.screen.map { plan.written($0).name.value } ?? "")' (entry point '\(route.name)').")]
      for link in route.links { documentation.append(Comment("- \(entryPoints.links[link].pattern.text)")) }
      if let notification = route.notification {
        documentation.append(Comment("- notification " + notification.match.map { "\($0.path): \($0.value)" }.joined(separator: ", ")))
      }
      if let shortcut = route.shortcut { documentation.append(Comment("- shortcut \(shortcut.type)")) }
      members.append(Member(declaration: .caseWithValues(naming.caseName, values), documentation: documentation))
    }
    for (index, naming) in namings.enumerated() {
      for parameter in entryPoints.routes[index].parameters {
        guard let enumeration = naming.enumerations[parameter.name] else { continue }
        let cases = enumeration.cases.map { Member(declaration: .enumCase($0.name, rawValue: .string($0.value))) }
        let inherits = [ValidIdentifier(fixed: "String"), ValidIdentifier(fixed: "Sendable"), ValidIdentifier(fixed: "CaseIterable")]
        members.append(
          Member(
            declaration: .enumeration([.public], enumeration.type, inherits: inherits, cases), blankLineBefore: true,
            documentation: [Comment("The values of '\(parameter.name)' of entry point '\(entryPoints.routes[index].name)'.")]))
      }
    }
    members.append(linkRules())
    members += [routeOfLink(), routeOfNotification(), routeOfShortcut(), entryPoint(), openEvent(), url(), shortcuts()]
    members.append(matcher())
    let route = Member(
      declaration: .enumeration([.public], ValidIdentifier(fixed: "Route"), inherits: [ValidIdentifier(fixed: "TrackableRoute")], members),
      documentation: [
        Comment("Where the app can be opened from outside: one case per entry point of the config. `Route(url:)`,"),
        Comment("`Route(notification:)` and `Route(shortcutType:)` read each source; `url` writes a route back as a link;"),
        Comment("`PendingRoute<Route>` holds one until the app is ready and tracks every outcome."),
      ])
    return Member(declaration: .extensionOf([namespace], [route]), blankLineBefore: true)
  }

  // MARK: Types

  private func valueType(_ type: ParameterType, parameter: String, in route: Int) -> SwiftCode.TypeReference {
    switch type {
    case .value(.int): return .named([ValidIdentifier(fixed: "Int")])
    case .value(.int64): return .named([ValidIdentifier(fixed: "Int64")])
    case .value(.string), .value(.slug): return .named([ValidIdentifier(fixed: "String")])
    case .value(.uuid): return .named([ValidIdentifier(fixed: "UUID")])
    case .value(.url): return .named([ValidIdentifier(fixed: "URL")])
    case .value(.path): return .array(.named([ValidIdentifier(fixed: "String")]))
    case .enumeration: return .named([namings[route].enumerations[parameter]!.type])
    }
  }

  private func swiftType(_ parameter: EntryPointPlan.RouteParameter, in route: Int) -> SwiftCode.TypeReference {
    let type = valueType(parameter.type, parameter: parameter.name, in: route)
    return parameter.isOptional ? .optional(type) : type
  }

  /// `.int`, `.enumeration(ProductTab.self)`, `.url(allowing: [...])`: the runtime's `RouteValueType`.
  private func valueTypeExpression(_ type: ParameterType, parameter: String, in route: Int, inPath: Bool) -> Expression {
    switch type {
    case .value(.url):
      return .call(
        .implicitMember(ValidIdentifier(fixed: "url")),
        [SwiftCode.Argument(ArgumentLabel(fixed: "allowing"), .array(entryPoints.urlHosts.map { .string($0) }))])
    case .value(let value):
      return .implicitMember(ValidIdentifier(derived: value.rawValue))
    case .enumeration:
      var arguments = [SwiftCode.Argument(.metatype([namings[route].enumerations[parameter]!.type]))]
      if inPath && entryPoints.rules.pathCase == .insensitive {
        arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "foldingCase"), .boolean(true)))
      }
      return .call(.implicitMember(ValidIdentifier(fixed: "enumeration")), arguments)
    }
  }

  // MARK: Members

  /// `public static let linkRules = LinkRules(pathCase: .sensitive, trailingSlash: .ignore)`
  private func linkRules() -> Member {
    let rules = entryPoints.rules
    let value = Expression.call(
      Self.reference("LinkRules"),
      [
        SwiftCode.Argument(ArgumentLabel(fixed: "pathCase"), .implicitMember(ValidIdentifier(derived: rules.pathCase.rawValue))),
        SwiftCode.Argument(ArgumentLabel(fixed: "trailingSlash"), .implicitMember(ValidIdentifier(derived: rules.trailingSlash.rawValue))),
      ])
    return Member(
      declaration: .constant([.public, .static], ValidIdentifier(fixed: "linkRules"), value), blankLineBefore: true,
      documentation: [Comment("How links are read (`links` in the config).")])
  }

  /// `public static func route(link: ParsedLink) -> Route?`: by origin.
  private func routeOfLink() -> Member {
    function(
      [.public, .static], "route", [(ArgumentLabel(fixed: "link"), nil, Self.type("ParsedLink"))],
      returns: .optional(Self.type("Route")),
      body: [.returnValue(.call(Self.reference("Matcher", "origin"), [SwiftCode.Argument(Self.reference("link"))]))],
      documentation: "The route a link opens; nil when no pattern matches it.")
  }

  /// `public static func route(notification payload: NotificationPayload) -> RouteParse<Route>`: a
  /// `switch` over the value of the key most selectors test, then the selectors that do not test it.
  private func routeOfNotification() -> Member {
    let selecting = entryPoints.routes.enumerated().filter { !($0.element.notification?.match.isEmpty ?? true) }
    var counts: [String: Int] = [:]
    for (_, route) in selecting { for pair in route.notification!.match { counts[pair.path, default: 0] += 1 } }
    let commonKey = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    var byValue: [(hash: UInt64, statements: [Statement])] = []
    var without: [Statement] = []
    for (index, route) in selecting {
      let match = route.notification!.match
      let conditions = match.map { pair in
        SwiftCode.Condition.test(
          .call(
            Self.reference("payload", "value"),
            [SwiftCode.Argument(ArgumentLabel(fixed: "at"), .string(pair.path)), SwiftCode.Argument(ArgumentLabel(fixed: "is"), .string(pair.value))])
        )
      }
      let selected = Statement.ifThen(
        conditions,
        [
          .returnValue(
            .call(
              Self.reference("RouteParse"),
              [
                SwiftCode.Argument(
                  ArgumentLabel(fixed: "selected"),
                  .call(
                    .reference([ValidIdentifier(fixed: "Matcher"), Self.notificationFunction(index)]), [SwiftCode.Argument(Self.reference("payload"))]
                  ))
              ]))
        ])
      if let commonKey, let value = match.first(where: { $0.path == commonKey })?.value {
        let hash = LinkHash.hash(value)
        if let existing = byValue.firstIndex(where: { $0.hash == hash }) {
          byValue[existing].statements.append(selected)
        } else {
          byValue.append((hash, [selected]))
        }
      } else {
        without.append(selected)
      }
    }
    var body: [Statement] = []
    if let commonKey, !byValue.isEmpty {
      let cases = byValue.sorted { $0.hash < $1.hash }.map { SwiftCode.Case(patterns: [.hexadecimal($0.hash)], body: $0.statements) }
      body.append(
        .switchOn(
          .call(Self.reference("payload", "selectorHash"), [SwiftCode.Argument(ArgumentLabel(fixed: "at"), .string(commonKey))]),
          cases + [SwiftCode.Case(patterns: [], body: [.breakStatement])]))
    }
    body += without
    body.append(.returnValue(.implicitMember(ValidIdentifier(fixed: "unmatched"))))
    return function(
      [.generatedSPI, .public, .static], "route",
      [(ArgumentLabel(fixed: "notification"), ValidIdentifier(fixed: "payload"), Self.type("NotificationPayload"))],
      returns: .generic(ValidIdentifier(fixed: "RouteParse"), [Self.type("Route")]), body: body,
      documentation: "The route a notification's payload selects, or why none.")
  }

  /// `public static func route(shortcutType: String) -> Route?`
  private func routeOfShortcut() -> Member {
    var cases: [SwiftCode.Case] = []
    for (index, route) in entryPoints.routes.enumerated() {
      guard let shortcut = route.shortcut else { continue }
      cases.append(SwiftCode.Case(patterns: [.string(shortcut.type)], body: [.returnValue(construct(index, values: [:]))]))
    }
    cases.append(SwiftCode.Case(patterns: [], body: [.returnValue(.nilLiteral)]))
    return function(
      [.generatedSPI, .public, .static], "route", [(ArgumentLabel(fixed: "shortcutType"), nil, Self.type("String"))],
      returns: .optional(Self.type("Route")), body: [.switchOn(Self.reference("shortcutType"), cases)],
      documentation: "The route a home-screen shortcut opens.")
  }

  /// `public var entryPoint: String`
  private func entryPoint() -> Member {
    let cases = entryPoints.routes.enumerated().map { index, route in
      SwiftCode.Case(patterns: [.implicitMember(namings[index].caseName)], body: [.returnValue(.string(route.name))])
    }
    return property(
      "entryPoint", Self.type("String"), [.switchOn(.selfReference, cases + otherwise(.string("")))],
      documentation: "The entry point's name in the config.")
  }

  /// `public var openEvent: RouteOpenEvent`: the rule, the screen and the parameters as properties.
  private func openEvent() -> Member {
    let cases = entryPoints.routes.enumerated().map { index, route in
      let naming = namings[index]
      let rule: Expression =
        model.entryPointRules[route.entry].map { .reference([ValidIdentifier(fixed: "Rules"), model.rules[$0].identifier]) } ?? .nilLiteral
      let parameters = zip(route.parameters, naming.labels).map { parameter, label in
        (
          key: Expression.string(parameter.name),
          value: Expression.call(
            Self.reference("RouteOpenEvent", "property"),
            [
              SwiftCode.Argument(.reference([label])),
              SwiftCode.Argument(valueTypeExpression(parameter.type, parameter: parameter.name, in: index, inPath: false)),
            ])
        )
      }
      let event = Expression.call(
        Self.reference("RouteOpenEvent"),
        [
          SwiftCode.Argument(ArgumentLabel(fixed: "rule"), rule),
          SwiftCode.Argument(ArgumentLabel(fixed: "screen"), .string(route.screen.map { plan.written($0).name.value } ?? "")),
          SwiftCode.Argument(ArgumentLabel(fixed: "parameters"), .dictionary(parameters)),
        ])
      return SwiftCode.Case(patterns: [casePattern(index, binding: true)], body: [.returnValue(event)])
    }
    let none = Expression.call(
      Self.reference("RouteOpenEvent"),
      [
        SwiftCode.Argument(ArgumentLabel(fixed: "rule"), .nilLiteral), SwiftCode.Argument(ArgumentLabel(fixed: "screen"), .string("")),
        SwiftCode.Argument(ArgumentLabel(fixed: "parameters"), .dictionary([])),
      ])
    return property(
      "openEvent", Self.type("RouteOpenEvent"), [.switchOn(.selfReference, cases + otherwise(none))],
      documentation: "What is tracked when the app is opened with the route.", modifiers: [.generatedSPI, .public])
  }

  /// `public var url: URL?`: the first pattern that can carry the route's values (every value it has,
  /// and none it lacks) and whose link reads back as the same route (`LinkPrinter.url(of:...)` checks);
  /// nil when none does, so that `url` never prints a link to another route or to nothing.
  private func url() -> Member {
    var cases: [SwiftCode.Case] = []
    let printedURL = ValidIdentifier(fixed: "url")
    for (index, route) in entryPoints.routes.enumerated() {
      let naming = namings[index]
      guard !route.links.isEmpty else {
        cases.append(SwiftCode.Case(patterns: [casePattern(index, binding: false)], body: [.returnValue(.nilLiteral)]))
        continue
      }
      var body: [Statement] = []
      var complete = false
      for (position, link) in route.links.enumerated() {
        let pattern = entryPoints.links[link].pattern
        var conditions: [SwiftCode.Condition] = []
        var requirements: [String: Requirement] = [:]
        for entry in pattern.parameters { requirements[entry.parameter.name] = entry.requirement }
        for (parameter, label) in zip(route.parameters, naming.labels) where parameter.isOptional {
          if let requirement = requirements[parameter.name] {
            if requirement != .optional { conditions.append(.binding(label, .reference([label]))) }
          } else {
            conditions.append(.test(.isNil(.reference([label]))))
          }
        }
        let printed = printed(pattern, route: index)
        if conditions.isEmpty && position == route.links.count - 1 {
          body.append(.returnValue(printed))
          complete = true
          break
        }
        // Nested, so that `url` may be a parameter's name too: it is bound anew inside.
        let print = Statement.ifThen([.binding(printedURL, printed)], [.returnValue(.reference([printedURL]))])
        body.append(conditions.isEmpty ? print : .ifThen(conditions, [print]))
      }
      if !complete { body.append(.returnValue(.nilLiteral)) }
      cases.append(SwiftCode.Case(patterns: [casePattern(index, binding: true)], body: body))
    }
    return property(
      "url", .optional(Self.type("URL")), [.switchOn(.selfReference, cases + otherwise(.nilLiteral))],
      documentation: "The route as a link that reads back as the same route; nil when no pattern of it can carry its values.")
  }

  /// `LinkPrinter.url(of: self, host: "...", path: [...], query: [...])` for one pattern.
  private func printed(_ pattern: LinkPattern, route: Int) -> Expression {
    let labels = Dictionary(uniqueKeysWithValues: zip(entryPoints.routes[route].parameters.map(\.name), namings[route].labels))
    var arguments = [SwiftCode.Argument(ArgumentLabel(fixed: "of"), .selfReference)]
    switch pattern.origin {
    case .scheme(let scheme): arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "scheme"), .string(scheme)))
    case .host(let host): arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "host"), .string(host)))
    case .everywhere:
      if let host = entryPoints.hosts.first {
        arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "host"), .string(host)))
      } else {
        arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "scheme"), .string(entryPoints.schemes.first ?? "")))
      }
    }
    let path: [Expression] = pattern.segments.map { segment in
      switch segment {
      case .literal(let text):
        return .call(.implicitMember(ValidIdentifier(fixed: "literal")), [SwiftCode.Argument(.string(text))])
      case .parameter(let parameter) where parameter.type == .value(.path):
        return .call(.implicitMember(ValidIdentifier(fixed: "rest")), [SwiftCode.Argument(.reference([labels[parameter.name]!]))])
      case .parameter(let parameter):
        return .call(
          .implicitMember(ValidIdentifier(fixed: "value")),
          [
            SwiftCode.Argument(.reference([labels[parameter.name]!])),
            SwiftCode.Argument(valueTypeExpression(parameter.type, parameter: parameter.name, in: route, inPath: true)),
          ])
      }
    }
    arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "path"), .array(path)))
    if !pattern.query.isEmpty {
      let query: [Expression] = pattern.query.map { item in
        var values = [
          SwiftCode.Argument(.string(item.key)), SwiftCode.Argument(.reference([labels[item.parameter.name]!])),
          SwiftCode.Argument(valueTypeExpression(item.parameter.type, parameter: item.parameter.name, in: route, inPath: false)),
        ]
        if case .defaulted(let text) = item.requirement { values.append(SwiftCode.Argument(ArgumentLabel(fixed: "defaultText"), .string(text))) }
        return .call(.implicitMember(ValidIdentifier(fixed: "value")), values)
      }
      arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "query"), .array(query)))
    }
    if pattern.trailingSlash { arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "trailingSlash"), .boolean(true))) }
    return .call(Self.reference("LinkPrinter", "url"), arguments)
  }

  /// `public static let shortcuts: [RouteShortcut]`: what the app offers on its icon, in plan order.
  private func shortcuts() -> Member {
    let values: [Expression] = entryPoints.routes.compactMap { route in
      guard let shortcut = route.shortcut else { return nil }
      var arguments = [
        SwiftCode.Argument(ArgumentLabel(fixed: "type"), .string(shortcut.type)),
        SwiftCode.Argument(ArgumentLabel(fixed: "title"), .string(shortcut.title)),
      ]
      if !shortcut.conditions.isEmpty {
        arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "conditions"), .array(shortcut.conditions.map { .string($0) })))
      }
      return .call(Self.reference("RouteShortcut"), arguments)
    }
    return Member(
      declaration: .typedConstant([.public, .static], ValidIdentifier(fixed: "shortcuts"), .array(Self.type("RouteShortcut")), .array(values)),
      blankLineBefore: true, documentation: [Comment("The home-screen shortcuts of the plan (`RouteShortcut.offered(_:when:)` picks by condition).")])
  }

  // MARK: Cases

  /// A `default:` for a `switch` over the route, only past `exhaustiveCheckLimit` cases: Swift gives up
  /// proving a switch over an enum of some 600 cases with values exhaustive ("unable to check that this
  /// switch is exhaustive in reasonable time"), which is an error; below, a default would only hide a
  /// case the generator forgot.
  private func otherwise(_ value: Expression) -> [SwiftCode.Case] {
    entryPoints.routes.count > Self.exhaustiveCheckLimit ? [SwiftCode.Case(patterns: [], body: [.returnValue(value)])] : []
  }

  static let exhaustiveCheckLimit = 256

  /// `.product(let id, let ref)` (or `.product` without binding, or for a case without values).
  private func casePattern(_ route: Int, binding: Bool) -> Expression {
    let naming = namings[route]
    guard binding, !naming.labels.isEmpty else { return .implicitMember(naming.caseName) }
    return .call(.implicitMember(naming.caseName), naming.labels.map { SwiftCode.Argument(.binding($0)) })
  }

  /// `.product(id: id, ref: nil)`: each parameter's value from `values` (by name), nil when absent.
  private func construct(_ route: Int, values: [String: Expression]) -> Expression {
    let naming = namings[route]
    guard !naming.labels.isEmpty else { return .implicitMember(naming.caseName) }
    let arguments = zip(entryPoints.routes[route].parameters, naming.labels).map { parameter, label in
      SwiftCode.Argument(ArgumentLabel(label.bare) ?? ArgumentLabel(fixed: "value"), values[parameter.name] ?? .nilLiteral)
    }
    return .call(.implicitMember(naming.caseName), arguments)
  }

  // MARK: The matcher

  /// A node of the link trie: the patterns that end at it, its children by literal, by parameter kinds,
  /// and the patterns whose `{rest:path}` starts at it.
  final class Node {
    var ends: [Int] = []
    var literals: [(text: String, node: Node)] = []
    var parameters: [(kinds: SegmentKinds, node: Node)] = []
    var rests: [Int] = []
    var function = 0
  }

  /// `private enum Matcher`: the trie's functions, one per origin and node, and one per pattern.
  private func matcher() -> Member {
    var members: [Member] = []
    var nodeCount = 0
    // One trie per origin: its key (`shop:` or a host) and its root.
    var origins: [(key: String, isScheme: Bool, root: Node)] = []
    let folds = entryPoints.rules.pathCase == .insensitive
    func insert(_ link: Int, into root: Node, customScheme: Bool) {
      var node = root
      let pattern = entryPoints.links[link].pattern
      for (depth, segment) in pattern.segments.enumerated() {
        switch segment {
        case .literal(let text):
          let key = folds || (customScheme && depth == 0) ? LinkOverlap.Accepts.folded(text) : text
          if let existing = node.literals.first(where: { $0.text == key }) {
            node = existing.node
          } else {
            let child = Node()
            node.literals.append((key, child))
            node = child
          }
        case .parameter(let parameter):
          if parameter.type == .value(.path) {
            node.rests.append(link)
            return
          }
          let kinds: SegmentKinds
          switch parameter.type {
          case .value(let type): kinds = type.accepted
          case .enumeration: kinds = .nonEmptyText
          }
          if let existing = node.parameters.first(where: { $0.kinds == kinds }) {
            node = existing.node
          } else {
            let child = Node()
            node.parameters.append((kinds, child))
            node = child
          }
        }
      }
      node.ends.append(link)
    }
    // The trie of one origin: the patterns for every origin and those written for it.
    func trie(of origin: LinkPattern.Origin, customScheme: Bool) -> Node {
      let root = Node()
      for (index, link) in entryPoints.links.enumerated() where link.pattern.origin == .everywhere || link.pattern.origin == origin {
        insert(index, into: root, customScheme: customScheme)
      }
      return root
    }
    for scheme in entryPoints.schemes {
      origins.append((scheme, true, trie(of: .scheme(scheme), customScheme: true)))
    }
    for host in entryPoints.hosts {
      origins.append((host, false, trie(of: .host(host), customScheme: false)))
    }

    // origin(_:): by the origin's hash.
    var originCases: [(hash: UInt64, statements: [Statement])] = []
    var nodeFunctions: [Member] = []
    let link = Self.reference("link")
    func segmentIs(_ depth: Int, _ text: String) -> SwiftCode.Condition {
      .test(
        .call(
          Self.reference("link", "segment"), [SwiftCode.Argument(.integer(depth)), SwiftCode.Argument(ArgumentLabel(fixed: "is"), .string(text))]))
    }
    func segmentIsKind(_ depth: Int, _ kinds: SegmentKinds) -> SwiftCode.Condition {
      .test(
        .call(
          Self.reference("link", "segment"),
          [SwiftCode.Argument(.integer(depth)), SwiftCode.Argument(ArgumentLabel(fixed: "isKindOf"), Self.kinds(kinds))]))
    }
    func ends(_ depth: Int) -> SwiftCode.Condition {
      .test(.call(Self.reference("link", "ends"), [SwiftCode.Argument(ArgumentLabel(fixed: "after"), .integer(depth))]))
    }
    func routeOf(_ function: ValidIdentifier) -> SwiftCode.Condition {
      .binding(ValidIdentifier(fixed: "route"), .call(.reference([function]), [SwiftCode.Argument(link)]))
    }
    let returnRoute = Statement.returnValue(Self.reference("route"))
    /// The conditions that reach `node` (at `depth`, its segments before `depth` matched) and what it
    /// matches: a chain of nodes with one child each becomes one condition per segment (no function), and
    /// a leaf with one pattern the call of that pattern's function.
    func reach(_ start: Node, depth depth0: Int, path path0: String) -> [SwiftCode.Condition] {
      var node = start
      var depth = depth0
      var path = path0
      var conditions: [SwiftCode.Condition] = []
      while node.ends.isEmpty && node.rests.isEmpty && node.literals.count + node.parameters.count == 1 {
        if let (text, child) = node.literals.first {
          conditions.append(segmentIs(depth, text))
          path += "/" + text
          node = child
        } else {
          let (kinds, child) = node.parameters[0]
          conditions.append(segmentIsKind(depth, kinds))
          path += "/*"
          node = child
        }
        depth += 1
      }
      if node.literals.isEmpty && node.parameters.isEmpty && node.rests.isEmpty && node.ends.count == 1 {
        return conditions + [ends(depth), routeOf(Self.linkFunction(node.ends[0]))]
      }
      if node.literals.isEmpty && node.parameters.isEmpty && node.ends.isEmpty && node.rests.count == 1 {
        // `{rest:path}`: one segment or more.
        return conditions + [
          .test(.call(Self.reference("link", "hasSegment"), [SwiftCode.Argument(.integer(depth))])), routeOf(Self.linkFunction(node.rests[0])),
        ]
      }
      return conditions + [routeOf(emit(node, depth: depth, path: path))]
    }
    /// A node where the trie branches: a function of its own.
    func emit(_ node: Node, depth: Int, path: String) -> ValidIdentifier {
      nodeCount += 1
      let name = ValidIdentifier(derived: "node\(nodeCount)")
      var body: [Statement] = []
      // At the end of the link's path: the patterns that end here; else on to segment `depth`.
      let endings = node.ends.map { Statement.ifThen([routeOf(Self.linkFunction($0))], [returnRoute]) }
      body.append(.ifThen([ends(depth)], endings + [.returnValue(.nilLiteral)]))
      if !node.literals.isEmpty {
        var byHash: [UInt64: [Statement]] = [:]
        for (text, child) in node.literals {
          byHash[LinkHash.hash(text), default: []].append(
            .ifThen([segmentIs(depth, text)] + reach(child, depth: depth + 1, path: path + "/" + text), [returnRoute]))
        }
        let cases = byHash.keys.sorted().map { SwiftCode.Case(patterns: [.hexadecimal($0)], body: byHash[$0]!) }
        body.append(
          .switchOn(
            .call(Self.reference("link", "hash"), [SwiftCode.Argument(ArgumentLabel(fixed: "ofSegment"), .integer(depth))]),
            cases + [SwiftCode.Case(patterns: [], body: [.breakStatement])]))
      }
      for (kinds, child) in node.parameters {
        body.append(.ifThen([segmentIsKind(depth, kinds)] + reach(child, depth: depth + 1, path: path + "/*"), [returnRoute]))
      }
      for rest in node.rests {
        body.append(.ifThen([routeOf(Self.linkFunction(rest))], [returnRoute]))
      }
      body.append(.returnValue(.nilLiteral))
      nodeFunctions.append(
        Member(
          declaration: .function(
            SwiftCode.Function(
              modifiers: [.static], name: name,
              parameters: [SwiftCode.Parameter(label: nil, name: ValidIdentifier(fixed: "link"), type: Self.type("ParsedLink"))],
              result: .optional(Self.type("Route")), body: body)),
          blankLineBefore: true, documentation: [Comment(path.isEmpty ? "/" : path)]))
      return name
    }
    for (key, isScheme, root) in origins {
      // `ParsedLink.originHash`: of `scheme:` for a custom scheme, of the host for a web link.
      let hash = LinkHash.hash(isScheme ? key + ":" : key)
      let check = Statement.ifThen(
        [.test(.call(Self.reference("link", isScheme ? "schemeIs" : "originIs"), [SwiftCode.Argument(.string(key))]))]
          + reach(root, depth: 0, path: ""),
        [returnRoute])
      if let existing = originCases.firstIndex(where: { $0.hash == hash }) {
        originCases[existing].statements.append(check)
      } else {
        originCases.append((hash, [check]))
      }
    }
    var originBody: [Statement] = []
    if !originCases.isEmpty {
      originBody.append(
        .switchOn(
          Self.reference("link", "originHash"),
          originCases.sorted { $0.hash < $1.hash }.map { SwiftCode.Case(patterns: [.hexadecimal($0.hash)], body: $0.statements) }
            + [SwiftCode.Case(patterns: [], body: [.breakStatement])]))
    }
    originBody.append(.returnValue(.nilLiteral))
    members.append(
      Member(
        declaration: .function(
          SwiftCode.Function(
            modifiers: [.static], name: ValidIdentifier(fixed: "origin"),
            parameters: [SwiftCode.Parameter(label: nil, name: ValidIdentifier(fixed: "link"), type: Self.type("ParsedLink"))],
            result: .optional(Self.type("Route")), body: originBody)),
        documentation: [Comment("By the link's origin: `scheme:` or host.")]))
    members += nodeFunctions
    for (index, link) in entryPoints.links.enumerated() { members.append(linkFunction(index, link)) }
    for (index, route) in entryPoints.routes.enumerated() {
      guard let notification = route.notification, !notification.match.isEmpty else { continue }
      members.append(notificationFunction(index, notification))
    }
    return Member(
      declaration: .enumeration([.private], ValidIdentifier(fixed: "Matcher"), inherits: [], members), blankLineBefore: true,
      documentation: [Comment("The link trie compiled to functions, and each pattern's and notification's reading of its values.")])
  }

  /// `static func link3(_ link: ParsedLink) -> Route?`: a pattern's query, trailing slash and values.
  private func linkFunction(_ index: Int, _ link: EntryPointPlan.Link) -> Member {
    let pattern = link.pattern
    let route = link.route
    let labels = Dictionary(uniqueKeysWithValues: zip(entryPoints.routes[route].parameters.map(\.name), namings[route].labels))
    var conditions: [SwiftCode.Condition] = []
    if entryPoints.rules.trailingSlash == .strict {
      conditions.append(.test(.call(Self.reference("link", "trailingSlash"), [SwiftCode.Argument(.boolean(pattern.trailingSlash))])))
    }
    var values: [String: Expression] = [:]
    for (depth, segment) in pattern.segments.enumerated() {
      guard case .parameter(let parameter) = segment else { continue }
      let label = labels[parameter.name]!
      let value: Expression
      if parameter.type == .value(.path) {
        value = .call(Self.reference("link", "rest"), [SwiftCode.Argument(ArgumentLabel(fixed: "from"), .integer(depth))])
      } else {
        value = .call(
          Self.reference("link", "segment"),
          [
            SwiftCode.Argument(.integer(depth)),
            SwiftCode.Argument(ArgumentLabel(fixed: "as"), valueTypeExpression(parameter.type, parameter: parameter.name, in: route, inPath: true)),
          ])
      }
      conditions.append(.binding(label, value))
      values[parameter.name] = .reference([label])
    }
    for item in pattern.query {
      let label = labels[item.parameter.name]!
      var arguments = [
        SwiftCode.Argument(.string(item.key)),
        SwiftCode.Argument(
          ArgumentLabel(fixed: "as"), valueTypeExpression(item.parameter.type, parameter: item.parameter.name, in: route, inPath: false)),
      ]
      let method: StaticString
      switch item.requirement {
      case .required: method = "query"
      case .optional: method = "optionalQuery"
      case .defaulted(let text):
        method = "query"
        arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "defaultText"), .string(text)))
      }
      conditions.append(.binding(label, .call(.reference([ValidIdentifier(fixed: "link"), ValidIdentifier(fixed: method)]), arguments)))
      values[item.parameter.name] = .reference([label])
    }
    var body: [Statement] = []
    if !conditions.isEmpty { body.append(.guardElse(conditions, [.returnValue(.nilLiteral)])) }
    body.append(.returnValue(construct(route, values: values)))
    // A pattern without parameters or checks does not read its argument.
    let parameterName = conditions.isEmpty ? nil : ValidIdentifier(fixed: "link")
    return Member(
      declaration: .function(
        SwiftCode.Function(
          modifiers: [.static], name: Self.linkFunction(index),
          parameters: [SwiftCode.Parameter(label: nil, name: parameterName, type: Self.type("ParsedLink"))], result: .optional(Self.type("Route")),
          body: body)),
      blankLineBefore: true, documentation: [Comment("\(pattern.text) (entry point '\(entryPoints.routes[route].name)')")])
  }

  /// `static func notification2(_ payload: NotificationPayload) -> Route?`: the selected route's values.
  private func notificationFunction(_ index: Int, _ notification: EntryPointPlan.NotificationSource) -> Member {
    let labels = Dictionary(uniqueKeysWithValues: zip(entryPoints.routes[index].parameters.map(\.name), namings[index].labels))
    var conditions: [SwiftCode.Condition] = []
    var values: [String: Expression] = [:]
    for parameter in notification.parameters {
      let label = labels[parameter.name]!
      var arguments = [
        SwiftCode.Argument(ArgumentLabel(fixed: "at"), .string(parameter.path)),
        SwiftCode.Argument(ArgumentLabel(fixed: "as"), valueTypeExpression(parameter.type, parameter: parameter.name, in: index, inPath: false)),
      ]
      let method: StaticString
      switch parameter.requirement {
      case .required: method = "value"
      case .optional: method = "optionalValue"
      case .defaulted(let text):
        method = "value"
        arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "defaultText"), .string(text)))
      }
      conditions.append(.binding(label, .call(.reference([ValidIdentifier(fixed: "payload"), ValidIdentifier(fixed: method)]), arguments)))
      values[parameter.name] = .reference([label])
    }
    var body: [Statement] = []
    if !conditions.isEmpty { body.append(.guardElse(conditions, [.returnValue(.nilLiteral)])) }
    body.append(.returnValue(construct(index, values: values)))
    return Member(
      declaration: .function(
        SwiftCode.Function(
          modifiers: [.static], name: Self.notificationFunction(index),
          parameters: [
            SwiftCode.Parameter(
              label: nil, name: conditions.isEmpty ? nil : ValidIdentifier(fixed: "payload"), type: Self.type("NotificationPayload"))
          ],
          result: .optional(Self.type("Route")), body: body)),
      blankLineBefore: true, documentation: [Comment("The notification of entry point '\(entryPoints.routes[index].name)'.")])
  }

  // MARK: Pieces

  private static func linkFunction(_ index: Int) -> ValidIdentifier { ValidIdentifier(derived: "link\(index)") }
  private static func notificationFunction(_ index: Int) -> ValidIdentifier { ValidIdentifier(derived: "notification\(index)") }

  /// `[.int, .int64]`: a `SegmentKinds` literal.
  private static func kinds(_ kinds: SegmentKinds) -> Expression {
    .array(
      kinds.kinds.map { kind in
        switch kind {
        case .int: return .implicitMember(ValidIdentifier(fixed: "int"))
        case .int64: return .implicitMember(ValidIdentifier(fixed: "int64"))
        case .digits: return .implicitMember(ValidIdentifier(fixed: "digits"))
        case .uuid: return .implicitMember(ValidIdentifier(fixed: "uuid"))
        case .slug: return .implicitMember(ValidIdentifier(fixed: "slug"))
        case .text: return .implicitMember(ValidIdentifier(fixed: "text"))
        case .empty: return .implicitMember(ValidIdentifier(fixed: "empty"))
        case .control: return .implicitMember(ValidIdentifier(fixed: "control"))
        }
      })
  }

  private func function(
    _ modifiers: [SwiftCode.Modifier], _ name: StaticString,
    _ parameters: [(label: ArgumentLabel?, name: ValidIdentifier?, type: SwiftCode.TypeReference)],
    returns: SwiftCode.TypeReference, body: [Statement], documentation: String
  ) -> Member {
    Member(
      declaration: .function(
        SwiftCode.Function(
          modifiers: modifiers, name: ValidIdentifier(fixed: name),
          parameters: parameters.map { SwiftCode.Parameter(label: $0.label, name: $0.name, type: $0.type) },
          result: returns, body: body)),
      blankLineBefore: true, documentation: [Comment(documentation)])
  }

  private func property(
    _ name: StaticString, _ type: SwiftCode.TypeReference, _ body: [Statement], documentation: String,
    modifiers: [SwiftCode.Modifier] = [.public]
  ) -> Member {
    Member(
      declaration: .computedProperty(modifiers, ValidIdentifier(fixed: name), type, body), blankLineBefore: true,
      documentation: [Comment(documentation)])
  }

  private static func reference(_ path: StaticString...) -> Expression {
    .reference(path.map { ValidIdentifier(fixed: $0) })
  }

  private static func type(_ name: StaticString) -> SwiftCode.TypeReference {
    .named([ValidIdentifier(fixed: name)])
  }
}
