/// A screen name declared in several modules: the config must say which one it means.
public enum AmbiguousScreenRule: CodeRule {
  public static let id = "ambiguous-screen"
  public static let summary = "A screen name declared in several modules must be qualified with its module."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      "version: 1\nscreens:\n  1️⃣SettingsViewController: {page_events: {enter: SETTINGS_ENTER}}\n",
      swift: [
        "Sources/App/Settings.swift": "class SettingsViewController {}\n",
        "Sources/Legacy/Settings.swift": "class SettingsViewController {}\n",
      ],
      expecting: [
        .error(
          "screen type 'SettingsViewController' is declared in several modules; write 'App.SettingsViewController' or 'Legacy.SettingsViewController'"
        )
      ]),
    .passes(
      "version: 1\nscreens:\n  App.SettingsViewController: {page_events: {enter: SETTINGS_ENTER}}\n",
      swift: [
        "Sources/App/Settings.swift": "class SettingsViewController: UIViewController {}\n",
        "Sources/Legacy/Settings.swift": "class SettingsViewController {}\n",
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    for screen in code.plan.screens {
      guard case .ambiguous(let types)? = code.resolution(of: screen.id) else { continue }
      let name = code.plan.written(screen.id).name
      let names = types.map { "'\(code.index[$0].qualifiedName)'" }.joined(separator: " or ")
      context.report(
        Self.self, "screen type '\(name.value)' is declared in several modules; write \(names)", at: name.range,
        notes: types.map { Diagnostic.Note("'\(code.index[$0].qualifiedName)' is declared here", at: code.index[$0].nameLocation) })
    }
  }
}
