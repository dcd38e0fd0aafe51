import ArgumentParser
import TrackcCore

@main
struct Trackc: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "trackc",
    abstract: "A declarative event-tracking rule compiler for Swift apps.",
    discussion: """
      trackc checks a YAML tracking config (screens -> page events, action handlers -> event IDs, destinations) and reports every problem as path:line:column, so that editors and CI point at it.

      Examples:
        trackc lint tracking.yaml
        trackc lint --strict Examples/Shop/tracking.yaml
        trackc lint --format sarif tracking.yaml > trackc.sarif
        trackc rules
      """,
    version: TrackcVersion.current,
    subcommands: [LintCommand.self, ScanCommand.self, InitCommand.self, RulesCommand.self]
  )
}

extension DiagnosticFormat: ExpressibleByArgument {}
