/// A screen the config forgot: a class whose superclass chain reaches one of
/// `conventions.require_screens` (`UIViewController`, say: through UIKit's own subclasses such as
/// `UITableViewController` and the app's, in any module), a SwiftUI view that is a screen (`View`), or a
/// view model (`ObservableObject`, `Observable`), with no entry in `screens`. Off unless the convention
/// is set; classes that others inherit from (base classes) are not required.
public enum UnmappedScreenRule: CodeRule {
  public static let id = "unmapped-screen"
  public static let summary =
    "With conventions.require_screens, every screen of those kinds (subclasses of a base, SwiftUI screens, view models) must be listed under 'screens'."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      uikitConfig,
      swift: [
        "Sources/App/Screens.swift": """
        class BaseViewController: UIViewController {}
        class HomeViewController: BaseViewController {
          @objc func onFav(_ sender: Any) {}
        }
        class 1️⃣SettingsViewController: BaseViewController {}
        class 2️⃣ProductListViewController: UITableViewController {}
        class Helper {}
        """
      ],
      expecting: [
        .error("'SettingsViewController' is a UIViewController but no screen lists it; add it to 'screens'"),
        .error("'ProductListViewController' is a UIViewController (a UITableViewController) but no screen lists it; add it to 'screens'"),
      ]),
    .triggers(
      """
      version: 1
      conventions: {require_screens: [View, ObservableObject]}
      screens:
        SettingsView: {page_events: {enter: SETTINGS_ENTER}}
      """,
      swift: [
        "Sources/App/Screens.swift": """
        import SwiftUI
        struct SettingsView: View {
          @StateObject var model = ProfileModel()
          var body: some View {
            NavigationLink("Profile") { ProfileView(model: model) }.tracked(.settingsView)
          }
        }
        struct 1️⃣ProfileView: View {
          @ObservedObject var model: ProfileModel
          var body: some View { Text("Profile") }
        }
        final class 2️⃣ProfileModel: ObservableObject {}
        struct Badge: View {
          var body: some View { Text("New") }
        }
        """
      ],
      expecting: [
        .error("'ProfileView' is a SwiftUI screen (presented or navigated to) but no screen lists it; add it to 'screens'"),
        .error("'ProfileModel' is a view model (an ObservableObject a view holds) but no screen lists it; add it to 'screens'"),
      ]),
    .passes(
      uikitConfig,
      swift: [
        "Sources/App/Screens.swift": """
        class HomeViewController: UIViewController {
          @objc func onFav(_ sender: Any) {}
        }
        class Helper {}
        """
      ]),
  ]

  /// The config of the examples of UIKit screens: one screen listed, UIViewController's subclasses required.
  private static let uikitConfig = """
    version: 1
    conventions: {require_screens: [UIViewController]}
    screens:
      HomeViewController: {control_events: {onFav(_:): HOME_FAV}}
    """

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    guard let bases = code.plan.config.conventions.requireScreens, !bases.isEmpty else { return }
    for required in code.index.requiredScreens(Set(bases.map(\.value)), listed: code.mappedTypes) where !code.mappedTypes.contains(required.type) {
      let type = code.index[required.type]
      let base = required.requirement
      // Two modules declaring the name need the module to tell the screens apart.
      let name = code.index.isDeclaredInSeveralModules(type.name) ? type.qualifiedName : type.name
      context.report(
        Self.self, "'\(name)' is \(required.description) but no screen lists it; add it to 'screens'", at: type.nameLocation,
        notes: bases.first { $0.value == base }.map { [Diagnostic.Note("required by conventions.require_screens", at: context.location($0.range))] }
          ?? [])
    }
  }
}
