/// Settings of one lint run.
public struct LintOptions: Sendable, Hashable {
  /// Configs larger than this are rejected unread; a 5,000-screen config is about 5 MB.
  public var maxConfigBytes: Int
  public var yamlLimits: YAMLLimits

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
  public var bytes: [UInt8]
  /// The size of the whole file, which may exceed `bytes.count` when reading stopped at the size limit.
  public var fileSize: Int

  public init(path: String, bytes: [UInt8], fileSize: Int? = nil) {
    self.path = path
    self.bytes = bytes
    self.fileSize = fileSize ?? bytes.count
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
}

/// The compiler's front door: YAML, then structure, then every config rule.
public enum Linter {
  public static func lint(_ source: ConfigSource, options: LintOptions = LintOptions()) -> LintResult {
    var diagnostics: [Diagnostic] = []
    var config: TrackingConfig?
    if source.fileSize > options.maxConfigBytes || source.bytes.count > options.maxConfigBytes {
      diagnostics.append(FileTooLargeRule.diagnostic(byteCount: max(source.fileSize, source.bytes.count), limit: options.maxConfigBytes, file: source.path))
      return LintResult(path: source.path, diagnostics: diagnostics, config: nil)
    }
    let parsed = YAMLParser.parse(source.bytes, file: source.path, limits: options.yamlLimits)
    diagnostics.append(contentsOf: parsed.diagnostics)
    if !parsed.failed {
      var decoder = ConfigDecoder(file: source.path)
      config = decoder.decode(parsed.root)
      diagnostics.append(contentsOf: decoder.diagnostics)
    }
    if let config {
      var context = RuleContext(file: source.path)
      for rule in RuleCatalog.configRules {
        rule.check(config, in: &context)
      }
      diagnostics.append(contentsOf: context.diagnostics)
    }
    diagnostics.sort(by: Diagnostic.presentationOrder)
    return LintResult(path: source.path, diagnostics: diagnostics, config: config)
  }
}
