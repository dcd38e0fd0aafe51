/// A screen the config forgot: a class whose superclass chain reaches one of
/// `conventions.require_screens` (`UIViewController`, say) with no entry in `screens`. Off unless the
/// convention is set; classes that others inherit from (base classes) are not required.
public enum UnmappedScreenRule: CodeRule {
  public static let id = "unmapped-screen"
  public static let summary = "With conventions.require_screens, every subclass of those bases must be listed under 'screens'."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      conventions: {require_screens: [UIViewController]}
      screens:
        HomeViewController: {control_events: {onFav(_:): HOME_FAV}}
      """,
      swift: [
        "Sources/App/Screens.swift": """
        class BaseViewController: UIViewController {}
        class HomeViewController: BaseViewController {
          @objc func onFav(_ sender: Any) {}
        }
        class 1️⃣SettingsViewController: BaseViewController {}
        class Helper {}
        """
      ], expecting: [.error("'SettingsViewController' is a UIViewController but no screen lists it; add it to 'screens'")]),
    .passes(
      """
      version: 1
      conventions: {require_screens: [UIViewController]}
      screens:
        HomeViewController: {control_events: {onFav(_:): HOME_FAV}}
      """,
      swift: [
        "Sources/App/Screens.swift": """
        class HomeViewController: UIViewController {
          @objc func onFav(_ sender: Any) {}
        }
        class Helper {}
        """
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    guard let bases = code.plan.config.conventions.requireScreens, !bases.isEmpty else { return }
    for (index, base) in code.index.screenClasses(derivingFrom: Set(bases.map(\.value))) where !code.mappedTypes.contains(index) {
      let type = code.index[index]
      // Two modules declaring the name need the module to tell the screens apart.
      let name = code.index.isDeclaredInSeveralModules(type.name) ? type.qualifiedName : type.name
      context.report(
        Self.self, "'\(name)' is a \(base) but no screen lists it; add it to 'screens'", at: type.nameLocation,
        notes: bases.first { $0.value == base }.map { [Diagnostic.Note("required by conventions.require_screens", at: context.location($0.range))] }
          ?? [])
    }
  }
}
