/// Under `dynamic-replacement`, a generated replacement repeats each replaced method's signature and its
/// type's name; a registry made from another language's sources does not give a signature, and a
/// registry file could give a signature or name that is not Swift (or is Swift meant to break out of the
/// generated code). Either stops generation. Lifecycle methods carrying page events are checked too.
///
/// The check is the generation model's own reading of each replacement target
/// (`GenerationModel.replacement(of:in:)`, `ReplacementSignature.read`): what it cannot read is reported
/// here, and what it can read is the only thing the generator writes.
public enum HandlerSignatureRule: GenerationRule {
  public static let id = "handler-signature"
  public static let summary = "Under dynamic-replacement, every mapped handler's signature must be known and be a Swift signature."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        Home:
          control_events: {1️⃣onFav(_:): HOME_FAV, 2️⃣onShare(_:): HOME_SHARE}
      """,
      registry: #"""
        {"version": 1, "types": [{"name": "Home", "module": "App", "kind": "class", "inheritance": [], "isGeneric": false,
          "objcMembers": false, "conditional": false, "access": "internal", "location": {"file": "Home.kt", "line": 1, "column": 7},
          "extensions": [], "methods": [
            {"name": "onFav(_:)", "isStatic": false, "access": "internal", "attributes": [], "derivedSelector": "onFav:",
             "inGenericContext": false, "conditional": false, "location": {"file": "Home.kt", "line": 2, "column": 7}},
            {"name": "onShare(_:)", "isStatic": false, "access": "internal", "attributes": [], "derivedSelector": "onShare:",
             "inGenericContext": false, "conditional": false, "location": {"file": "Home.kt", "line": 3, "column": 7},
             "signature": {"parameters": [{"type": "Int) {}; func evil(_ x: Int"}]}}]}]}
        """#,
      expecting: [
        .error(
          "the registry does not give the parameter types of 'onFav(_:)', which its dynamic replacement must repeat; generate from the Swift sources"),
        .error("the registry's signature of 'onShare(_:)' is not usable: it does not parse as Swift"),
      ]),
    .passes(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        Home:
          control_events: {onFav(_:): HOME_FAV}
      """,
      swift: ["Sources/App/Home.swift": "class Home {\n  func onFav(_ sender: Any) {}\n}\n"]),
  ]

  /// Reports every method the generator would replace but cannot, at each place of the config that maps it.
  public static func check(_ model: GenerationModel, in context: inout RuleContext) {
    let plan = model.plan
    for (target, problem) in model.unwritable {
      let message = message(problem)
      for event in target.handlerEvents {
        if let control = plan.control(plan[event]) { context.report(Self.self, message, at: control.key.range) }
      }
      for event in target.pageEvents {
        if let page = plan.page(plan[event]) { context.report(Self.self, message, at: page.phase.range) }
      }
    }
  }

  static func message(_ problem: GenerationModel.Replacement.Problem) -> String {
    switch problem {
    case .typeName(let name):
      return "the registry's type name '\(name)' is not a Swift type name"
    case .moduleName(let name):
      return "the registry's module name '\(name)' is not a Swift module name"
    case .noSignature(let method):
      return
        "the registry does not give the parameter types of '\(method)', which its dynamic replacement must repeat; generate from the Swift sources"
    case .signature(let method, let problem):
      return "the registry's signature of '\(method)' is not usable: \(reason(problem, method: method))"
    }
  }

  private static func reason(_ problem: ReplacementSignature.Problem, method: String) -> String {
    switch problem {
    case .notASwiftName: return "'\(method)' is not a Swift method name"
    case .argumentCount(let labels, let parameters): return "'\(method)' has \(labels) arguments but the signature \(parameters) parameters"
    case .notALabel(let label): return "'\(label)' is not an argument label"
    case .doesNotParse: return "it does not parse as Swift"
    case .typesDoNotParse: return "its parameter types do not parse as types"
    case .notAType(let type): return "'\(type)' is not a type"
    case .notEffects(let effects): return "'\(effects)' are not effects"
    case .variadic(let type): return "its parameter '\(type)' is variadic, which a replacement cannot pass on"
    case .async: return "it is async, and a replacement of an async method that calls the original calls itself (Swift 6.3)"
    }
  }
}
