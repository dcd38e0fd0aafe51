/// A destination gated by a consent category the plan does not declare: the generated registry could
/// not say which of the person's answers gates it.
public enum UnknownConsentCategoryRule: PlanRule {
  public static let id = "unknown-consent-category"
  public static let summary = "A destination's 'consent' must name a category declared under 'privacy.consent' (with a did-you-mean for typos)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      privacy:
        consent: {analytics: {default: granted}, advertising: {}}
      destinations:
        firebase: {wire_name: Firebase, consent: 1️⃣analytic}
        ads: {consent: 2️⃣marketing}
      screens: {}
      """,
      expecting: [
        .error("consent category 'analytic' of destination 'firebase' is not declared; did you mean 'analytics'?"),
        .error("consent category 'marketing' of destination 'ads' is not declared under 'privacy.consent'"),
      ]),
    .triggers(
      """
      version: 1
      destinations:
        firebase: {wire_name: Firebase, consent: 1️⃣analytics}
      screens: {}
      """,
      expecting: [
        .error(
          "consent category 'analytics' of destination 'firebase' is not declared; the plan declares no consent categories ('consent' under 'privacy')"
        )
      ]),
    .passes(everyCategoryGating),
  ]

  /// A plan that declares each category a destination names, and gates a destination with each category
  /// it declares: the passing example of this rule and of `UnusedConsentCategoryRule`.
  static let everyCategoryGating = """
    version: 1
    privacy:
      identity: {anonymous_id: {data: device_id}}
      consent: {analytics: {default: granted}, advertising: {}}
    destinations:
      firebase: {wire_name: Firebase, consent: analytics, purposes: [analytics]}
      ads: {consent: advertising, purposes: [third_party_advertising]}
    screens: {}
    """

  /// At most this many distinct unknown names get a did-you-mean: each is a search of every category, and
  /// a plan with thousands of destinations naming thousands of unknown categories is not a typo.
  static let suggestedNames = 100

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    var suggestions: [String: String?] = [:]
    for destination in plan.config.destinations ?? [] {
      guard let consent = destination.privacy.consent else { continue }
      let what = "consent category '\(consent.value)' of destination '\(destination.id.value)'"
      guard let categories = plan.privacy.consentCategories else {
        context.report(Self.self, "\(what) is not declared; the plan declares no consent categories ('consent' under 'privacy')", at: consent.range)
        continue
      }
      guard !categories.contains(consent.value) else { continue }
      if suggestions[consent.value] == nil && suggestions.count < suggestedNames {
        suggestions[consent.value] = .some(Suggestions.closest(to: consent.value, in: categories))
      }
      if let suggestion = suggestions[consent.value] ?? nil {
        context.report(
          Self.self, "\(what) is not declared; did you mean '\(suggestion)'?", at: consent.range,
          fixIt: context.fixIt(replacing: consent.range, with: suggestion))
      } else {
        context.report(
          Self.self, "\(what) is not declared under 'privacy.consent'", at: consent.range,
          notes: [Diagnostic.Note(categories.isEmpty ? "no consent categories are declared" : "declared categories: \(listed(categories))")])
      }
    }
  }

  /// Names for a note: the first ten quoted, then how many more.
  static func listed(_ names: [String]) -> String {
    let shown = names.prefix(10).map { "'\($0)'" }.joined(separator: ", ")
    return names.count > 10 ? "\(shown) and \(names.count - 10) more" : shown
  }
}
