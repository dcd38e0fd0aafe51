import TrackcLinks

/// A scheme, host or platform setting under `links` that links cannot carry or the platforms cannot read.
public enum LinkOriginRule: PlanRule {
  public static let id = "link-origin"
  public static let summary =
    "'links' must declare valid schemes (not http or https), ASCII host names (an IDN host in its xn-- form), app IDs as TEAMID.bundle.id, an Android activity class and website paths starting with '/'."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens: {}
      links:
        schemes: [1️⃣"shop app", 2️⃣https]
        hosts: [shop.example.com, 3️⃣bücher.example]
        apple: {app_ids: [4️⃣com.example.shop], exclude: [5️⃣account]}
        android: {activity: 6️⃣"Main Activity"}
      """,
      expecting: [
        .error("scheme 'shop app' is not a URL scheme (a letter, then letters, digits, '+', '-' or '.')"),
        .error("'https' is not a custom scheme; universal-link hosts go under 'hosts'"),
        .error("host 'bücher.example' is not in the ASCII form links carry; write 'xn--bcher-kva.example'"),
        .error("app ID 'com.example.shop' is not 'TEAMID.bundle.id' (a 10-character team ID, a dot, the bundle ID)"),
        .error("excluded path 'account' must start with '/' and hold no spaces or control characters"),
        .error("activity 'Main Activity' is not a Java class name such as '.MainActivity'"),
      ]),
    .passes(
      """
      version: 1
      screens: {}
      links:
        schemes: [shop]
        hosts: [shop.example.com, xn--bcher-kva.example]
        apple: {app_ids: [ABCDE12345.com.example.shop], exclude: ["/account/*"]}
        android: {activity: .MainActivity}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    guard let links = plan.config.links else { return }
    for scheme in links.schemes {
      let lower = scheme.value.lowercased()
      if lower == "http" || lower == "https" {
        context.report(Self.self, "'\(scheme.value)' is not a custom scheme; universal-link hosts go under 'hosts'", at: scheme.range)
      } else if !isScheme(scheme.value) {
        context.report(Self.self, "scheme '\(scheme.value)' is not a URL scheme (a letter, then letters, digits, '+', '-' or '.')", at: scheme.range)
      }
    }
    for host in links.hosts + (links.urlHosts ?? []) where !isHost(host.value) {
      if !host.value.unicodeScalars.allSatisfy(\.isASCII), let ascii = Punycode.asciiHost(host.value), isHost(ascii) {
        context.report(
          Self.self, "host '\(host.value)' is not in the ASCII form links carry; write '\(ascii)'", at: host.range,
          fixIt: context.fixIt(replacing: host.range, with: ascii))
      } else {
        context.report(Self.self, "'\(host.value)' is not a host name (ASCII letters, digits, '-' and '.')", at: host.range)
      }
    }
    for appID in links.apple?.appIDs ?? [] where !isAppID(appID.value) {
      context.report(Self.self, "app ID '\(appID.value)' is not 'TEAMID.bundle.id' (a 10-character team ID, a dot, the bundle ID)", at: appID.range)
    }
    for path in links.apple?.exclude ?? []
    where !path.value.hasPrefix("/") || !path.value.unicodeScalars.allSatisfy({ !TextEscaping.isInvisible($0) && $0 != " " }) {
      context.report(Self.self, "excluded path '\(path.value)' must start with '/' and hold no spaces or control characters", at: path.range)
    }
    if let activity = links.android?.activity, !isClassName(activity.value) {
      context.report(Self.self, "activity '\(activity.value)' is not a Java class name such as '.MainActivity'", at: activity.range)
    }
  }

  static func isScheme(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
    return text.unicodeScalars.allSatisfy {
      $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
    }
  }

  static func isHost(_ text: String) -> Bool {
    LinkPattern.isHostName(text) && !text.hasPrefix(".") && !text.hasSuffix(".") && !text.contains("..")
  }

  static func isAppID(_ text: String) -> Bool {
    let parts = text.split(separator: ".", maxSplits: 1)
    guard parts.count == 2, parts[0].count == 10, parts[0].unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) }) else {
      return false
    }
    return LinkPattern.isHostName(parts[1])
  }

  static func isClassName(_ text: String) -> Bool {
    !text.isEmpty
      && text.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_.$".unicodeScalars.contains($0))
      }
  }
}
