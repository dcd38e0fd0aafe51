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

  /// Rules that run on the decoded config, in this order.
  public static let configRules: [any ConfigRule.Type] = [
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

  public static var all: [any Rule.Type] { frontEnd + structure + configRules.map { $0 as any Rule.Type } }

  public static func rule(withID id: String) -> (any Rule.Type)? {
    all.first { $0.id == id }
  }
}
