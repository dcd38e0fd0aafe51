/// Data used to track that reaches a destination with no tracking domain: iOS lets requests to a
/// manifest's tracking domains through only once the person has allowed tracking (App Tracking
/// Transparency), and a manifest that says it tracks must list those domains. A tracking destination
/// without them would track a person who said no.
public enum TrackingWithoutDomainRule: PlanRule {
  public static let id = "tracking-without-domain"
  public static let summary = "Data marked 'tracking: true' may reach only destinations that list their 'tracking_domains'."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      \(config)
        advertising_id: {type: string, data: device_id, tracking: 1️⃣true}
      screens:
        Home:
          control_events:
            onBanner(id:): {event: HOME_BANNER, properties: {advertising_id: {from: id}}}
      """,
      expecting: [
        .error(
          "property 'advertising_id' as 'properties' declares it (device_id) is used for tracking and reaches destination 'firebase', which lists no 'tracking_domains'"
        )
      ]),
    .passes(
      """
      \(config)
        advertising_id: {type: string, data: device_id, tracking: true}
      screens:
        Home:
          control_events:
            onBanner(id:): {event: HOME_BANNER, destinations: [ads], properties: {advertising_id: {from: id}}}
      """),
  ]

  /// The examples' destinations, up to the declared properties.
  private static let config = """
    version: 1
    destinations:
      firebase: {wire_name: Firebase, purposes: [analytics]}
      ads: {purposes: [third_party_advertising], tracking_domains: [ads.example.com]}
    properties:
    """

  private struct Reported: Hashable {
    var classification: SourceRange
    var destination: String?
  }

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    let privacy = plan.privacy
    var reported = Set<Reported>()
    for use in privacy.uses where use.isCollected && use.classification.isTracking {
      let classification = use.classification
      let at = classification.tracking?.range ?? use.name.range
      let subject = "\(PurposeNotCoveredRule.subject(use)) (\(use.dataType.rawValue)) is used for tracking"
      guard let destinations = use.destinations else {
        if reported.insert(Reported(classification: classification.range, destination: nil)).inserted {
          context.report(
            Self.self,
            "\(subject) and reaches every destination the app registers; declare the plan's 'destinations' and the 'tracking_domains' of those that track",
            at: at)
        }
        continue
      }
      for destination in destinations where privacy.destinations[destination]?.trackingDomains?.isEmpty != false {
        guard reported.insert(Reported(classification: classification.range, destination: destination)).inserted else { continue }
        context.report(
          Self.self, "\(subject) and reaches destination '\(destination)', which lists no 'tracking_domains'", at: at,
          notes: [
            Diagnostic.Note("sent by \(use.description)", at: context.location(use.name.range)),
            Diagnostic.Note(
              "iOS lets requests to a tracking domain through only once the person allows tracking; list the domains '\(destination)' tracks through, or send it nothing used for tracking"
            ),
          ])
      }
    }
  }
}
