/// A parameter that will be used as a URL with no host allowlist: any link could send the app, with its
/// session, to any site.
public enum OpenRedirectRule: PlanRule {
  public static let id = "open-redirect"
  public static let summary =
    "A 'url' parameter needs an allowlist ('links.url_hosts', else 'links.hosts'); a string parameter named or read from a key like a URL ('redirect', 'next', 'return_to'...) is a warning: declare it 'url'."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        Web: {page_events: {enter: WEB_ENTER}}
        Login: {page_events: {enter: LOGIN_ENTER}}
      links: {schemes: [shop]}
      entry_points:
        web: {screen: Web, links: ["shop://web?to={1️⃣to:url}"]}
        login: {screen: Login, links: ["shop://login?next={2️⃣next:string?}"]}
        back: {screen: Login, links: ["shop://back?redirect={3️⃣r:string?}"]}
        page: {screen: Web, links: ["shop://page?return_to={4️⃣dest_page:slug}"]}
        push:
          screen: Web
          notification: {match: {type: open}, parameters: {5️⃣page: {from: payload.redirect_url}}}
      """,
      expecting: [
        .error(
          "parameter 'to' of entry point 'web' is a URL the app will open, but the plan has no host allowlist: list the hosts under 'links.url_hosts'"
        ),
        .warning(
          "parameter 'next' of entry point 'login' looks like somewhere to go, but as a 'string' it reaches the app unchecked (an open redirect); declare it 'url' so only allowlisted hosts pass"
        ),
        .warning(
          "parameter 'r' of entry point 'back' is read from the query key 'redirect', which says somewhere to go, but as a 'string' it reaches the app unchecked (an open redirect); declare it 'url' so only allowlisted hosts pass"
        ),
        .warning(
          "parameter 'dest_page' of entry point 'page' looks like somewhere to go, but as a 'slug' it reaches the app unchecked (an open redirect); declare it 'url' so only allowlisted hosts pass"
        ),
        .warning(
          "parameter 'page' of entry point 'push' is read from the payload key 'redirect_url', which says somewhere to go, but as a 'string' it reaches the app unchecked (an open redirect); declare it 'url' so only allowlisted hosts pass"
        ),
      ]),
    .passes(
      """
      version: 1
      screens:
        Web: {page_events: {enter: WEB_ENTER}}
        Login: {page_events: {enter: LOGIN_ENTER}}
      links: {schemes: [shop], url_hosts: [help.example.com]}
      entry_points:
        web: {screen: Web, links: ["shop://web?to={to:url}"]}
        login: {screen: Login, links: ["shop://login?next={next:url?}"]}
        back: {screen: Login, links: ["shop://back?redirect={r:url?}"]}
        page: {screen: Web, links: ["shop://page?page={page_id:slug}"]}
        target: {screen: Web, links: ["shop://target/{target_id:slug}"]}
        push:
          screen: Web
          notification: {match: {type: open}, parameters: {page: {from: payload.page_id}}}
      """),
  ]

  /// Names that say a value is somewhere to go (compared lower case, without `_` and `-`).
  static let urlNames: Set<String> = [
    "url", "uri", "link", "href", "redirect", "redirecturl", "redirecturi", "redirectto", "next", "nexturl", "returnto", "returnurl",
    "return", "continue", "continueurl", "callback", "callbackurl", "goto", "go", "to", "dest", "destination", "target", "targeturl",
    "forward", "successurl", "backurl", "location",
  ]

  /// Words that say so wherever they stand in a name (`dest_page`, `redirectTarget`, `post_login_return`).
  static let urlWords: Set<String> = [
    "url", "uri", "href", "redirect", "redir", "return", "continue", "callback", "goto", "dest", "destination",
  ]

  /// Whether a parameter's name or query key says it is somewhere to go: the whole name, or one of its
  /// words (split at `_`, `-`, `.` and lower-to-upper case changes).
  static func namesADestination(_ name: String) -> Bool {
    if urlNames.contains(String(name.lowercased().filter { $0 != "_" && $0 != "-" })) { return true }
    var words: [String] = []
    var word = ""
    var previousIsLower = false
    for character in name {
      if character == "_" || character == "-" || character == "." {
        words.append(word)
        word = ""
      } else {
        if character.isUppercase && previousIsLower {
          words.append(word)
          word = ""
        }
        word.append(character)
      }
      previousIsLower = character.isLowercase || character.isNumber
    }
    words.append(word)
    return words.contains { urlWords.contains($0.lowercased()) }
  }

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    let entryPoints = plan.entryPoints
    let allowlist = entryPoints.urlHosts
    /// `key`: the query key or payload key the value is read from, when it is not the name.
    func check(_ name: String, key: (what: String, name: String)?, _ type: ParameterType, route: Int, at range: SourceRange) {
      let entry = "entry point '\(entryPoints.routes[route].name)'"
      switch type {
      case .value(.url) where allowlist.isEmpty:
        context.report(
          Self.self,
          "parameter '\(name)' of \(entry) is a URL the app will open, but the plan has no host allowlist: list the hosts under 'links.url_hosts'",
          at: range)
      case .value(.string), .value(.slug):
        let says: String
        if namesADestination(name) {
          says = "looks like somewhere to go"
        } else if let key, key.name != name, namesADestination(key.name) {
          says = "is read from the \(key.what) '\(Diagnostic.excerpt(key.name))', which says somewhere to go"
        } else {
          return
        }
        context.report(
          Self.self,
          "parameter '\(name)' of \(entry) \(says), but as a '\(type)' it reaches the app unchecked (an open redirect); declare it 'url' so only allowlisted hosts pass",
          at: range, severity: .warning)
      default:
        return
      }
    }
    for link in entryPoints.links {
      for segment in link.pattern.segments {
        guard case .parameter(let parameter) = segment else { continue }
        check(parameter.name, key: nil, parameter.type, route: link.route, at: link.written.range(atOffset: parameter.offset + 1))
      }
      for item in link.pattern.query {
        check(
          item.parameter.name, key: ("query key", item.key), item.parameter.type, route: link.route,
          at: link.written.range(atOffset: item.parameter.offset + 1))
      }
    }
    for route in entryPoints.routes {
      guard let notification = route.notification, let written = plan.config.entryPoints[route.entry].notification else { continue }
      for parameter in notification.parameters {
        let range = written.parameters.first { $0.name.value == parameter.name }?.name.range ?? written.range
        let key = parameter.path.split(separator: ".").last.map(String.init) ?? parameter.path
        check(parameter.name, key: ("payload key", key), parameter.type, route: route.entry, at: range)
      }
    }
  }
}
