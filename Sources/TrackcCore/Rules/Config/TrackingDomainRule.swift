import TrackcLinks

/// A tracking domain that is not a host name: the manifest's `NSPrivacyTrackingDomains` lists domains
/// (`ads.example.com`), which iOS matches against the requests the app makes.
public enum TrackingDomainRule: PlanRule {
  public static let id = "tracking-domain"
  public static let summary =
    "Each of a destination's 'tracking_domains' must be an ASCII host name (an IDN in its xn-- form), without a scheme or path."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      destinations:
        ads: {tracking_domains: [ads.example.com, 1️⃣"https://track.example.com/v1", 2️⃣werbung.bücher.example]}
      screens: {}
      """,
      expecting: [
        .error("tracking domain 'https://track.example.com/v1' of destination 'ads' is a URL; write the domain alone ('track.example.com')"),
        .error("tracking domain 'werbung.bücher.example' of destination 'ads' is not in its ASCII form; write 'werbung.xn--bcher-kva.example'"),
      ]),
    .passes(
      """
      version: 1
      destinations:
        ads: {purposes: [third_party_advertising], tracking_domains: [ads.example.com, xn--bcher-kva.example]}
      screens: {}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    for destination in plan.config.destinations ?? [] {
      for domain in destination.privacy.trackingDomains ?? [] where !LinkOriginRule.isHost(domain.value) {
        let what = "tracking domain '\(domain.value)' of destination '\(destination.id.value)'"
        if !domain.value.unicodeScalars.allSatisfy(\.isASCII), let ascii = Punycode.asciiHost(domain.value), LinkOriginRule.isHost(ascii) {
          context.report(
            Self.self, "\(what) is not in its ASCII form; write '\(ascii)'", at: domain.range,
            fixIt: context.fixIt(replacing: domain.range, with: ascii))
        } else if let host = hostOfURL(domain.value), LinkOriginRule.isHost(host) {
          context.report(
            Self.self, "\(what) is a URL; write the domain alone ('\(host)')", at: domain.range,
            fixIt: context.fixIt(replacing: domain.range, with: host))
        } else {
          context.report(Self.self, "\(what) is not a host name (ASCII letters, digits, '-' and '.')", at: domain.range)
        }
      }
    }
  }

  /// `track.example.com` of `https://track.example.com/v1`.
  private static func hostOfURL(_ text: String) -> String? {
    let parts = text.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
    // `https:`, ``, `track.example.com`, the rest.
    guard parts.count >= 3, parts[0].hasSuffix(":"), parts[1].isEmpty else { return nil }
    return String(parts[2].prefix { $0 != "?" && $0 != "#" && $0 != ":" })
  }
}
