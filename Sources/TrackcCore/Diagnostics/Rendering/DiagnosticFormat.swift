/// The output formats of `trackc lint`. Rendering happens only here, at the edge.
public enum DiagnosticFormat: String, Sendable, CaseIterable {
  /// `path:line:column: severity: message [rule-id]`, as clang and Xcode print them.
  case text
  /// One JSON document with every finding and a summary, for scripts.
  case json
  /// SARIF 2.1.0, for code-scanning tools.
  case sarif
  /// GitHub Actions workflow commands, which become annotations on a pull request.
  case github

  /// `adoption`: `trackc adopt`'s counts, which the JSON and SARIF reports carry (the text report's
  /// per-file lines go to standard error).
  public func render(_ diagnostics: [Diagnostic], toolVersion: String = TrackcVersion.current, adoption: AdoptionCounts? = nil) -> String {
    switch self {
    case .text: return TextDiagnosticRenderer.render(diagnostics)
    case .json: return JSONDiagnosticRenderer.render(diagnostics, adoption: adoption)
    case .sarif: return SARIFDiagnosticRenderer.render(diagnostics, toolVersion: toolVersion, adoption: adoption)
    case .github: return GitHubActionsDiagnosticRenderer.render(diagnostics)
    }
  }
}

public enum TrackcVersion {
  public static let current = "0.1.0"
}
