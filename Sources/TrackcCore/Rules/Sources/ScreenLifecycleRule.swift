/// Page events on a type that cannot have the lifecycle the interception watches: they would never fire.
///
/// Under `objc-runtime` page events come from `UIViewController`'s appearance methods, so the screen must
/// be a class; under `dynamic-replacement` they come from replacing the screen's lifecycle methods
/// (`conventions.lifecycle`, by default `viewDidAppear(_:)` and `viewDidDisappear(_:)`), which the type
/// or a superclass in the sources must declare.
public enum ScreenLifecycleRule: CodeRule {
  public static let id = "screen-lifecycle"
  public static let summary = "A screen with page events must have the lifecycle its interception watches (a class; or the lifecycle methods)."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      "version: 1\nscreens:\n  HomeView:\n    page_events: {1️⃣enter: HOME_ENTER}\n",
      swift: ["Sources/Home/HomeView.swift": "struct HomeView {}\n"],
      expecting: [
        .warning("'HomeView' is a struct, so it has no view controller lifecycle: its enter event (interception: objc-runtime) would never fire")
      ]),
    .triggers(
      "version: 1\ninterception: dynamic-replacement\nscreens:\n  HomeModel:\n    page_events: {enter: HOME_ENTER, 1️⃣leave: HOME_LEAVE}\n",
      swift: ["Sources/Home/HomeModel.swift": "class HomeModel {\n  func viewDidAppear(_ animated: Bool) {}\n}\n"],
      expecting: [
        .warning(
          "'HomeModel' declares no 'viewDidDisappear(_:)' (nor does a superclass in the sources), so its leave event cannot be intercepted; declare it, or name another method in conventions.lifecycle"
        )
      ]),
    .passes(
      """
      version: 1
      interception: dynamic-replacement
      conventions: {lifecycle: {enter: onAppear(), leave: onDisappear()}}
      screens:
        HomeModel: {page_events: {enter: HOME_ENTER, leave: HOME_LEAVE}}
      """,
      swift: ["Sources/Home/HomeModel.swift": "class HomeModel {\n  func onAppear() {}\n  func onDisappear() {}\n}\n"]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    let plan = code.plan
    for screen in plan.screens {
      let written = plan.written(screen.id)
      guard let type = code.type(of: screen.id), !written.pageEvents.isEmpty else { continue }
      let declared = code.index[type]
      let at = [Diagnostic.Note("'\(declared.name)' is declared here", at: declared.nameLocation)]
      switch plan.interception {
      case .objcRuntime:
        guard declared.kind != .class else { continue }
        for page in written.pageEvents {
          context.report(
            Self.self,
            "'\(declared.name)' is \(HandlerNotInterceptableRule.article(declared.kind)), so it has no view controller lifecycle: its \(page.phase.value.rawValue) event (interception: objc-runtime) would never fire",
            at: page.phase.range, notes: at)
        }
      case .dynamicReplacement:
        for page in written.pageEvents where code.lifecycleMethod(for: page.phase.value, of: type) == nil {
          let lifecycle = plan.config.conventions.lifecycle.method(for: page.phase.value)
          context.report(
            Self.self,
            "'\(declared.name)' declares no '\(lifecycle)' (nor does a superclass in the sources), so its \(page.phase.value.rawValue) event cannot be intercepted; declare it, or name another method in conventions.lifecycle",
            at: page.phase.range, notes: at)
        }
      }
    }
  }
}
