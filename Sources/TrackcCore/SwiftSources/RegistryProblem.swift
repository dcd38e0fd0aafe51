/// What reading a handler registry file (`--handlers`) found wrong, and where. The reader knows the
/// registry format, not the rules: `FrontEndDiagnostics` hands each problem to `handlers-file` (or, for a
/// file that is not even JSON, to the YAML rules, since JSON is YAML and libyaml says where).
public enum RegistryProblem: Sendable, Hashable {
  /// Larger than `HandlerRegistry.maxFileBytes`; not read.
  case tooLarge(limit: Int)
  case empty
  /// Not JSON: what the YAML reader found.
  case notJSON([YAMLProblem])
  /// Another format version than this trackc reads.
  case unsupportedVersion(Int, at: SourceRange)
  /// A required field is missing from the value at this range.
  case missingField(String, at: SourceRange)
  /// A value of the wrong type or form: JSONDecoder's words.
  case invalidValue(String, at: SourceRange)
  /// Anything else JSONDecoder refused.
  case notARegistry(String)
}
