/// A binding whose root is both a parameter's own name and another parameter's argument label
/// (`func swap(a b: Int, b a: String)` with `from: a`). Swift reads a name inside the function's body as
/// the parameter of that name (the `String`), and so does trackc; the warning says so, with the other
/// reading, since the config may have meant the label.
public enum AmbiguousBindingParameterRule: CodeRule {
  public static let id = "ambiguous-binding-parameter"
  public static let summary =
    "A binding's 'from' that is one parameter's name and another's argument label reads the parameter of that name, as Swift does inside the body; rename one to make it plain."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      RuleExample.handlerConfig(
        "SwapViewController", "swap(a:b:)", event: "SWAP", properties: "{first: {from: 1️⃣a}}", interception: "dynamic-replacement"),
      swift: ["Sources/Swap/Swap.swift": "final class SwapViewController {\n  func swap(a b: Int, b a: String) {}\n}\n"],
      expecting: [
        .warning(
          "property 'first' of handler 'swap(a:b:)' of 'SwapViewController' reads 'a', which is the name of parameter 2 ('b a: String') and the label of parameter 1 ('a b: Int'): it reads parameter 2, the 'String', as Swift reads 'a' inside the body; rename one of them to make it plain"
        )
      ]),
    .passes(
      RuleExample.handlerConfig(
        "SwapViewController", "swap(a:b:)", event: "SWAP", properties: "{first: {from: a}}", interception: "dynamic-replacement"),
      swift: ["Sources/Swap/Swap.swift": "final class SwapViewController {\n  func swap(a first: Int, b second: String) {}\n}\n"]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    code.forEachBinding { site in
      guard case .success(let path)? = site.property.binding?.path, case .parameter(let name) = path.root,
        let (root, _, _, _) = site.resolution.reading, case .parameter(let position) = root,
        let method = code.method(of: site.binding.event),
        let parameters = code.index[method].signature?.parameters, position < parameters.count,
        let labelled = parameters.indices.first(where: { $0 != position && parameters[$0].label == name })
      else { return }
      func written(_ parameter: MethodSignature.Parameter) -> String {
        [parameter.label ?? "_", parameter.name].compactMap { $0 }.joined(separator: " ") + ": " + parameter.type
      }
      let chosen = parameters[position]
      context.report(
        Self.self,
        "\(site.subject) reads '\(name)', which is the name of parameter \(position + 1) ('\(written(chosen))') and the label of parameter \(labelled + 1) ('\(written(parameters[labelled]))'): it reads parameter \(position + 1), the '\(chosen.type)', as Swift reads '\(name)' inside the body; rename one of them to make it plain",
        at: site.source.range, notes: [Diagnostic.Note("'\(code.index[method].name)' is declared here", at: code.index[method].nameLocation)])
    }
  }
}
