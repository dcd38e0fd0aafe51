/// A path under `sources` that does not exist: nothing there can be checked, so every screen would look
/// unknown. Paths are relative to the config's directory.
public enum MissingSourcesRule: Rule {
  public static let id = "missing-sources"
  public static let summary = "Every path under 'sources' must exist (relative to the config's directory)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      sources: [Tests/Fixtures/app/Sources, 1️⃣Tests/Fixtures/app/Sourcez]
      screens:
        HomeViewController: {control_events: {onFavBtnPressed(_:): HOME_FAV}}
      """),
    .passes(
      """
      version: 1
      sources: [Tests/Fixtures/app/Sources]
      screens:
        HomeViewController: {control_events: {onFavBtnPressed(_:): HOME_FAV}}
      """),
  ]
}
