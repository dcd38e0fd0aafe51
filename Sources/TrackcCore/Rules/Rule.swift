/// A check with a stable id. Every diagnostic trackc emits names the rule it comes from.
///
/// Each rule lives in its own file with its examples beside it; `RuleExampleTests` runs every example,
/// so the documentation of a rule cannot drift from what it does. A rule's `phase` says where its logic
/// runs; the run lists of `RuleCatalog` are derived from it.
public protocol Rule: Sendable {
  /// Stable kebab-case id, printed as `[id]` and used in SARIF.
  static var id: String { get }
  /// One line: what the rule catches.
  static var summary: String { get }
  static var severity: Diagnostic.Severity { get }
  static var examples: [RuleExample] { get }
  /// When the rule runs, and on what.
  static var phase: RulePhase { get }
}

/// Where a rule's logic runs, in pipeline order: reading the file, the YAML front end, decoding the
/// config, checking the resolved plan, reading the code, checking the plan against the code, and
/// generating code.
///
/// The front ends (the YAML reader, the config decoder, the source scanner and registry reader) know no
/// rules: they report typed problems, which `FrontEndDiagnostics` hands to the rule that owns each, and
/// that rule's file holds the wording. The other phases carry the rule's check.
public enum RulePhase: Sendable {
  /// The config file before it is read (its size); checked by the rule, called by `Linter`.
  case input
  /// A `YAMLProblem` of the YAML reader.
  case yaml
  /// A `ConfigProblem` of the config decoder.
  case structure
  /// The resolved plan on its own.
  case plan(@Sendable (ResolvedPlan, inout RuleContext) -> Void)
  /// Reading the code: the sources' paths, the scanner's and the registry reader's problems.
  case sources
  /// The plan matched against the code.
  case code(@Sendable (MatchedPlan, inout RuleContext) -> Void)
  /// What `trackc generate` needs beyond a clean lint: checked on the generation model (the plan, the
  /// code when there is some, and what the generated code would say).
  case generation(@Sendable (GenerationModel, inout RuleContext) -> Void)

  /// The phases without what they carry, for listing and grouping rules.
  public enum Kind: String, Sendable, CaseIterable {
    case input, yaml, structure, plan, sources, code, generation
  }

  public var kind: Kind {
    switch self {
    case .input: return .input
    case .yaml: return .yaml
    case .structure: return .structure
    case .plan: return .plan
    case .sources: return .sources
    case .code: return .code
    case .generation: return .generation
    }
  }
}

/// A rule on the resolved plan: the config's meaning, without the code.
public protocol PlanRule: Rule {
  static func check(_ plan: ResolvedPlan, in context: inout RuleContext)
}

extension PlanRule {
  public static var phase: RulePhase { .plan(check) }
}

/// A rule that checks the plan against the Swift sources (or a registry of their handlers), in either
/// direction: what the config names must exist in the code, what the code marks must be in the config.
public protocol CodeRule: Rule {
  static func check(_ code: MatchedPlan, in context: inout RuleContext)
}

extension CodeRule {
  public static var phase: RulePhase { .code(check) }
}

/// A rule that only `trackc generate` applies, on a config that lints clean: what generated code needs
/// beyond that, checked on the generation model the emitters write from. Its examples are run through
/// the generator.
public protocol GenerationRule: Rule {
  static func check(_ model: GenerationModel, in context: inout RuleContext)
}

extension GenerationRule {
  public static var phase: RulePhase { .generation(check) }
}

/// Collects what a config rule reports, stamping each finding with the rule's id, severity and file.
public struct RuleContext {
  public let file: String
  public private(set) var diagnostics: [Diagnostic] = []

  public init(file: String) {
    self.file = file
  }

  public func location(_ range: SourceRange) -> SourceLocation {
    SourceLocation(file: file, range: range)
  }

  /// The fix a did-you-mean offers: the config's text at `range` replaced with `replacement`.
  public func fixIt(replacing range: SourceRange, with replacement: String) -> Diagnostic.FixIt {
    Diagnostic.FixIt("replace with '\(replacement)'", replacing: location(range), with: replacement)
  }

  public mutating func report(
    _ rule: any Rule.Type,
    _ message: String,
    at range: SourceRange,
    severity: Diagnostic.Severity? = nil,
    notes: [Diagnostic.Note] = [],
    fixIt: Diagnostic.FixIt? = nil
  ) {
    diagnostics.append(
      Diagnostic(
        severity ?? rule.severity, rule: rule.id, message, at: location(range), notes: notes, fixIt: fixIt))
  }

  /// A finding in another file than the config (a Swift declaration).
  public mutating func report(
    _ rule: any Rule.Type,
    _ message: String,
    at location: SourceLocation,
    severity: Diagnostic.Severity? = nil,
    notes: [Diagnostic.Note] = []
  ) {
    diagnostics.append(Diagnostic(severity ?? rule.severity, rule: rule.id, message, at: location, notes: notes))
  }

  public mutating func append(contentsOf other: [Diagnostic]) {
    diagnostics.append(contentsOf: other)
  }
}

/// A rule on what the YAML reader reports (a `YAMLProblem`), which `FrontEndDiagnostics` hands to it.
public protocol YAMLRule: Rule {}

extension YAMLRule {
  public static var phase: RulePhase { .yaml }
}

/// A rule on what the config decoder reports (a `ConfigProblem`), which `FrontEndDiagnostics` hands to it.
public protocol StructureRule: Rule {}

extension StructureRule {
  public static var phase: RulePhase { .structure }
}
