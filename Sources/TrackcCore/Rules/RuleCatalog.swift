/// Every rule trackc has, in the order they are documented (`docs/rules.md`, `trackc rules`): the
/// file, the YAML front end, the config's structure, the plan, the code, then generation.
///
/// `all` is the one hand-kept list; what runs when is derived from each rule's `phase`, and
/// `RuleCatalogTests` checks that every rule declared under `Rules/` is listed here exactly once.
public enum RuleCatalog {
  public static let all: [any Rule.Type] = [
    // The file and its YAML.
    FileTooLargeRule.self,
    YAMLEncodingRule.self,
    YAMLSyntaxRule.self,
    DuplicateKeyRule.self,
    YAMLAliasRule.self,
    MergeKeyRule.self,
    YAMLTagRule.self,
    NestingDepthRule.self,
    MultipleDocumentsRule.self,
    // The config's structure.
    EmptyConfigRule.self,
    UnknownKeyRule.self,
    WrongTypeRule.self,
    MissingKeyRule.self,
    InvalidVersionRule.self,
    PrivacyTermRule.self,
    // The plan's content.
    InvalidScreenNameRule.self,
    DuplicateScreenRule.self,
    EmptyScreenRule.self,
    InvalidHandlerNameRule.self,
    DuplicateHandlerRule.self,
    EventIDPatternRule.self,
    DuplicateEventIDRule.self,
    WireNameCollisionRule.self,
    ScreenCallRule.self,
    UnknownDestinationRule.self,
    DestinationsExcludeConflictRule.self,
    DuplicateDestinationRule.self,
    DestinationWireNameRule.self,
    IneffectiveExcludeRule.self,
    EventWithoutDestinationRule.self,
    InvalidPropertyValueRule.self,
    InvalidBindingPathRule.self,
    BindingOnPageEventRule.self,
    ApplicationEventPropertyRule.self,
    PropertyTypeConflictRule.self,
    // Entry points.
    LinkOriginRule.self,
    EntryPointNameRule.self,
    EntryPointScreenRule.self,
    LinkPatternRule.self,
    LinkOverlapRule.self,
    LinkShadowedRule.self,
    EntryPointParametersRule.self,
    NotificationSelectorCollisionRule.self,
    NotificationMatchRule.self,
    DuplicateShortcutTypeRule.self,
    OpenRedirectRule.self,
    SiteAssociationSizeRule.self,
    AndroidPathCaseRule.self,
    PlatformFilePathRule.self,
    // Privacy.
    UnknownConsentCategoryRule.self,
    DestinationWithoutConsentRule.self,
    PurposeNotCoveredRule.self,
    TrackingWithoutDomainRule.self,
    TrackingDomainRule.self,
    UnclassifiedPersonalDataRule.self,
    UnusedConsentCategoryRule.self,
    // Reading the code, then the cross-checks.
    FrameworkClassRule.self,
    MissingSourcesRule.self,
    SwiftSourceRule.self,
    HandlersFileRule.self,
    UnknownScreenRule.self,
    AmbiguousScreenRule.self,
    UnknownHandlerRule.self,
    AmbiguousHandlerRule.self,
    HandlerNotInterceptableRule.self,
    HandlerCalledDirectlyRule.self,
    UnknownBindingParameterRule.self,
    AmbiguousBindingParameterRule.self,
    UnknownBindingPropertyRule.self,
    UnsupportedPropertyTypeRule.self,
    BindingTypeMismatchRule.self,
    BindingNotInterceptableRule.self,
    BindingNeverNilRule.self,
    ScreenLifecycleRule.self,
    UnreachedScreenRule.self,
    UncalledLifecycleMethodRule.self,
    UnknownTrackedScreenRule.self,
    EntryPointSignatureRule.self,
    UntrackedHandlerRule.self,
    UnmappedScreenRule.self,
    UnclassifiedPersonalTypeRule.self,
    // trackc generate.
    EventIdentifierCollisionRule.self,
    HandlerSignatureRule.self,
  ]

  /// The checks on the resolved plan, in catalog order.
  static let planChecks: [@Sendable (ResolvedPlan, inout RuleContext) -> Void] = all.compactMap {
    if case .plan(let check) = $0.phase { return check }
    return nil
  }

  /// The checks of the plan against the code, in catalog order.
  static let codeChecks: [@Sendable (MatchedPlan, inout RuleContext) -> Void] = all.compactMap {
    if case .code(let check) = $0.phase { return check }
    return nil
  }

  /// The checks `trackc generate` adds, in catalog order.
  static let generationChecks: [@Sendable (GenerationModel, inout RuleContext) -> Void] = all.compactMap {
    if case .generation(let check) = $0.phase { return check }
    return nil
  }

  public static func rule(withID id: String) -> (any Rule.Type)? {
    all.first { $0.id == id }
  }
}
