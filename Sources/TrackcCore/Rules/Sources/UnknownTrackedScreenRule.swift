/// The code to config check of SwiftUI screens: a `.tracked(_:)` modifier whose screen is not a SwiftUI
/// screen of the plan (renamed, removed, or a typo), reported at the modifier, with a did-you-mean.
/// The generated `TrackingScreen` would not compile either; this says so before generating, at the line.
public enum UnknownTrackedScreenRule: CodeRule {
  public static let id = "unknown-tracked-screen"
  public static let summary = "Every .tracked(_:) modifier in the code must name a SwiftUI screen of the plan."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        SettingsView: {page_events: {enter: SETTINGS_ENTER}}
      """,
      swift: [
        "Sources/Settings/SettingsView.swift": """
        import SwiftUI
        struct SettingsView: View {
          var body: some View {
            Form {}.tracked(.settingsView)
          }
        }
        struct ProfileView: View {
          var body: some View {
            Text("Profile").1️⃣tracked(.profileView)
          }
        }
        struct AboutView: View {
          var body: some View {
            Text("About").2️⃣tracked(TrackingScreen.settingsVeiw)
          }
        }
        """
      ],
      expecting: [
        .error("'.tracked(.profileView)' names no SwiftUI screen of the plan (its SwiftUI screens: .settingsView)"),
        .error("'.tracked(.settingsVeiw)' names no SwiftUI screen of the plan; did you mean '.settingsView'?"),
      ]),
    .passes(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        SettingsView: {page_events: {enter: SETTINGS_ENTER}}
        Profile.ProfileView: {page_events: {enter: PROFILE_ENTER}}
      """,
      swift: [
        "Sources/Settings/SettingsView.swift": """
        import SwiftUI
        struct SettingsView: View {
          var body: some View {
            Form {}.tracked(.settingsView)
          }
        }
        """,
        "Sources/Profile/ProfileView.swift": """
        import SwiftUI
        struct ProfileView: View {
          var body: some View {
            Text("Profile").tracked(TrackingScreen.profileProfileView)
          }
        }
        """,
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    let uses = code.index.swiftUI.trackedUses
    guard !uses.isEmpty else { return }
    let cases = SwiftUIScreenCases(code)
    let names = cases.entries.map(\.caseName)
    for use in uses where cases.entry(forCase: use.caseName) == nil {
      let location = use.location.sourceLocation(spanning: "tracked")
      if let suggestion = Suggestions.closest(to: use.caseName, in: names) {
        context.report(
          Self.self, "'.tracked(.\(use.caseName))' names no SwiftUI screen of the plan; did you mean '.\(suggestion)'?", at: location)
      } else if names.isEmpty {
        context.report(
          Self.self,
          "'.tracked(.\(use.caseName))' names no SwiftUI screen of the plan, which has none: list the view under 'screens', or remove the modifier",
          at: location)
      } else {
        context.report(
          Self.self,
          "'.tracked(.\(use.caseName))' names no SwiftUI screen of the plan (its SwiftUI screens: \(names.map { "." + $0 }.joined(separator: ", ")))",
          at: location)
      }
    }
  }
}
