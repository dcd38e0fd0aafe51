/// Under `dynamic-replacement`, a generated replacement repeats each handler's signature; a registry
/// made from another language's sources does not give one, and a registry file could give one that is
/// not Swift (or is Swift meant to break out of the generated function). Either stops generation.
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

  public static func check(_ config: TrackingConfig, code: CodeMatch?, in context: inout RuleContext) {
    guard config.interception?.value == .dynamicReplacement, let code else { return }
    for (screen, match) in zip(config.screens, code.screens) {
      for (control, resolution) in zip(screen.controlEvents, match.handlers) {
        guard case .found(let reference)? = resolution else { continue }
        let method = code.index[reference]
        guard let signature = method.signature else {
          context.report(
            Self.self,
            "the registry does not give the parameter types of '\(method.name)', which its dynamic replacement must repeat; generate from the Swift sources",
            at: control.key.range)
          continue
        }
        if let problem = SignatureCheck.problem(name: method.name, signature: signature) {
          context.report(Self.self, "the registry's signature of '\(method.name)' is not usable: \(problem)", at: control.key.range)
        }
      }
    }
  }
}
