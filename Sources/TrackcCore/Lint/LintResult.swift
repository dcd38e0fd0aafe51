public struct LintResult: Sendable {
  public var path: String
  /// Findings in presentation order (by position).
  public var diagnostics: [Diagnostic]
  /// The decoded config, when the YAML could be read; present even when it has errors.
  public var config: TrackingConfig? { plan?.config }
  /// What the config means, when it could be decoded; present even when it has errors.
  public var plan: ResolvedPlan?
  /// The plan matched against the code, when there was code to check against.
  public var code: MatchedPlan?

  public init(path: String, diagnostics: [Diagnostic], plan: ResolvedPlan? = nil, code: MatchedPlan? = nil) {
    self.path = path
    self.diagnostics = diagnostics
    self.plan = plan
    self.code = code
  }
}
