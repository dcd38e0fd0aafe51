/// Settings of one lint run.
public struct LintOptions: Sendable {
  /// Configs larger than this are rejected unread; a 5,000-screen config is about 6 MB.
  public var maxConfigBytes: Int
  public var yamlLimits: YAMLLimits
  /// Called with each phase's name and duration, like a compiler's time report (`--timings`).
  public var phaseObserver: (@Sendable (String, Duration) -> Void)?

  /// What to check the config against; nil to use the config's own `sources`, if it names any.
  public var code: CodeInput?
  /// False to check the config on its own, whatever its `sources` say (`trackc diff` compares plans,
  /// and a config read from a git revision has no sources beside it).
  public var readsCode = true
  /// How sources are scanned (module, cache).
  public var scan = ScanOptions()

  public static let defaultMaxConfigBytes = 32 << 20

  public init(maxConfigBytes: Int = LintOptions.defaultMaxConfigBytes, yamlLimits: YAMLLimits = YAMLLimits()) {
    self.maxConfigBytes = maxConfigBytes
    self.yamlLimits = yamlLimits
  }
}

/// The code a config is checked against.
public enum CodeInput: Sendable {
  /// Swift sources, scanned (paths are taken as they are, not relative to the config).
  case sources(SwiftSourceSet)
  /// A handler registry file (`trackc scan`'s output, or one made another way). `fileSize`, when over
  /// `HandlerRegistry.maxFileBytes`, says the file was too large to read (`bytes` is then empty).
  case registry(path: String, bytes: InputBytes, fileSize: Int? = nil)

  /// Reads a registry file, up to `HandlerRegistry.maxFileBytes` (a device that never ends included).
  public static func registryFile(path: String) throws(InputError) -> CodeInput {
    let file = try ConfigSource.read(path: path, maxBytes: HandlerRegistry.maxFileBytes)
    return .registry(path: path, bytes: file.input, fileSize: file.fileSize)
  }
}
