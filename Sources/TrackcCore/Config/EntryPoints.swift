import TrackcLinks

/// The config's entry points as written: `links` (plan-level settings of deep links and universal links)
/// and `entry_points` (each a screen the app can be opened on from outside, and from where).
extension TrackingConfig {
  /// `links`: what every link pattern of the plan may use and how links are read.
  public struct Links: Sendable {
    /// The `links` key.
    public var range: SourceRange
    /// Custom URL schemes (`shop`), for deep links.
    public var schemes: [Located<String>] = []
    /// Hosts of universal links (`shop.example.com`).
    public var hosts: [Located<String>] = []
    /// The hosts a `url` parameter may point to; nil when not written (then `hosts`).
    public var urlHosts: [Located<String>]?
    public var trailingSlash: Located<LinkRules.TrailingSlash>?
    public var pathCase: Located<LinkRules.PathCase>?
    public var apple: Apple?
    public var android: Android?

    public init(range: SourceRange) {
      self.range = range
    }
  }

  /// `links.apple`: what the `apple-app-site-association` file needs.
  public struct Apple: Sendable {
    public var range: SourceRange
    /// `TEAMID.bundle.id` of each app that opens the links.
    public var appIDs: [Located<String>] = []
    /// Where `trackc generate` writes the file, relative to the config.
    public var siteAssociation: Located<String>?
    /// Paths the website keeps for the browser (AASA patterns with `*` and `?`), excluded first.
    public var exclude: [Located<String>] = []
  }

  /// `links.android`: what the intent filters need.
  public struct Android: Sendable {
    public var range: SourceRange
    /// The activity the links open (`.MainActivity`).
    public var activity: Located<String>?
    /// Where `trackc generate` writes the manifest with the intent filters, relative to the config.
    public var manifest: Located<String>?
  }

  /// One entry of `entry_points`: a screen the app opens from outside, and from where.
  public struct EntryPoint: Sendable {
    /// The entry point's name, which names its `Route` case (`product`).
    public var name: Located<String>
    /// The screen it opens: a key of `screens`.
    public var screen: Located<String>?
    /// Link patterns: `shop://product/{id:int}`, `/product/{id:int}?ref={ref:string?}`.
    public var links: [Located<String>] = []
    public var notification: Notification?
    public var shortcut: Shortcut?
    /// The event tracked when the app is opened through it.
    public var event: EventRule?
  }

  /// `notification`: which payloads select the entry point, and where its parameters are in them.
  public struct Notification: Sendable {
    /// The `notification` key.
    public var range: SourceRange
    /// Payload key paths and the values that select the entry point (`type: order_shipped`).
    public var match: [(key: Located<String>, value: Located<String>)] = []
    public var parameters: [NotificationParameter] = []
  }

  /// A parameter read from a notification's payload: `order_id: {from: payload.order.id, type: string}`.
  public struct NotificationParameter: Sendable {
    public var name: Located<String>
    /// `payload.` and a dotted key path.
    public var from: Located<String>?
    /// A type as patterns write them (`int`, `string?`, `enum(a|b)`); `string` when not written.
    public var type: Located<String>?
    /// The value when the payload lacks it, as written.
    public var defaultValue: Located<String>?
  }

  /// `shortcut`: a home-screen quick action that opens the entry point.
  public struct Shortcut: Sendable {
    public var range: SourceRange
    /// `com.example.shop.cart`.
    public var type: Located<String>?
    public var title: Located<String>?
    /// Conditions under which it is offered, all of them (`when: host`); none means always.
    public var conditions: [Located<String>] = []
  }
}

extension ConfigDecoder {
  enum EntryPointKeys {
    enum Links: String, ConfigKey {
      case schemes, hosts
      case urlHosts = "url_hosts"
      case trailingSlash = "trailing_slash"
      case pathCase = "path_case"
      case apple, android
    }
    enum Apple: String, ConfigKey {
      case appIDs = "app_ids"
      case siteAssociation = "site_association"
      case exclude
    }
    enum Android: String, ConfigKey { case activity, manifest }
    enum EntryPoint: String, ConfigKey { case screen, links, notification, shortcut, event }
    enum Notification: String, ConfigKey { case match, parameters }
    enum Parameter: String, ConfigKey { case from, type, `default` }
    enum Shortcut: String, ConfigKey { case type, title, when }
  }

  /// `links:`.
  mutating func links(_ node: YAMLNodeID, key: Located<String>) -> TrackingConfig.Links {
    var links = TrackingConfig.Links(range: key.range)
    for (name, field, value) in fields(
      of: node, in: .text("'links'"), expected: "a mapping with 'schemes', 'hosts' and the settings of links", as: EntryPointKeys.Links.self)
    {
      switch name {
      case .schemes: links.schemes = stringList(value, what: .text("'schemes'"), items: "URL schemes such as '[shop]'") ?? []
      case .hosts: links.hosts = stringList(value, what: .text("'hosts'"), items: "host names such as '[shop.example.com]'") ?? []
      case .urlHosts: links.urlHosts = stringList(value, what: .text("'url_hosts'"), items: "host names such as '[shop.example.com]'")
      case .trailingSlash: links.trailingSlash = choice(value, what: "'trailing_slash'")
      case .pathCase: links.pathCase = choice(value, what: "'path_case'")
      case .apple: links.apple = apple(value, key: field)
      case .android: links.android = android(value, key: field)
      }
    }
    return links
  }

  private mutating func apple(_ node: YAMLNodeID, key: Located<String>) -> TrackingConfig.Apple {
    var apple = TrackingConfig.Apple(range: key.range)
    for (name, _, value) in fields(
      of: node, in: .text("'apple' in 'links'"), expected: "a mapping with 'app_ids' and 'site_association'", as: EntryPointKeys.Apple.self)
    {
      switch name {
      case .appIDs: apple.appIDs = stringList(value, what: .text("'app_ids'"), items: "app IDs such as '[ABCDE12345.com.example.shop]'") ?? []
      case .siteAssociation: apple.siteAssociation = nonEmptyString(value, what: .text("'site_association'"))
      case .exclude: apple.exclude = stringList(value, what: .text("'exclude'"), items: "website paths such as '[\"/account/*\"]'") ?? []
      }
    }
    return apple
  }

  private mutating func android(_ node: YAMLNodeID, key: Located<String>) -> TrackingConfig.Android {
    var android = TrackingConfig.Android(range: key.range)
    for (name, _, value) in fields(
      of: node, in: .text("'android' in 'links'"), expected: "a mapping with 'activity' and 'manifest'", as: EntryPointKeys.Android.self)
    {
      switch name {
      case .activity: android.activity = nonEmptyString(value, what: .text("'activity'"))
      case .manifest: android.manifest = nonEmptyString(value, what: .text("'manifest'"))
      }
    }
    return android
  }

  /// `entry_points:`, in file order.
  mutating func entryPoints(_ node: YAMLNodeID) -> [TrackingConfig.EntryPoint] {
    entries(
      of: node, in: .text("'entry_points'"), expected: "a mapping of entry point names to the screen each opens and its sources"
    ).map { name, value, _ in entryPoint(value, name: name) }
  }

  private mutating func entryPoint(_ node: YAMLNodeID, name: Located<String>) -> TrackingConfig.EntryPoint {
    var entry = TrackingConfig.EntryPoint(name: name)
    let what = "entry point '\(name.value)'"
    let fields = self.fields(
      of: node, in: .text(what), expected: "a mapping with 'screen', its sources and 'event'", as: EntryPointKeys.EntryPoint.self)
    for (field, key, value) in fields {
      switch field {
      case .screen: entry.screen = nonEmptyString(value, what: .text("'screen' of \(what)"))
      case .links:
        entry.links = stringList(value, what: .text("'links' of \(what)"), items: "link patterns such as '[\"shop://product/{id:int}\"]'") ?? []
      case .notification: entry.notification = notification(value, key: key, of: what)
      case .shortcut: entry.shortcut = shortcut(value, key: key, of: what)
      case .event: entry.event = eventRule(value, key: key, place: .text("the event of \(what)"))
      }
    }
    requireFields([.screen], of: node, among: fields, in: what, at: name.range)
    return entry
  }

  /// Reports each of `required` that the mapping `node` lacks (`fields` are its fields), at `range`.
  /// Only a mapping or an empty value can lack a key: any other shape has been reported as the wrong
  /// type already.
  private mutating func requireFields<Name: ConfigKey>(
    _ required: [Name], of node: YAMLNodeID, among fields: [(name: Name, key: Located<String>, value: YAMLNodeID)], in what: String,
    at range: SourceRange
  ) {
    guard document.kind(node) == .mapping || document.isNull(node) else { return }
    for name in required where !fields.contains(where: { $0.name == name }) {
      problems.append(.missingKey(.key(name.rawValue, in: what, at: range)))
    }
  }

  private mutating func notification(_ node: YAMLNodeID, key: Located<String>, of entry: String) -> TrackingConfig.Notification {
    var notification = TrackingConfig.Notification(range: key.range)
    let what = "'notification' of \(entry)"
    let fields = self.fields(of: node, in: .text(what), expected: "a mapping with 'match' and 'parameters'", as: EntryPointKeys.Notification.self)
    for (name, _, value) in fields {
      switch name {
      case .match:
        for (path, selectorNode, _) in entries(
          of: value, in: .text("'match' of \(entry)"), expected: "a mapping of payload keys to the values that select the entry point")
        {
          guard let selector = scalarText(selectorNode, what: "'\(path.value)' in 'match' of \(entry)") else { continue }
          notification.match.append((path, selector))
        }
      case .parameters:
        for (parameter, value, _) in entries(
          of: value, in: .text("'parameters' of \(entry)"), expected: "a mapping of parameter names to '{from: payload.key, type: ...}'")
        {
          notification.parameters.append(notificationParameter(value, name: parameter, of: entry))
        }
      }
    }
    requireFields([.match], of: node, among: fields, in: what, at: key.range)
    return notification
  }

  private mutating func notificationParameter(_ node: YAMLNodeID, name: Located<String>, of entry: String) -> TrackingConfig.NotificationParameter {
    var parameter = TrackingConfig.NotificationParameter(name: name)
    let what = "parameter '\(name.value)' of \(entry)"
    let fields = self.fields(of: node, in: .text(what), expected: "a mapping with 'from' and 'type'", as: EntryPointKeys.Parameter.self)
    for (field, _, value) in fields {
      switch field {
      case .from: parameter.from = nonEmptyString(value, what: .text("'from' of \(what)"))
      case .type: parameter.type = nonEmptyString(value, what: .text("'type' of \(what)"))
      case .default: parameter.defaultValue = scalarText(value, what: "'default' of \(what)")
      }
    }
    requireFields([.from], of: node, among: fields, in: what, at: name.range)
    return parameter
  }

  private mutating func shortcut(_ node: YAMLNodeID, key: Located<String>, of entry: String) -> TrackingConfig.Shortcut {
    var shortcut = TrackingConfig.Shortcut(range: key.range)
    let what = "'shortcut' of \(entry)"
    let fields = self.fields(
      of: node, in: .text(what), expected: "a mapping with 'type', 'title' and optionally 'when'", as: EntryPointKeys.Shortcut.self)
    for (name, _, value) in fields {
      switch name {
      case .type: shortcut.type = nonEmptyString(value, what: .text("'type' of \(what)"))
      case .title: shortcut.title = nonEmptyString(value, what: .text("'title' of \(what)"))
      case .when:
        if document.kind(value) == .sequence {
          shortcut.conditions = stringList(value, what: .text("'when' of \(what)"), items: "condition names such as '[signed_in]'") ?? []
        } else if let condition = nonEmptyString(value, what: .text("'when' of \(what)")) {
          shortcut.conditions = [condition]
        }
      }
    }
    requireFields([.type, .title], of: node, among: fields, in: what, at: key.range)
    return shortcut
  }

  /// A scalar's text, whatever it resolves to (`order_shipped`, `3`, `true`); a collection or null is a
  /// wrong-type error.
  private mutating func scalarText(_ node: YAMLNodeID, what: String) -> Located<String>? {
    switch document.value(node) {
    case .string(let text): return Located(text, at: document.range(node))
    case .int, .float, .bool: return Located(document.text(node), at: document.range(node))
    case .null, .sequence, .mapping:
      wrongType(
        .notExpected(what: what, expected: "a string, a number or a boolean", found: found(node)), at: document.range(node))
      return nil
    }
  }
}
