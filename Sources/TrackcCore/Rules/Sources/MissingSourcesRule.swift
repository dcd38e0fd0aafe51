/// A path under `sources` that does not exist: nothing there can be checked, so every screen would look
/// unknown. Paths are relative to the config's directory.
public enum MissingSourcesRule: Rule {
  public static let id = "missing-sources"
  public static let summary = "Every path under 'sources' must exist (relative to the config's directory)."
  public static let severity = Diagnostic.Severity.error
  public static let phase = RulePhase.sources

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      sources: [Tests/Fixtures/app/Sources, 1️⃣Tests/Fixtures/app/Sourcez]
      screens:
        HomeViewController: {control_events: {onFavBtnPressed(_:): HOME_FAV}}
      """,
      expecting: [.error("source path 'Tests/Fixtures/app/Sourcez' does not exist (paths under 'sources' are relative to the config's directory)")]),
    .passes(
      """
      version: 1
      sources: [Tests/Fixtures/app/Sources]
      screens:
        HomeViewController: {control_events: {onFavBtnPressed(_:): HOME_FAV}}
      """),
  ]

  /// The paths under `sources`, resolved against the config's directory, that exist; each that does not
  /// is reported. `Linter` scans what this returns.
  static func existingPaths(of config: TrackingConfig, configPath: String, in context: inout RuleContext) -> [String] {
    let directory = RelativePath.directory(of: configPath)
    var paths: [String] = []
    for entry in config.sources ?? [] {
      let path = entry.value.hasPrefix("/") || directory.isEmpty ? entry.value : directory + "/" + entry.value
      guard FileSystem.exists(path) else {
        context.report(
          Self.self, "source path '\(entry.value)' does not exist (paths under 'sources' are relative to the config's directory)",
          at: entry.range)
        continue
      }
      paths.append(path)
    }
    return paths
  }
}
