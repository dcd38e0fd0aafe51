/// Settings of one lint run.
public struct LintOptions: Sendable {
  /// Configs larger than this are rejected unread; a 5,000-screen config is about 5 MB.
  public var maxConfigBytes: Int
  public var yamlLimits: YAMLLimits
  /// Called with each phase's name and duration, like a compiler's time report (`--timings`).
  public var phaseObserver: (@Sendable (String, Duration) -> Void)?
  /// Configs at least this large have their screens checked while the YAML is still being parsed, on a
  /// second thread; smaller ones are not worth the thread. The findings are the same either way.
  public var streamingMinimumBytes = 256 << 10

  public static let defaultMaxConfigBytes = 32 << 20

  public init(maxConfigBytes: Int = LintOptions.defaultMaxConfigBytes, yamlLimits: YAMLLimits = YAMLLimits()) {
    self.maxConfigBytes = maxConfigBytes
    self.yamlLimits = yamlLimits
  }
}

/// A config file's bytes, as read from disk or handed over by a test or an editor.
public struct ConfigSource: Sendable {
  /// The path printed in diagnostics.
  public var path: String
  public var input: InputBytes
  /// The size of the whole file, which may exceed `byteCount` when reading stopped at the size limit.
  public var fileSize: Int

  public var byteCount: Int { input.buffer.count }

  public init(path: String, input: InputBytes, fileSize: Int? = nil) {
    self.path = path
    self.input = input
    self.fileSize = fileSize ?? input.buffer.count
  }

  public init(path: String, bytes: [UInt8], fileSize: Int? = nil) {
    self.init(path: path, input: InputBytes(bytes), fileSize: fileSize)
  }

  public init(path: String, text: String) {
    self.init(path: path, bytes: Array(text.utf8))
  }
}

public struct LintResult: Sendable {
  public var path: String
  /// Findings in presentation order (by position).
  public var diagnostics: [Diagnostic]
  /// The decoded config, when the YAML could be read; present even when it has errors.
  public var config: TrackingConfig?
  /// How the screens were checked (the findings are the same either way).
  public var streaming: ScreenStreaming = .notUsed
}

/// Whether the screens were checked while the YAML was parsed.
public enum ScreenStreaming: Sendable, Hashable {
  /// The config was too small to be worth it, or could not be parsed.
  case notUsed
  /// The streamed results were used; `recheckedBatches` batches were checked again because a setting
  /// they depend on comes after them in the file.
  case used(recheckedBatches: Int)
  /// The streamed results were set aside and the screens checked afterwards.
  case setAside(reason: String)
}

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
    diagnostics.append(contentsOf: context.diagnostics)
    diagnostics.sort(by: Diagnostic.presentationOrder)
    clock.lap("check settings, sort findings")
    return LintResult(path: file, diagnostics: diagnostics, config: config, streaming: streaming)
  }

  /// Every screen rule, on one screen.
  static func checkScreen(_ screen: TrackingConfig.Screen, in environment: RuleEnvironment, context: inout RuleContext) {
    for rule in RuleCatalog.screenRules {
      rule.check(screen, in: environment, context: &context)
    }
  }
}

/// Times the phases of a run for `LintOptions.phaseObserver`; free when nobody observes.
struct PhaseClock {
  let observer: (@Sendable (String, Duration) -> Void)?
  private var last: ContinuousClock.Instant?

  init(observer: (@Sendable (String, Duration) -> Void)?) {
    self.observer = observer
    last = observer == nil ? nil : ContinuousClock.now
  }

  mutating func lap(_ phase: String) {
    guard let observer, let last else { return }
    let now = ContinuousClock.now
    observer(phase, now - last)
    self.last = now
  }
}
