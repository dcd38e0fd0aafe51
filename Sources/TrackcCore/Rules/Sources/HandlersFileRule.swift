/// A handler registry (`--handlers`) that cannot be used: not JSON, not the registry format, another version.
public enum HandlersFileRule: Rule {
  public static let id = "handlers-file"
  public static let summary = "A handler registry given with --handlers must be valid registry JSON (Schemas/handlers.schema.json)."
  public static let phase = RulePhase.sources
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      "version: 1\nscreens:\n  Home: {control_events: {onFav(_:): HOME_FAV}}\n",
      registry: "{\"version\": 1, \"types\": [{\"name\": 1️⃣42}]}"),
    .passes("version: 1\nscreens:\n  Home: {page_events: {enter: HOME_ENTER}}\n", registry: #"""
      {"version": 1, "types": [{"name": "Home", "kind": "class", "inheritance": [], "isGeneric": false, "objcMembers": false,
        "conditional": false, "access": "internal", "location": {"file": "Home.swift", "line": 1, "column": 7},
        "extensions": [], "methods": []}]}
      """#),
  ]

  // Found by `HandlerRegistry.decode` (RegistryFile.swift), which reads a registry with JSONDecoder and
  // locates each problem through the YAML reader, since JSON is YAML.
}
