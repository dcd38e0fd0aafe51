/// A `version` other than the one this trackc reads.
public enum InvalidVersionRule: StructureRule {
  public static let id = "invalid-version"
  public static let summary = "'version' must be 1, the config format this trackc reads."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("version: 1️⃣2\nscreens: {}\n", expecting: [.error("config version 2 is not supported; this trackc reads version 1")]),
    .triggers("version: 1️⃣\"1\"\nscreens: {}\n", expecting: [.error("'version' must be the integer 1, found a string '1'")]),
    .triggers("version: 1️⃣1.0\nscreens: {}\n", expecting: [.error("'version' must be the integer 1, found a number 1.0")]),
    .passes("version: 1\nscreens: {}\n"),
  ]

  // Found by the config decoder (`ConfigProblem.versionNotInteger`, `.unsupportedVersion`).
  static func reportNotInteger(found: FoundValue, at range: SourceRange, in context: inout RuleContext) {
    context.report(Self.self, "'version' must be the integer \(TrackingConfig.supportedVersion), found \(found)", at: range)
  }

  static func reportUnsupported(_ version: Int, at range: SourceRange, in context: inout RuleContext) {
    let supported = TrackingConfig.supportedVersion
    context.report(
      Self.self, "config version \(version) is not supported; this trackc reads version \(supported)", at: range,
      fixIt: Diagnostic.FixIt("use version \(supported)", replacing: context.location(range), with: "\(supported)"))
  }
}
