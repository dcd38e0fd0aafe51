/// A binding to a handler parameter the handler does not have: there would be no value to capture.
public enum UnknownBindingParameterRule: CodeRule {
  public static let id = "unknown-binding-parameter"
  public static let summary = "A binding's 'from' must name a parameter of the handler, by its argument label or its name."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      RuleExample.handlerConfig(
        "FeedViewController", "open(_:at:)", event: "FEED_OPEN", properties: "{product_id: {from: 1️⃣prodct}, rank: {from: 2️⃣rank}}"),
      swift: [
        "Sources/Feed/Feed.swift": """
        class FeedViewController {
          @objc func open(_ product: String, at position: Int) {}
        }
        """
      ],
      expecting: [
        .error(
          "property 'product_id' of handler 'open(_:at:)' of 'FeedViewController' reads 'prodct', which is not a parameter of 'open(_:at:)'; did you mean 'product'?"
        ),
        .error(
          "property 'rank' of handler 'open(_:at:)' of 'FeedViewController' reads 'rank', which is not a parameter of 'open(_:at:)' (it has 'product', 'at', 'position')"
        ),
      ]),
    .passes(
      RuleExample.handlerConfig(
        "FeedViewController", "open(_:at:)", event: "FEED_OPEN",
        properties: "{product_id: {from: product}, position: {from: at}, rank: {from: position}}", interception: "dynamic-replacement"),
      swift: [
        "Sources/Feed/Feed.swift": """
        class FeedViewController {
          func open(_ product: String, at position: Int) {}
        }
        """
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    code.forEachBinding { site in
      guard case .unknownParameter(let name, let method, let candidates) = site.resolution else { return }
      let declared = code.index[method]
      let listed = candidates.isEmpty ? "it has no parameters" : "it has " + candidates.map { "'\($0)'" }.joined(separator: ", ")
      let hint = Suggestions.closest(to: name, in: candidates).map { "; did you mean '\($0)'?" } ?? " (\(listed))"
      context.report(
        Self.self, "\(site.subject) reads '\(name)', which is not a parameter of '\(declared.name)'\(hint)", at: site.source.range,
        notes: [Diagnostic.Note("'\(declared.name)' is declared here", at: declared.nameLocation)])
    }
  }
}
