/// The reverse check: a handler the code marks as tracked (`conventions.require_tracking`: a name suffix
/// such as `_UA`, a doc-comment tag such as `@tracked`) that no screen maps. Reported at the Swift
/// declaration, so that Xcode and editors jump to it.
public enum UntrackedHandlerRule: CodeRule {
  public static let id = "untracked-handler"
  public static let summary = "Every handler marked for tracking in the code (conventions.require_tracking) must be mapped by a screen."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      conventions: {require_tracking: {suffix: _UA, tag: "@tracked"}}
      screens:
        HomeViewController: {control_events: {onFav_UA(_:): HOME_FAV}}
      """,
      swift: [
        "Sources/Home/HomeViewController.swift": """
        class HomeViewController {
          @objc func onFav_UA(_ sender: Any) {}
          @objc func 1️⃣onShare_UA(_ sender: Any) {}
          /// Opens the cart. @tracked
          @objc func 2️⃣openCart() {}
          @objc func onScroll() {}
        }
        """
      ],
      expecting: [
        .error("handler 'onShare_UA(_:)' of 'HomeViewController' is marked for tracking (its name ends in '_UA') but no screen maps it"),
        .error("handler 'openCart()' of 'HomeViewController' is marked for tracking (its doc comment says '@tracked') but no screen maps it"),
      ]),
    .passes(
      """
      version: 1
      conventions: {require_tracking: {suffix: _UA}}
      screens:
        HomeViewController: {control_events: {onFav_UA(_:): HOME_FAV}}
      """,
      swift: [
        "Sources/Home/HomeViewController.swift":
          "class HomeViewController {\n  @objc func onFav_UA(_ sender: Any) {}\n  @objc func onScroll() {}\n}\n"
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    guard let marker = code.plan.config.conventions.requireTracking else { return }
    let setHere = [Diagnostic.Note("the tracking marker is set here", at: context.location(marker.range))]
    for (typeIndex, type) in code.index.registry.types.enumerated() {
      for (methodIndex, method) in type.methods.enumerated() where !method.isStatic {
        let reason: String
        if let suffix = marker.suffix?.value, method.baseName.hasSuffix(suffix) {
          reason = "its name ends in '\(suffix)'"
        } else if let tag = marker.tag?.value, method.documentation?.contains(tag) == true {
          reason = "its doc comment says '\(tag)'"
        } else {
          continue
        }
        guard !code.mappedMethods.contains(MethodReference(type: typeIndex, method: methodIndex)) else { continue }
        context.report(
          Self.self, "handler '\(method.name)' of '\(type.name)' is marked for tracking (\(reason)) but no screen maps it",
          at: method.nameLocation, notes: setHere)
      }
    }
  }
}
