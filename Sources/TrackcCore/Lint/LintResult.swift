public struct LintResult: Sendable {
  public var path: String
  /// Findings in presentation order (by position).
  public var diagnostics: [Diagnostic]
  /// The decoded config, when the YAML could be read; present even when it has errors.
  public var config: TrackingConfig?
  /// How the screens were checked (the findings are the same either way).
  public var streaming: ScreenStreaming = .notUsed
  /// The config's names resolved in the code, when there was code to check against.
  public var code: CodeMatch?
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
