/// A destination that no consent category gates, in a plan that asks the person for consent: it would
/// receive events whatever the person answers, which is rarely what a plan that declares categories
/// means.
public enum DestinationWithoutConsentRule: PlanRule {
  public static let id = "destination-without-consent"
  public static let summary = "When the plan declares consent categories, every destination should name the one that gates it."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      privacy:
        consent: {analytics: {default: granted}, advertising: {}}
      destinations:
        firebase: {wire_name: Firebase, consent: analytics}
        1️⃣crashes: {}
      screens: {}
      """, expecting: [.warning("destination 'crashes' names no consent category, so it receives events whatever the person consents to")]),
    .passes(
      """
      version: 1
      destinations:
        firebase: {wire_name: Firebase}
      screens: {}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    guard let categories = plan.privacy.consentCategories, !categories.isEmpty else { return }
    let list = UnknownConsentCategoryRule.listed(categories)
    var seen = Set<String>()
    for destination in plan.config.destinations ?? [] where seen.insert(destination.id.value).inserted && destination.privacy.consent == nil {
      context.report(
        Self.self,
        "destination '\(destination.id.value)' names no consent category, so it receives events whatever the person consents to",
        at: destination.id.range, notes: [Diagnostic.Note("give it one of the plan's categories (consent: ...): \(list)")])
    }
  }
}
