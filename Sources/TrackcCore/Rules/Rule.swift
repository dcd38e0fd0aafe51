/// A check with a stable id. Every diagnostic trackc emits names the rule it comes from.
///
/// Each rule lives in its own file with its examples beside it; `RuleExampleTests` runs every example,
/// so the documentation of a rule cannot drift from what it does.
public protocol Rule: Sendable {
  /// Stable kebab-case id, printed as `[id]` and used in SARIF.
  static var id: String { get }
  /// One line: what the rule catches.
  static var summary: String { get }
  static var severity: Diagnostic.Severity { get }
  static var examples: [RuleExample] { get }
}

/// A rule that looks at one screen at a time. Screens are decoded and checked in parallel, so most of
/// the work of a large config is spread over all cores; what a rule needs from the rest of the config
/// comes through the environment.
public protocol ScreenRule: Rule {
  static func check(_ screen: TrackingConfig.Screen, in environment: RuleEnvironment, context: inout RuleContext)
}

/// A rule across screens (duplicates), fed every screen once, in file order, through a checker that
/// keeps what it needs: it can run while the rest of the file is still being read.
public protocol ScreenSequenceRule: Rule {
  static func makeChecker() -> any ScreenSequenceChecker
}

public protocol ScreenSequenceChecker: AnyObject {
  func check(_ screen: TrackingConfig.Screen, in context: inout RuleContext)
}

/// A rule on the config's own settings (its pattern, its defaults). It runs once the top level is read.
public protocol ConfigRule: Rule {
  static func check(_ config: TrackingConfig, in context: inout RuleContext)
}

/// A rule that checks the config against the Swift sources (or a registry of their handlers), in either
/// direction: what the config names must exist in the code, what the code marks must be in the config.
public protocol CodeRule: Rule {
  static func check(_ config: TrackingConfig, against code: CodeMatch, in context: inout RuleContext)
}

/// A rule that only `trackc generate` applies, on a config that lints clean: what generated code needs
/// beyond that. Its examples are run through the generator.
public protocol GenerationRule: Rule {
  static func check(_ config: TrackingConfig, code: CodeMatch?, in context: inout RuleContext)
}

/// An input that a rule must flag (at every `1️⃣`, `2️⃣`... marker) or must leave alone.
public struct RuleExample: Sendable {
  public enum Expectation: Sendable {
    case triggers
    case passes
  }

  public var expectation: Expectation
  /// Config text; markers are removed before linting and give the expected diagnostic positions.
  public var source: String
  /// Raw bytes to lint instead of `source`, for inputs a Swift string cannot hold (bad encodings).
  /// Positions are then given by `expectedPositions`.
  public var bytes: [UInt8]?
  public var expectedPositions: [SourcePosition]
  public var options: LintOptions
  /// Swift files the config is checked against (path and text; markers allowed), sorted by path.
  public var swiftFiles: [(path: String, text: String)]
  /// A handler registry (JSON) the config is checked against instead of sources.
  public var registry: String? = nil

  public static func triggers(
    _ source: String, swift: [String: String] = [:], options: LintOptions = LintOptions()
  ) -> RuleExample {
    RuleExample(
      expectation: .triggers, source: source, bytes: nil, expectedPositions: [], options: options,
      swiftFiles: swift.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
  }

  public static func passes(
    _ source: String, swift: [String: String] = [:], options: LintOptions = LintOptions()
  ) -> RuleExample {
    RuleExample(
      expectation: .passes, source: source, bytes: nil, expectedPositions: [], options: options,
      swiftFiles: swift.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
  }

  /// An example checked against a handler registry (JSON, markers allowed) instead of sources.
  public static func triggers(_ source: String, registry: String) -> RuleExample {
    RuleExample(
      expectation: .triggers, source: source, bytes: nil, expectedPositions: [], options: LintOptions(), swiftFiles: [],
      registry: registry)
  }

  public static func passes(_ source: String, registry: String) -> RuleExample {
    RuleExample(
      expectation: .passes, source: source, bytes: nil, expectedPositions: [], options: LintOptions(), swiftFiles: [],
      registry: registry)
  }

  public static func triggers(bytes: [UInt8], at positions: [SourcePosition]) -> RuleExample {
    RuleExample(expectation: .triggers, source: "", bytes: bytes, expectedPositions: positions, options: LintOptions(), swiftFiles: [])
  }
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
