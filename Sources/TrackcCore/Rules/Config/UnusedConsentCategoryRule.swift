/// A consent category the plan declares that no destination names: asking the person about it gates
/// nothing, so their answer has no effect (a destination meant to be gated by it is likely missing its
/// `consent:`).
public enum UnusedConsentCategoryRule: PlanRule {
  public static let id = "unused-consent-category"
  public static let summary = "A consent category declared under 'privacy.consent' should gate at least one destination ('consent:')."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      privacy:
        identity: {anonymous_id: {data: device_id}}
        consent: {analytics: {default: granted}, 1️⃣advertising: {}}
      destinations:
        firebase: {wire_name: Firebase, consent: analytics, purposes: [analytics]}
        ads: {purposes: [third_party_advertising]}
      screens: {}
      """,
      expecting: [
        .warning(
          "consent category 'advertising' is declared, but no destination names it in 'consent', so the person's answer gates nothing"
        )
      ]),
    .passes(UnknownConsentCategoryRule.everyCategoryGating),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    guard let categories = plan.config.privacy?.consentCategories, !categories.isEmpty else { return }
    let used = Set((plan.config.destinations ?? []).compactMap { $0.privacy.consent?.value })
    for category in categories where !used.contains(category.name.value) {
      context.report(
        Self.self,
        "consent category '\(category.name.value)' is declared, but no destination names it in 'consent', so the person's answer gates nothing",
        at: category.name.range,
        notes: [Diagnostic.Note("gate a destination with it ('consent: \(category.name.value)'), or remove it")])
    }
  }
}
