/// A handler registry (`--handlers`) that cannot be used: not JSON, not the registry format, another version.
public enum HandlersFileRule: Rule {
  public static let id = "handlers-file"
  public static let summary = "A handler registry given with --handlers must be valid registry JSON (Schemas/handlers.schema.json)."
  public static let phase = RulePhase.sources
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      "version: 1\nscreens:\n  Home: {control_events: {onFav(_:): HOME_FAV}}\n",
      registry: "{\"version\": 1, \"types\": [{\"name\": 1️⃣42}]}",
      expecting: [.error("this registry value is invalid: Expected to decode String but found number instead. (see Schemas/handlers.schema.json)")]),
    .passes(
      "version: 1\nscreens:\n  Home: {page_events: {enter: HOME_ENTER}}\n",
      registry: #"""
        {"version": 1, "types": [{"name": "Home", "kind": "class", "inheritance": ["UIViewController"], "isGeneric": false, "objcMembers": false,
          "conditional": false, "access": "internal", "location": {"file": "Home.swift", "line": 1, "column": 7},
          "extensions": [], "methods": []}]}
        """#),
  ]

  // Found by `HandlerRegistry.decode` (RegistryFile.swift: `RegistryProblem`), which reads a registry with
  // JSONDecoder and locates each problem through the YAML reader, since JSON is YAML.
  static func report(_ problem: RegistryProblem, in context: inout RuleContext) {
    let schema = " (see Schemas/handlers.schema.json)"
    switch problem {
    case .tooLarge(let limit):
      context.report(
        Self.self, "the registry file is larger than the \(ByteCountText.describe(limit)) a registry may have; it was not read",
        at: SourceRange(at: .start))
    case .empty:
      context.report(Self.self, "the registry file is empty; 'trackc scan' writes one", at: SourceRange(at: .start))
    case .notJSON(let problems):
      FrontEndDiagnostics.report(problems, in: &context)
    case .unsupportedVersion(let version, let range):
      context.report(
        Self.self, "this registry has format version \(version); this trackc reads version \(HandlerRegistry.formatVersion)", at: range)
    case .missingField(let field, let range):
      context.report(Self.self, "this registry entry has no '\(field)'" + schema, at: range)
    case .invalidValue(let description, let range):
      context.report(Self.self, "this registry value is invalid: \(description)" + schema, at: range)
    case .notARegistry(let description):
      context.report(Self.self, "this is not a handler registry: \(description)", at: SourceRange(at: .start))
    }
  }
}
