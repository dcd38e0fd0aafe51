/// The compiler's front door: YAML, then structure, then every rule.
///
/// Most of the work of a large config is per screen, so screens are decoded and checked while the
/// YAML is still being parsed (`ScreenPipeline`), and otherwise in parallel chunks; the cross-screen
/// rules take the screens in file order either way, so the findings never depend on the timing.
public enum Linter {
  public static func lint(_ source: ConfigSource, options: LintOptions = LintOptions()) -> LintResult {
    let file = source.path
    if source.fileSize > options.maxConfigBytes || source.byteCount > options.maxConfigBytes {
      let diagnostic = FileTooLargeRule.diagnostic(byteCount: max(source.fileSize, source.byteCount), limit: options.maxConfigBytes, file: file)
      return LintResult(path: file, diagnostics: [diagnostic], config: nil)
    }
    var clock = PhaseClock(observer: options.phaseObserver)
    var diagnostics: [Diagnostic] = []
    let pipeline = source.byteCount >= options.streamingMinimumBytes ? ScreenPipeline(file: file) : nil
    let parsed = YAMLParser.parse(source.input, file: file, limits: options.yamlLimits, observer: pipeline)
    diagnostics.append(contentsOf: parsed.diagnostics)
    clock.lap("parse YAML (checking screens meanwhile)")
    let streamed = pipeline?.finish()
    clock.lap("finish streamed screens")
    guard let document = parsed.document else {
      return LintResult(path: file, diagnostics: diagnostics.sorted(by: Diagnostic.presentationOrder), config: nil)
    }

    var decoder = ConfigDecoder(file: file, document: document)
    let decodedHead = decoder.decodeHead()
    diagnostics.append(contentsOf: decoder.diagnostics)
    guard let (head, screenPairs) = decodedHead else {
      return LintResult(path: file, diagnostics: diagnostics.sorted(by: Diagnostic.presentationOrder), config: nil)
    }
    var config = head
    let environment = RuleEnvironment(config)

    var streaming = ScreenStreaming.notUsed
    if let pipeline {
      if streamed == nil {
        streaming = .setAside(reason: "the input is denser than a config, and the parser's memory moved")
      } else if !pipeline.screenKeyRanges.elementsEqual(screenPairs.lazy.map { document.range($0.key) }) {
        streaming = .setAside(reason: "the screens mapping holds entries the parser could not hand over (a merge key, or keys that are not strings)")
      } else {
        streaming = .used(recheckedBatches: 0)
      }
    }
    if let streamed, case .used = streaming {
      // The streamed screens are the document's screens: keep them, re-checking the batches that were
      // checked before a setting that comes after the screens was known.
      config.screens.reserveCapacity(screenPairs.count)
      for batch in streamed.batches {
        config.screens.append(contentsOf: batch.screens)
        diagnostics.append(contentsOf: batch.decodeDiagnostics)
        if batch.environment == environment.fingerprint {
          diagnostics.append(contentsOf: batch.ruleDiagnostics)
        } else {
          var context = RuleContext(file: file)
          for screen in batch.screens { checkScreen(screen, in: environment, context: &context) }
          diagnostics.append(contentsOf: context.diagnostics)
          if case .used(let count) = streaming { streaming = .used(recheckedBatches: count + 1) }
        }
      }
      diagnostics.append(contentsOf: streamed.sequenceDiagnostics)
      clock.lap("use streamed screens")
    } else {
      let chunks = Parallel.ranges(count: screenPairs.count, minimumSize: 64)
      let checked = Parallel.map(chunks.count) { chunk in
        var decoder = ConfigDecoder(file: file, document: document)
        var context = RuleContext(file: file)
        var screens: [TrackingConfig.Screen] = []
        screens.reserveCapacity(chunks[chunk].count)
        for index in chunks[chunk] {
          guard let screen = decoder.screen(screenPairs[index]) else { continue }
          checkScreen(screen, in: environment, context: &context)
          screens.append(screen)
        }
        return (screens, decoder.diagnostics + context.diagnostics)
      }
      config.screens.reserveCapacity(screenPairs.count)
      for (screens, found) in checked {
        config.screens.append(contentsOf: screens)
        diagnostics.append(contentsOf: found)
      }
      clock.lap("decode and check screens")
      var context = RuleContext(file: file)
      let checkers = RuleCatalog.screenSequenceRules.map { $0.makeChecker() }
      for screen in config.screens {
        for checker in checkers { checker.check(screen, in: &context) }
      }
      diagnostics.append(contentsOf: context.diagnostics)
      clock.lap("check across screens")
    }

    var context = RuleContext(file: file)
    for rule in RuleCatalog.configRules {
      rule.check(config, in: &context)
    }
    clock.lap("check settings")
    var code: CodeMatch?
    if let registry = codeRegistry(for: config, configPath: file, options: options, diagnostics: &diagnostics) {
      clock.lap("read the code")
      let match = CodeMatch(config: config, index: CodeIndex(registry))
      code = match
      for rule in RuleCatalog.codeRules {
        rule.check(config, against: match, in: &context)
      }
      clock.lap("check against the code")
    }
    diagnostics.append(contentsOf: context.diagnostics)
    diagnostics.sort(by: Diagnostic.presentationOrder)
    return LintResult(path: file, diagnostics: diagnostics, config: config, streaming: streaming, code: code)
  }

  /// The registry to check the config against: from the options (`--sources`, `--handlers`), else from
  /// the config's `sources` (relative to the config file); nil when there is no code to check against.
  static func codeRegistry(
    for config: TrackingConfig, configPath: String, options: LintOptions, diagnostics: inout [Diagnostic]
  ) -> HandlerRegistry? {
    let sources: SwiftSourceSet
    switch options.code {
    case .registry(let path, let bytes, let fileSize)?:
      let decoded = HandlerRegistry.decode(bytes, path: path, fileSize: fileSize)
      diagnostics += decoded.diagnostics
      return decoded.registry
    case .sources(let set)?:
      sources = set
    case nil:
      guard let written = config.sources, !written.isEmpty else { return nil }
      let directory = RelativePath.directory(of: configPath)
      var paths: [String] = []
      for entry in written {
        let path = entry.value.hasPrefix("/") || directory.isEmpty ? entry.value : directory + "/" + entry.value
        guard FileSystem.exists(path) else {
          diagnostics.append(
            Diagnostic(
              MissingSourcesRule.severity, rule: MissingSourcesRule.id,
              "source path '\(entry.value)' does not exist (paths under 'sources' are relative to the config's directory)",
              at: SourceLocation(file: configPath, range: entry.range)))
          continue
        }
        paths.append(path)
      }
      sources = .paths(paths)
    }
    var scanOptions = options.scan
    if scanOptions.phaseObserver == nil, let observer = options.phaseObserver {
      scanOptions.phaseObserver = { observer("  " + $0, $1) }
    }
    let scanned = SourceScanner.scan(sources, options: scanOptions)
    diagnostics += scanned.diagnostics
    return scanned.registry
  }

  /// Every screen rule, on one screen.
  static func checkScreen(_ screen: TrackingConfig.Screen, in environment: RuleEnvironment, context: inout RuleContext) {
    for rule in RuleCatalog.screenRules {
      rule.check(screen, in: environment, context: &context)
    }
  }
}
