/// A handler the screen's type (and its superclasses) does not declare: the renamed-handler case that
/// used to fail silently at run time.
public enum UnknownHandlerRule: CodeRule {
  public static let id = "unknown-handler"
  public static let summary = "Every handler must be a method of its screen's type or a superclass in the sources (with a did-you-mean)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        HomeViewController:
          control_events:
            1️⃣onFavBtnPressed(_:): CTRL_HOME_FAV
            2️⃣"onShareBtnPressed:": CTRL_HOME_SHARE
            3️⃣openProduct(identifier:position:): CTRL_HOME_PRODUCT
      """,
      swift: [
        "Sources/Home/HomeViewController.swift": """
        class HomeViewController {
          @objc func onMyFavBtnPressed(_ sender: Any) {}
          @objc func onShare(_ sender: Any) {}
          @objc func openProduct(id: String, position: Int) {}
        }
        """
      ],
      expecting: [
        .error("'HomeViewController' has no handler 'onFavBtnPressed(_:)'; did you mean 'onMyFavBtnPressed(_:)'?"),
        .error("'HomeViewController' has no handler 'onShareBtnPressed:'; did you mean 'onMyFavBtnPressed:'?"),
        .error("'HomeViewController' has no handler 'openProduct(identifier:position:)'; did you mean 'openProduct(id:position:)'?"),
      ]),
    .passes(
      """
      version: 1
      screens:
        HomeViewController:
          control_events:
            onFavBtnPressed(_:): CTRL_HOME_FAV
            "onShareBtnPressed:": CTRL_HOME_SHARE
            onRefresh: CTRL_HOME_REFRESH
      """,
      swift: [
        "Sources/Home/BaseViewController.swift": "class BaseViewController {\n  @objc func onRefresh() {}\n}\n",
        "Sources/Home/HomeViewController.swift": """
        class HomeViewController: BaseViewController {
          @objc func onFavBtnPressed(_ sender: Any) {}
        }
        extension HomeViewController {
          @objc func onShareBtnPressed(_ sender: Any) {}
        }
        """,
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    let plan = code.plan
    for event in plan.events {
      guard case .notFound(let suggestion)? = code.handler(of: event.id), let type = event.screen.flatMap(code.type(of:)),
        let control = plan.control(event)
      else { continue }
      let typeName = code.index[type].name
      var notes: [Diagnostic.Note] = []
      let candidates = code.index.handlerCandidates(of: type)
      if !candidates.isEmpty && candidates.count <= 8 {
        notes.append(
          Diagnostic.Note(
            "'\(typeName)' declares \(candidates.map { "'\($0.name)'" }.joined(separator: ", "))",
            at: code.index[type].nameLocation))
      } else if candidates.isEmpty {
        notes.append(Diagnostic.Note("'\(typeName)' declares no methods", at: code.index[type].nameLocation))
      }
      if let suggestion {
        context.report(
          Self.self, "'\(typeName)' has no handler '\(control.key.value)'; did you mean '\(suggestion)'?", at: control.key.range,
          notes: notes,
          fixIt: Diagnostic.FixIt("replace with '\(suggestion)'", replacing: context.location(control.key.range), with: suggestion))
      } else {
        context.report(Self.self, "'\(typeName)' has no handler '\(control.key.value)'", at: control.key.range, notes: notes)
      }
    }
  }
}
