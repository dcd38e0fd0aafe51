/// One finding about an input: the single structured type every part of trackc reports through.
///
/// Renderers (text, JSON, SARIF) turn it into output at the edge; nothing else formats findings.
public struct Diagnostic: Hashable, Sendable {
  public enum Severity: String, Hashable, Sendable, Comparable, CaseIterable {
    case warning
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
      lhs == .warning && rhs == .error
    }
  }

  /// Extra context attached to a diagnostic, usually pointing at a second place ("first defined here").
  public struct Note: Hashable, Sendable {
    public var message: String
    public var location: SourceLocation?

    public init(_ message: String, at location: SourceLocation? = nil) {
      self.message = message
      self.location = location
    }
  }

  /// A suggested edit that would resolve the finding: replace the text in `range` with `replacement`.
  public struct FixIt: Hashable, Sendable {
    public var message: String
    public var range: SourceLocation
    public var replacement: String

    public init(_ message: String, replacing range: SourceLocation, with replacement: String) {
      self.message = message
      self.range = range
      self.replacement = replacement
    }
  }

  public var severity: Severity
  public var ruleID: String
  public var message: String
  public var location: SourceLocation
  public var notes: [Note]
  public var fixIt: FixIt?

  public init(
    _ severity: Severity,
    rule ruleID: String,
    _ message: String,
    at location: SourceLocation,
    notes: [Note] = [],
    fixIt: FixIt? = nil
  ) {
    self.severity = severity
    self.ruleID = ruleID
    self.message = message
    self.location = location
    self.notes = notes
    self.fixIt = fixIt
  }

  /// The order findings are printed in: by file, then position, then severity (errors first), rule and text.
  public static func presentationOrder(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
    if lhs.location != rhs.location { return lhs.location < rhs.location }
    if lhs.severity != rhs.severity { return lhs.severity > rhs.severity }
    if lhs.ruleID != rhs.ruleID { return lhs.ruleID < rhs.ruleID }
    return lhs.message < rhs.message
  }
}

extension Array where Element == Diagnostic {
  public var errorCount: Int { count(where: { $0.severity == .error }) }
  public var warningCount: Int { count(where: { $0.severity == .warning }) }
  public var hasErrors: Bool { contains(where: { $0.severity == .error }) }
}
