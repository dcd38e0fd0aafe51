/// Under `dynamic-replacement`, a generated replacement repeats each replaced method's signature and its
/// type's name; a registry made from another language's sources does not give a signature, and a
/// registry file could give a signature or name that is not Swift (or is Swift meant to break out of the
/// generated code). Either stops generation. Lifecycle methods carrying page events are checked too.
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
        """#),
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

  /// Checks every method the generator replaces (`MatchedPlan.replacementTargets`, the same list the
  /// generator writes), at each place of the config that maps it.
  public static func check(_ plan: ResolvedPlan, code: MatchedPlan?, in context: inout RuleContext) {
    guard let code else { return }
    for target in code.replacementTargets {
      guard let problem = problem(with: target.method, in: code.index) else { continue }
      for event in target.handlerEvents {
        if let control = plan.control(plan[event]) { context.report(Self.self, problem, at: control.key.range) }
      }
      for event in target.pageEvents {
        if let page = plan.page(plan[event]) { context.report(Self.self, problem, at: page.phase.range) }
      }
    }
  }

  /// Why the replacement of a method cannot be written; nil when it can. Names and signatures from a
  /// registry file are written into the replacement, so each must be what it claims to be.
  static func problem(with reference: MethodReference, in index: CodeIndex) -> String? {
    let owner = index[reference.type]
    let method = index[reference]
    guard SwiftSource.isTypeName(owner.name) else { return "the registry's type name '\(owner.name)' is not a Swift type name" }
    if let module = owner.module, !SwiftSource.isTypeName(module) { return "the registry's module name '\(module)' is not a Swift module name" }
    guard let signature = method.signature else {
      return "the registry does not give the parameter types of '\(method.name)', which its dynamic replacement must repeat; generate from the Swift sources"
    }
    return SignatureCheck.problem(name: method.name, signature: signature).map { "the registry's signature of '\(method.name)' is not usable: \($0)" }
  }
}
