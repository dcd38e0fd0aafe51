import TrackcRouting

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
    static let links = ["schemes", "hosts", "url_hosts", "trailing_slash", "path_case", "apple", "android"]
    static let apple = ["app_ids", "site_association", "exclude"]
    static let android = ["activity", "manifest"]
    static let entryPoint = ["screen", "links", "notification", "shortcut", "event"]
    static let notification = ["match", "parameters"]
    static let parameter = ["from", "type", "default"]
    static let shortcut = ["type", "title", "when"]
  }

  /// `links:`.
  mutating func links(_ node: YAMLNodeID, key: Located<String>) -> TrackingConfig.Links {
    var links = TrackingConfig.Links(range: key.range)
    let place = Place.text("'links'")
    for pair in mappingPairs(node, what: place, expected: "a mapping with 'schemes', 'hosts' and the settings of links") {
      guard let field = keyText(pair.key, in: place) else { continue }
      switch field.value {
      case "schemes": links.schemes = stringList(pair.value, what: .text("'schemes'"), items: "URL schemes such as '[shop]'") ?? []
      case "hosts": links.hosts = stringList(pair.value, what: .text("'hosts'"), items: "host names such as '[shop.example.com]'") ?? []
      case "url_hosts": links.urlHosts = stringList(pair.value, what: .text("'url_hosts'"), items: "host names such as '[shop.example.com]'")
      case "trailing_slash": links.trailingSlash = choice(pair.value, what: "'trailing_slash'")
      case "path_case": links.pathCase = choice(pair.value, what: "'path_case'")
      case "apple": links.apple = apple(pair.value, key: field)
      case "android": links.android = android(pair.value, key: field)
      default: unknownKey(field, in: "'links'", allowed: EntryPointKeys.links)
      }
    }
    return links
  }

  private mutating func choice<Choice: RawRepresentable & CaseIterable>(_ node: YAMLNodeID, what: String) -> Located<Choice>?
  where Choice.RawValue == String {
    guard let text = document.stringValue(node), let value = Choice(rawValue: text) else {
      let allowed = Choice.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")
      wrongType(.notExpected(what: what, expected: allowed, found: FoundValue(node, in: document)), at: document.range(node))
      return nil
    }
    return Located(value, at: document.range(node))
  }

  private mutating func apple(_ node: YAMLNodeID, key: Located<String>) -> TrackingConfig.Apple {
    var apple = TrackingConfig.Apple(range: key.range)
    let place = Place.text("'apple' in 'links'")
    for pair in mappingPairs(node, what: place, expected: "a mapping with 'app_ids' and 'site_association'") {
      guard let field = keyText(pair.key, in: place) else { continue }
      switch field.value {
      case "app_ids": apple.appIDs = stringList(pair.value, what: .text("'app_ids'"), items: "app IDs such as '[ABCDE12345.com.example.shop]'") ?? []
      case "site_association": apple.siteAssociation = nonEmptyString(pair.value, what: .text("'site_association'"))
      case "exclude": apple.exclude = stringList(pair.value, what: .text("'exclude'"), items: "website paths such as '[\"/account/*\"]'") ?? []
      default: unknownKey(field, in: words(place), allowed: EntryPointKeys.apple)
      }
    }
    return apple
  }

  private mutating func android(_ node: YAMLNodeID, key: Located<String>) -> TrackingConfig.Android {
    var android = TrackingConfig.Android(range: key.range)
    let place = Place.text("'android' in 'links'")
    for pair in mappingPairs(node, what: place, expected: "a mapping with 'activity' and 'manifest'") {
      guard let field = keyText(pair.key, in: place) else { continue }
      switch field.value {
      case "activity": android.activity = nonEmptyString(pair.value, what: .text("'activity'"))
      case "manifest": android.manifest = nonEmptyString(pair.value, what: .text("'manifest'"))
      default: unknownKey(field, in: words(place), allowed: EntryPointKeys.android)
      }
    }
    return android
  }

  /// `entry_points:`, in file order.
  mutating func entryPoints(_ node: YAMLNodeID) -> [TrackingConfig.EntryPoint] {
    var result: [TrackingConfig.EntryPoint] = []
    let place = Place.text("'entry_points'")
    for pair in mappingPairs(node, what: place, expected: "a mapping of entry point names to the screen each opens and its sources") {
      guard let name = keyText(pair.key, in: place) else { continue }
      result.append(entryPoint(pair.value, name: name))
    }
    return result
  }

  private mutating func entryPoint(_ node: YAMLNodeID, name: Located<String>) -> TrackingConfig.EntryPoint {
    var entry = TrackingConfig.EntryPoint(name: name)
    let what = "entry point '\(name.value)'"
    let place = Place.text(what)
    for pair in mappingPairs(node, what: place, expected: "a mapping with 'screen', its sources and 'event'") {
      guard let field = keyText(pair.key, in: place) else { continue }
      switch field.value {
      case "screen": entry.screen = nonEmptyString(pair.value, what: .text("'screen' of \(what)"))
      case "links":
        entry.links = stringList(pair.value, what: .text("'links' of \(what)"), items: "link patterns such as '[\"shop://product/{id:int}\"]'") ?? []
      case "notification": entry.notification = notification(pair.value, key: field, of: what)
      case "shortcut": entry.shortcut = shortcut(pair.value, key: field, of: what)
      case "event": entry.event = eventRule(pair.value, key: field, place: Place.text("the event of \(what)"))
      default: unknownKey(field, in: what, allowed: EntryPointKeys.entryPoint)
      }
    }
    requireKeys(["screen"], in: node, of: what, at: name.range)
    return entry
  }

  /// Reports each of `keys` that the mapping `node` lacks, at `range`. Only a mapping or an empty value
  /// can lack a key: any other shape has been reported as the wrong type already.
  private mutating func requireKeys(_ keys: [String], in node: YAMLNodeID, of what: String, at range: SourceRange) {
    guard document.kind(node) == .mapping || document.isNull(node) else { return }
    for key in keys where !document.pairs(node).contains(where: { document.textEquals($0.key, key) }) {
      problems.append(.missingKey(.key(key, in: what, at: range)))
    }
  }

  private mutating func notification(_ node: YAMLNodeID, key: Located<String>, of entry: String) -> TrackingConfig.Notification {
    var notification = TrackingConfig.Notification(range: key.range)
    let what = "'notification' of \(entry)"
    let place = Place.text(what)
    for pair in mappingPairs(node, what: place, expected: "a mapping with 'match' and 'parameters'") {
      guard let field = keyText(pair.key, in: place) else { continue }
      switch field.value {
      case "match":
        let matchPlace = Place.text("'match' of \(entry)")
        for item in mappingPairs(pair.value, what: matchPlace, expected: "a mapping of payload keys to the values that select the entry point") {
          guard let path = keyText(item.key, in: matchPlace), let value = scalarText(item.value, what: "'\(path.value)' in 'match' of \(entry)")
          else { continue }
          notification.match.append((path, value))
        }
      case "parameters":
        let parametersPlace = Place.text("'parameters' of \(entry)")
        for item in mappingPairs(pair.value, what: parametersPlace, expected: "a mapping of parameter names to '{from: payload.key, type: ...}'") {
          guard let name = keyText(item.key, in: parametersPlace) else { continue }
          notification.parameters.append(notificationParameter(item.value, name: name, of: entry))
        }
      default: unknownKey(field, in: what, allowed: EntryPointKeys.notification)
      }
    }
    requireKeys(["match"], in: node, of: what, at: key.range)
    return notification
  }

  private mutating func notificationParameter(_ node: YAMLNodeID, name: Located<String>, of entry: String) -> TrackingConfig.NotificationParameter {
    var parameter = TrackingConfig.NotificationParameter(name: name)
    let what = "parameter '\(name.value)' of \(entry)"
    let place = Place.text(what)
    for pair in mappingPairs(node, what: place, expected: "a mapping with 'from' and 'type'") {
      guard let field = keyText(pair.key, in: place) else { continue }
      switch field.value {
      case "from": parameter.from = nonEmptyString(pair.value, what: .text("'from' of \(what)"))
      case "type": parameter.type = nonEmptyString(pair.value, what: .text("'type' of \(what)"))
      case "default": parameter.defaultValue = scalarText(pair.value, what: "'default' of \(what)")
      default: unknownKey(field, in: what, allowed: EntryPointKeys.parameter)
      }
    }
    requireKeys(["from"], in: node, of: what, at: name.range)
    return parameter
  }

  private mutating func shortcut(_ node: YAMLNodeID, key: Located<String>, of entry: String) -> TrackingConfig.Shortcut {
    var shortcut = TrackingConfig.Shortcut(range: key.range)
    let what = "'shortcut' of \(entry)"
    let place = Place.text(what)
    for pair in mappingPairs(node, what: place, expected: "a mapping with 'type', 'title' and optionally 'when'") {
      guard let field = keyText(pair.key, in: place) else { continue }
      switch field.value {
      case "type": shortcut.type = nonEmptyString(pair.value, what: .text("'type' of \(what)"))
      case "title": shortcut.title = nonEmptyString(pair.value, what: .text("'title' of \(what)"))
      case "when":
        if document.kind(pair.value) == .sequence {
          shortcut.conditions = stringList(pair.value, what: .text("'when' of \(what)"), items: "condition names such as '[signed_in]'") ?? []
        } else if let condition = nonEmptyString(pair.value, what: .text("'when' of \(what)")) {
          shortcut.conditions = [condition]
        }
      default: unknownKey(field, in: what, allowed: EntryPointKeys.shortcut)
      }
    }
    requireKeys(["type", "title"], in: node, of: what, at: key.range)
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
        .notExpected(what: what, expected: "a string, a number or a boolean", found: FoundValue(node, in: document)), at: document.range(node))
      return nil
    }
  }
}
