/// A data type or purpose that is not one of the values Apple's privacy manifest defines, or a purpose
/// listed twice: the manifest and the App Store label can hold Apple's values only, so a typo would
/// silently leave data undeclared.
public enum PrivacyTermRule: StructureRule {
  public static let id = "privacy-term"
  public static let summary =
    "A property's 'data' must be one of Apple's data types and 'purposes' Apple's purposes, each listed once (with a did-you-mean for typos)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      destinations:
        ads: {purposes: [1️⃣advertising, 2️⃣analytic, analytics, 3️⃣analytics, analytics]}
      properties:
        email: {type: string, data: 4️⃣email}
        place: {type: string, data: 5️⃣whereabouts}
      screens: {}
      """,
      expecting: [
        .error("'advertising' is not one of Apple's purposes; did you mean 'third_party_advertising'?"),
        .error("'analytic' is not one of Apple's purposes; did you mean 'analytics'?"),
        .warning("purpose 'analytics' is listed again (2 more times)"),
        .error("'email' is not one of Apple's data types; did you mean 'email_address'?"),
        .error("'whereabouts' is not one of Apple's data types"),
      ]),
    .passes(
      """
      version: 1
      destinations:
        firebase: {wire_name: Firebase, purposes: [analytics, app_functionality]}
      properties:
        email: {type: string, data: email_address, linked: true, tracking: false, purposes: [app_functionality]}
      screens: {}
      """),
  ]

  // Found by the config decoder (`ConfigProblem.privacyTerm`), which reads the vocabularies.
  static func report(_ term: ConfigProblem.PrivacyTerm, in context: inout RuleContext) {
    switch term {
    case .unknownDataType(let text):
      report(
        text, kind: "data types", suggestion: PersonalDataType.suggestion(for: text.value)?.rawValue,
        allowed: PersonalDataType.allCases.map(\.rawValue), count: 1, in: &context)
    case .unknownPurpose(let text, let count):
      report(
        text, kind: "purposes", suggestion: DataPurpose.suggestion(for: text.value)?.rawValue,
        allowed: DataPurpose.allCases.map(\.rawValue), count: count, in: &context)
    case .moreUnknownPurposes(let values, let entries, let what, let range):
      let counted = values == entries ? "\(values) more entries" : "\(entries) more entries (\(values) different values)"
      context.report(Self.self, "\(what) holds \(counted) that are not Apple's purposes", at: range)
    case .repeatedPurpose(let purpose, let repeats):
      context.report(
        Self.self, "purpose '\(purpose.value)' is listed again" + (repeats == 1 ? "" : " (\(repeats) more times)"), at: purpose.range,
        severity: .warning)
    }
  }

  private static func report(
    _ text: Located<String>, kind: String, suggestion: String?, allowed: [String], count: Int, in context: inout RuleContext
  ) {
    let times = count > 1 ? " (listed \(count) times)" : ""
    let notes = [Diagnostic.Note("Apple's \(kind): " + allowed.joined(separator: ", "))]
    guard let suggestion else {
      context.report(Self.self, "'\(text.value)' is not one of Apple's \(kind)\(times)", at: text.range, notes: notes)
      return
    }
    context.report(
      Self.self, "'\(text.value)' is not one of Apple's \(kind)\(times); did you mean '\(suggestion)'?", at: text.range, notes: notes,
      fixIt: context.fixIt(replacing: text.range, with: suggestion))
  }
}
