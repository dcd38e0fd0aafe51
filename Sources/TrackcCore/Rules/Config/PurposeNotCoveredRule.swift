/// Personal data that reaches a destination whose use of it the plan does not allow, or whose use of
/// it the plan does not say: the privacy manifest and the App Store label must state every purpose
/// data is collected for, and a value classified for some purposes only must not go where it serves
/// another.
public enum PurposeNotCoveredRule: PlanRule {
  public static let id = "purpose-not-covered"
  public static let summary =
    "Classified data may reach only destinations that declare 'purposes', all of them among the purposes the data allows."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      destinations:
        1️⃣firebase: {wire_name: Firebase}
        ads: {purposes: [third_party_advertising]}
      properties:
        email: {type: string, data: email_address, 2️⃣purposes: [app_functionality]}
      screens:
        Profile:
          control_events:
            onSave(email:): {event: PROFILE_SAVE, properties: {email: {from: email}}}
      """,
      expecting: [
        .error(
          "destination 'firebase' receives personal data (email_address, device_id, product_interaction, other_diagnostic_data) but declares no 'purposes'; the privacy manifest must say what it is used for"
        ),
        .error(
          "property 'email' as 'properties' declares it (email_address) may be used for app_functionality only, but reaches destination 'ads', which uses what it receives for third_party_advertising"
        ),
      ]),
    .triggers(
      RuleExample.handlerConfig(
        "Search", "onSearch(query:)", event: "SEARCH", properties: "{1️⃣query: {from: query, data: search_history}}"),
      expecting: [
        .error(
          "the plan sends personal data (search_history, device_id, product_interaction, other_diagnostic_data) to every destination the app registers; declare its 'destinations' and their 'purposes', so that what the data is used for is known"
        )
      ]),
    .passes(
      """
      version: 1
      destinations:
        firebase: {wire_name: Firebase, purposes: [analytics, app_functionality]}
        ads: {purposes: [third_party_advertising]}
      properties:
        email: {type: string, data: email_address, purposes: [analytics, app_functionality]}
      screens:
        Profile:
          control_events:
            onSave(email:): {event: PROFILE_SAVE, destinations: [firebase], properties: {email: {from: email}}}
      """),
  ]

  private struct Reported: Hashable {
    var classification: SourceRange
    var destination: String
  }

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    let privacy = plan.privacy
    // A plan that says nothing of privacy collects for analytics (`PrivacyPlan`); purposes are checked
    // once it speaks of them.
    guard privacy.isDeclared, !privacy.uses.isEmpty else { return }
    var reported = Set<Reported>()
    var unrestricted = Set<PersonalDataType>()
    var withoutPurposes: [String: Set<PersonalDataType>] = [:]
    for use in privacy.uses where use.isCollected {
      let classification = use.classification
      let type = use.dataType.rawValue
      guard let destinations = use.destinations else {
        unrestricted.insert(use.dataType)
        continue
      }
      for destination in destinations {
        guard let purposes = privacy.destinations[destination]?.purposes else {
          withoutPurposes[destination, default: []].insert(use.dataType)
          continue
        }
        guard let allowed = classification.purposes?.map(\.value) else { continue }
        let beyond = purposes.map(\.value).filter { !allowed.contains($0) }
        guard !beyond.isEmpty, reported.insert(Reported(classification: classification.range, destination: destination)).inserted else { continue }
        var notes = [Diagnostic.Note("sent by \(use.description)", at: context.location(use.name.range))]
        if let range = privacy.destinations[destination]?.purposesRange {
          notes.append(Diagnostic.Note("destination '\(destination)' declares its purposes here", at: context.location(range)))
        }
        context.report(
          Self.self,
          "\(subject(use)) (\(type)) may be used for \(words(allowed)) only, but reaches destination '\(destination)', which uses what it receives for \(words(beyond))",
          at: classification.purposesRange ?? classification.dataType?.range ?? use.name.range, notes: notes)
      }
    }
    if !unrestricted.isEmpty {
      context.report(
        Self.self,
        "the plan sends personal data (\(unrestricted.sorted().map(\.rawValue).joined(separator: ", "))) to every destination the app registers; declare its 'destinations' and their 'purposes', so that what the data is used for is known",
        at: privacy.anchor)
    }
    var seen = Set<String>()
    for destination in plan.config.destinations ?? [] where seen.insert(destination.id.value).inserted {
      guard let types = withoutPurposes[destination.id.value] else { continue }
      context.report(
        Self.self,
        "destination '\(destination.id.value)' receives personal data (\(types.sorted().map(\.rawValue).joined(separator: ", "))) but declares no 'purposes'; the privacy manifest must say what it is used for",
        at: destination.id.range)
    }
  }

  /// The value, or the declaration, whose classification a finding is about.
  static func subject(_ use: PrivacyPlan.DataUse) -> String {
    use.isOwnClassification ? use.description : "property '\(use.name.value)' as 'properties' declares it"
  }

  private static func words(_ purposes: [DataPurpose]) -> String {
    purposes.map(\.rawValue).joined(separator: ", ")
  }
}
