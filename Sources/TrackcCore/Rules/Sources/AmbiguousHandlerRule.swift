/// A bare base name that names several overloads: the config must say which one is the handler.
public enum AmbiguousHandlerRule: CodeRule {
  public static let id = "ambiguous-handler"
  public static let summary = "A bare handler name must name one method; with overloads, write the full name."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      "version: 1\nscreens:\n  ProductViewController:\n    control_events:\n      1️⃣open: PRODUCT_OPEN\n",
      swift: [
        "Sources/Shop/ProductViewController.swift": """
        class ProductViewController {
          @objc func open(_ sender: Any) {}
          @objc func open(item: Int, at index: Int) {}
        }
        """
      ], expecting: [.error("'open' names several methods of 'ProductViewController' ('open(_:)', 'open(item:at:)'); write the full name")]),
    .passes(
      "version: 1\nscreens:\n  ProductViewController:\n    control_events:\n      open(item:at:): PRODUCT_OPEN\n",
      swift: [
        "Sources/Shop/ProductViewController.swift": """
        class ProductViewController {
          @objc func open(_ sender: Any) {}
          @objc func open(item: Int, at index: Int) {}
        }
        """
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    let plan = code.plan
    for event in plan.events {
      guard case .ambiguous(let methods)? = code.handler(of: event.id), let type = event.screen.flatMap(code.type(of:)),
        let control = plan.control(event)
      else { continue }
      let names = methods.map { "'\(code.index[$0].name)'" }.joined(separator: ", ")
      context.report(
        Self.self, "'\(control.key.value)' names several methods of '\(code.index[type].name)' (\(names)); write the full name",
        at: control.key.range,
        notes: methods.map { Diagnostic.Note("'\(code.index[$0].name)' is declared here", at: code.index[$0].nameLocation) })
    }
  }
}
