/// A parameter that will be used as a URL with no host allowlist: any link could send the app, with its
/// session, to any site.
public enum OpenRedirectRule: PlanRule {
  public static let id = "open-redirect"
  public static let summary =
    "A 'url' parameter needs an allowlist ('links.url_hosts', else 'links.hosts'); a string parameter named like a URL ('redirect', 'next', 'url'...) is a warning: declare it 'url'."
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
      """,
      expecting: [
        .error(
          "parameter 'to' of entry point 'web' is a URL the app will open, but the plan has no host allowlist: list the hosts under 'links.url_hosts'"
        ),
        .warning(
          "parameter 'next' of entry point 'login' looks like somewhere to go, but as a 'string' it reaches the app unchecked (an open redirect); declare it 'url' so only allowlisted hosts pass"
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
      """),
  ]

  /// Names that say a value is somewhere to go (compared lower case, without `_` and `-`).
  static let urlNames: Set<String> = [
    "url", "uri", "link", "href", "redirect", "redirecturl", "redirecturi", "redirectto", "next", "nexturl", "returnto", "returnurl",
    "return", "continue", "continueurl", "callback", "callbackurl", "goto", "dest", "destination", "target", "targeturl", "forward",
    "successurl", "backurl",
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    let entryPoints = plan.entryPoints
    let allowlist = entryPoints.urlHosts
    func check(_ name: String, _ type: ParameterType, route: Int, at range: SourceRange) {
      let entry = "entry point '\(entryPoints.routes[route].name)'"
      switch type {
      case .value(.url) where allowlist.isEmpty:
        context.report(
          Self.self,
          "parameter '\(name)' of \(entry) is a URL the app will open, but the plan has no host allowlist: list the hosts under 'links.url_hosts'",
          at: range)
      case .value(.string), .value(.slug):
        guard urlNames.contains(String(name.lowercased().filter { $0 != "_" && $0 != "-" })) else { return }
        context.report(
          Self.self,
          "parameter '\(name)' of \(entry) looks like somewhere to go, but as a '\(type)' it reaches the app unchecked (an open redirect); declare it 'url' so only allowlisted hosts pass",
          at: range, severity: .warning)
      default:
        return
      }
    }
    for link in entryPoints.links {
      for (parameter, _) in link.pattern.parameters {
        check(parameter.name, parameter.type, route: link.route, at: link.written.range(atOffset: parameter.offset + 1))
      }
    }
    for route in entryPoints.routes {
      guard let notification = route.notification, let written = plan.config.entryPoints[route.entry].notification else { continue }
      for parameter in notification.parameters {
        let range = written.parameters.first { $0.name.value == parameter.name }?.name.range ?? written.range
        check(parameter.name, parameter.type, route: route.entry, at: range)
      }
    }
  }
}
