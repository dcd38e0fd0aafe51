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
      ]),
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

  public static func check(_ config: TrackingConfig, against code: CodeMatch, in context: inout RuleContext) {
    guard let bases = config.conventions.requireScreens, !bases.isEmpty else { return }
    let baseNames = Set(bases.map(\.value))
    let types = code.index.registry.types
    // Base classes: anything another type's chain passes through.
    var inherited = Set<Int>()
    var declarations: [String: Int] = [:]
    for index in types.indices {
      inherited.formUnion(code.index.lineage(of: index).dropFirst())
      declarations[types[index].name, default: 0] += 1
    }
    for (index, type) in types.enumerated() where type.kind == .class && !code.mappedTypes.contains(index) && !inherited.contains(index) {
      guard !baseNames.contains(type.name) else { continue }
      let lineage = code.index.lineage(of: index)
      let chain = lineage.dropFirst().map { types[$0].name } + [code.index.externalBase(of: index)].compactMap { $0 }
      guard let base = chain.first(where: baseNames.contains) else { continue }
      // Two modules declaring the name need the module to tell the screens apart.
      let name = declarations[type.name, default: 0] > 1 ? type.qualifiedName : type.name
      context.report(
        Self.self, "'\(name)' is a \(base) but no screen lists it; add it to 'screens'", at: type.location.sourceLocation,
        notes: bases.first { $0.value == base }.map { [Diagnostic.Note("required by conventions.require_screens", at: context.location($0.range))] } ?? [])
    }
  }
}
