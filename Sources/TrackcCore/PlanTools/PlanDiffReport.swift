/// Comparing two configs as `trackc diff` does: each is linted on its own (no code), and compared only
/// when both could be read whole; otherwise the findings that stopped it say where.
public enum PlanDiffSession {
  public enum Outcome: Sendable {
    case compared(PlanDiff)
    /// A config could not be read whole (YAML or structure errors): its findings, each config's.
    case unreadable([LintResult])
  }

  public static func compare(old: ConfigSource, new: ConfigSource, options: LintOptions = LintOptions()) -> Outcome {
    var options = options
    options.readsCode = false
    let results = [Linter.lint(old, options: options), Linter.lint(new, options: options)]
    let blocked = results.filter { !isReadWhole($0) }
    guard blocked.isEmpty, let oldOutline = PlanOutline(results[0]), let newOutline = PlanOutline(results[1]) else {
      return .unreadable(blocked.isEmpty ? results : blocked)
    }
    return .compared(PlanDiff(old: oldOutline, new: newOutline))
  }

  /// Whether the config was read into a plan without losing any part of it: no errors from the YAML
  /// reader or the config decoder (a part with such an error is left out of the plan, and would show as
  /// removed). Errors about the meaning (an unknown destination) do not stop a diff.
  public static func isReadWhole(_ result: LintResult) -> Bool {
    guard result.plan != nil else { return false }
    return !result.diagnostics.contains { diagnostic in
      guard diagnostic.severity == .error, let rule = RuleCatalog.rule(withID: diagnostic.ruleID) else { return false }
      switch rule.phase.kind {
      case .input, .yaml, .structure: return true
      default: return false
      }
    }
  }

  /// The findings that stopped a diff: the errors of each config that could not be read whole.
  public static func blockingDiagnostics(_ results: [LintResult]) -> [Diagnostic] {
    results.filter { !isReadWhole($0) }.flatMap { $0.diagnostics.filter { $0.severity == .error } }
  }
}

/// How `trackc diff` prints a plan diff.
public enum PlanDiffFormat: String, Sendable, CaseIterable {
  /// `path:line:column: breaking|change: message [kind]`, one line per change, like the linter's text.
  case text
  /// A pull-request comment: a summary, the breaking changes, then the others, as tables.
  case markdown
  /// One JSON document: every change with its kind, whether it breaks, and its location.
  case json
  /// GitHub Actions workflow commands: breaking changes as warnings (errors under `--fail-on breaking`),
  /// the others as notices, on the lines of the new config.
  case github

  public func render(_ diff: PlanDiff, failOnBreaking: Bool = false) -> String {
    switch self {
    case .text: return PlanDiffRenderer.text(diff)
    case .markdown: return PlanDiffRenderer.markdown(diff)
    case .json: return PlanDiffRenderer.json(diff)
    case .github: return PlanDiffRenderer.github(diff, failOnBreaking: failOnBreaking)
    }
  }
}

public enum PlanDiffRenderer {
  public static func text(_ diff: PlanDiff) -> String {
    var output = ""
    for change in diff.changes {
      let location = change.location
      let label = change.isBreaking ? "breaking" : "change"
      // As the linter's text: what the configs wrote cannot act on the terminal (`TerminalText`).
      output +=
        "\(TerminalText.escaped(location.file)):\(location.line):\(location.column): \(label): \(TerminalText.escaped(flat(change.message))) [\(change.kind.rawValue)]\n"
    }
    return output
  }

  /// "5 changes, 2 breaking" (or "no changes").
  public static func summary(_ diff: PlanDiff) -> String {
    guard !diff.isEmpty else { return "no changes to the tracking plan" }
    let count = diff.changes.count
    return "\(count) change\(count == 1 ? "" : "s") to the tracking plan, \(diff.breakingChanges.count) breaking"
  }

  public static func markdown(_ diff: PlanDiff) -> String {
    var output = "### Tracking plan changes\n\n"
    guard !diff.isEmpty else { return output + "No changes to the tracking plan.\n" }
    let breaking = diff.breakingChanges
    let others = diff.changes.filter { !$0.isBreaking }
    let count = diff.changes.count
    let breakingText = breaking.isEmpty ? "no breaking change" : "**\(breaking.count) breaking change\(breaking.count == 1 ? "" : "s")**"
    output += "\(count) change\(count == 1 ? "" : "s"), \(breakingText)"
    output += " (\(TextEscaping.markdown(diff.old.file)) → \(TextEscaping.markdown(diff.new.file))).\n"
    var counts: [PlanDiff.Kind: Int] = [:]
    for change in diff.changes { counts[change.kind, default: 0] += 1 }
    output += "\n" + PlanDiff.Kind.allCases.compactMap { kind in counts[kind].map { "\($0) \(kind.rawValue)" } }.joined(separator: " · ") + "\n"
    func table(_ title: String, _ changes: [PlanDiff.Change]) {
      guard !changes.isEmpty else { return }
      output += "\n#### \(title)\n\n| change | kind | where |\n| --- | --- | --- |\n"
      for change in changes {
        output +=
          "| \(TextEscaping.markdown(change.message)) | \(change.kind.rawValue) | \(TextEscaping.markdown("\(change.location.file):\(change.location.line)")) |\n"
      }
    }
    table("Breaking", breaking)
    table("Other changes", others)
    return output
  }

  private static func flat(_ text: String) -> String {
    text.contains(where: \.isNewline) ? text.split(whereSeparator: \.isNewline).joined(separator: " ") : text
  }

  struct Document: Encodable {
    var old: String
    var new: String
    var changes: [Entry]
    var summary: Summary
  }

  struct Entry: Encodable {
    var kind: String
    var breaking: Bool
    var subject: String
    var screen: String?
    var message: String
    var location: JSONDiagnosticRenderer.Position
    var anchorInNew: JSONDiagnosticRenderer.Position?
  }

  struct Summary: Encodable {
    var changes: Int
    var breaking: Int
  }

  public static func json(_ diff: PlanDiff) -> String {
    JSONOutput.encode(
      Document(
        old: diff.old.file, new: diff.new.file,
        changes: diff.changes.map { change in
          Entry(
            kind: change.kind.rawValue, breaking: change.isBreaking, subject: change.subject, screen: change.screen,
            message: change.message, location: .init(change.location), anchorInNew: change.anchorInNew.map { .init($0) })
        },
        summary: Summary(changes: diff.changes.count, breaking: diff.breakingChanges.count)))
  }

  /// Annotations on the new config: a removal goes on the nearest place in NEW (the screen that lost the
  /// event), or on the file as a whole when NEW has nothing near.
  public static func github(_ diff: PlanDiff, failOnBreaking: Bool) -> String {
    var output = ""
    for change in diff.changes {
      let level: GitHubActionsCommand.Level = change.isBreaking ? (failOnBreaking ? .error : .warning) : .notice
      let place = change.kind.isRemoval ? change.anchorInNew : change.location
      output +=
        GitHubActionsCommand(
          level: level, file: diff.new.file, range: place?.range,
          title: "trackc diff: \(change.kind.rawValue)\(change.isBreaking ? " (breaking)" : "")", message: change.message
        ).line
    }
    return output
  }
}
