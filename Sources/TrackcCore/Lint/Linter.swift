/// The compiler's front door, one stage after another: the file, its YAML, the config's structure, the
/// resolved plan and its rules, then the code and the rules that check the plan against it.
///
/// Each stage produces one typed value (`YAMLDocument`, `TrackingConfig`, `ResolvedPlan`, `MatchedPlan`)
/// that the next stage and the rules read; the front ends report typed problems that
/// `FrontEndDiagnostics` turns into diagnostics. Findings are sorted at the end, so they never depend on
/// the order in which rules ran.
public enum Linter {
  public static func lint(_ source: ConfigSource, options: LintOptions = LintOptions()) -> LintResult {
    let file = source.path
    var context = RuleContext(file: file)
    guard !FileTooLargeRule.check(source, limit: options.maxConfigBytes, in: &context) else {
      return LintResult(path: file, diagnostics: context.diagnostics)
    }
    var clock = PhaseClock(observer: options.phaseObserver)
    let parsed = YAMLParser.parse(source.input, limits: options.yamlLimits)
    FrontEndDiagnostics.report(parsed.problems, in: &context)
    clock.lap("parse YAML")
    guard let document = parsed.document else { return finish(context, file: file) }

    let decoded = ConfigDecoder.decode(document)
    FrontEndDiagnostics.report(decoded.problems, in: &context)
    clock.lap("decode the config")
    guard let config = decoded.config else { return finish(context, file: file) }

    let plan = ResolvedPlan(config)
    clock.lap("resolve the plan")
    for check in RuleCatalog.planChecks { check(plan, &context) }
    clock.lap("check the plan")

    var code: MatchedPlan?
    if let registry = codeRegistry(
      for: config, configPath: file, options: options, needsMembers: !plan.bindings.isEmpty || !config.entryPoints.isEmpty, context: &context)
    {
      clock.lap("read the code")
      let match = MatchedPlan(plan: plan, index: CodeIndex(registry, frameworkClasses: FrameworkClasses(config.conventions)))
      code = match
      for check in RuleCatalog.codeChecks { check(match, &context) }
      clock.lap("check against the code")
    }
    return finish(context, file: file, plan: plan, code: code)
  }

  private static func finish(_ context: RuleContext, file: String, plan: ResolvedPlan? = nil, code: MatchedPlan? = nil) -> LintResult {
    LintResult(path: file, diagnostics: context.diagnostics.sorted(by: Diagnostic.presentationOrder), plan: plan, code: code)
  }

  /// The registry to check the config against: from the options (`--sources`, `--handlers`), else from
  /// the config's `sources` (relative to the config file); nil when there is no code to check against.
  /// - Parameter needsMembers: the plan binds properties or declares entry points, the only readers of
  ///   the types' properties and initializers; without them the scan leaves those out of the registry.
  static func codeRegistry(
    for config: TrackingConfig, configPath: String, options: LintOptions, needsMembers: Bool = true, context: inout RuleContext
  ) -> HandlerRegistry? {
    guard options.readsCode else { return nil }
    let sources: SwiftSourceSet
    switch options.code {
    case .registry(let path, let bytes, let fileSize)?:
      let decoded = HandlerRegistry.decode(bytes, path: path, fileSize: fileSize)
      context.append(contentsOf: decoded.diagnostics)
      return decoded.registry
    case .sources(let set)?:
      sources = set
    case nil:
      guard let written = config.sources, !written.isEmpty else { return nil }
      sources = .paths(MissingSourcesRule.existingPaths(of: config, configPath: configPath, in: &context))
    }
    var scanOptions = options.scan
    scanOptions.recordsMembers = scanOptions.recordsMembers && needsMembers
    if scanOptions.phaseObserver == nil, let observer = options.phaseObserver {
      scanOptions.phaseObserver = { observer("  " + $0, $1) }
    }
    let scanned = SourceScanner.scan(sources, options: scanOptions)
    FrontEndDiagnostics.report(scanned.problems, in: &context)
    return scanned.registry
  }
}
