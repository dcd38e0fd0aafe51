/// Every rule trackc has, in the order they are documented: the YAML front end, the config's
/// structure, then the checks on its content.
public enum RuleCatalog {
  public static let frontEnd: [any Rule.Type] = [
    FileTooLargeRule.self,
    YAMLEncodingRule.self,
    YAMLSyntaxRule.self,
    DuplicateKeyRule.self,
    YAMLAliasRule.self,
    MergeKeyRule.self,
    YAMLTagRule.self,
    NestingDepthRule.self,
    MultipleDocumentsRule.self,
  ]

  public static let structure: [any Rule.Type] = [
    EmptyConfigRule.self,
    UnknownKeyRule.self,
    WrongTypeRule.self,
    MissingKeyRule.self,
    InvalidVersionRule.self,
  ]

  /// Rules on the config's content, in documentation order.
  public static let content: [any Rule.Type] = [
    InvalidScreenNameRule.self,
    DuplicateScreenRule.self,
    EmptyScreenRule.self,
    InvalidHandlerNameRule.self,
    DuplicateHandlerRule.self,
    EventIDPatternRule.self,
    DuplicateEventIDRule.self,
    UnknownDestinationRule.self,
    DestinationsExcludeConflictRule.self,
    DuplicateDestinationRule.self,
    IneffectiveExcludeRule.self,
    EventWithoutDestinationRule.self,
    InvalidPropertyValueRule.self,
  ]

  /// Rules that check the config against the code, or report on the code itself: reading the code,
  /// then the cross-checks.
  public static let code: [any Rule.Type] = [MissingSourcesRule.self, SwiftSourceRule.self, HandlersFileRule.self] + codeRules

  /// Rules `trackc generate` applies on top of a clean lint.
  public static let generation: [any GenerationRule.Type] = [
    EventIdentifierCollisionRule.self,
    HandlerSignatureRule.self,
  ]

  public static let all: [any Rule.Type] = frontEnd + structure + content + code + generation

  // The content rules by how they run. Listed out rather than found with `as?` casts, which cost a
  // scan of every protocol conformance in the binary at start-up; `RuleCatalogTests` checks the lists.

  /// Content rules that check one screen at a time (in parallel, or while the file is parsed).
  public static let screenRules: [any ScreenRule.Type] = [
    InvalidScreenNameRule.self,
    EmptyScreenRule.self,
    InvalidHandlerNameRule.self,
    DuplicateHandlerRule.self,
    EventIDPatternRule.self,
    UnknownDestinationRule.self,
    DestinationsExcludeConflictRule.self,
    DuplicateDestinationRule.self,
    IneffectiveExcludeRule.self,
    EventWithoutDestinationRule.self,
    InvalidPropertyValueRule.self,
  ]

  /// Content rules across screens, fed in file order.
  public static let screenSequenceRules: [any ScreenSequenceRule.Type] = [
    DuplicateScreenRule.self,
    DuplicateEventIDRule.self,
  ]

  /// Rules run against the code (the cross-checks).
  public static let codeRules: [any CodeRule.Type] = [
    UnknownScreenRule.self,
    AmbiguousScreenRule.self,
    UnknownHandlerRule.self,
    AmbiguousHandlerRule.self,
    HandlerNotInterceptableRule.self,
    ScreenLifecycleRule.self,
    UntrackedHandlerRule.self,
    UnmappedScreenRule.self,
  ]

  /// Content rules on the config's own settings.
  public static let configRules: [any ConfigRule.Type] = [
    EventIDPatternRule.self,
    UnknownDestinationRule.self,
    DuplicateDestinationRule.self,
  ]

  public static func rule(withID id: String) -> (any Rule.Type)? {
    all.first { $0.id == id }
  }
}

extension RuleCatalog {
  /// The rule list as a Markdown table, as the README shows it (`trackc rules --markdown` prints it).
  public static var markdownTable: String {
    var lines = ["| id | severity | checks |", "| --- | --- | --- |"]
    for rule in all {
      lines.append("| `\(rule.id)` | \(rule.severity.rawValue) | \(rule.summary.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
