import ArgumentParser
import TrackcCommands
import TrackcCore

@main
struct Trackc: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "trackc",
    abstract: "A declarative event-tracking rule compiler for Swift apps.",
    discussion: """
      trackc checks a YAML tracking config (screens -> page events, action handlers -> event IDs, destinations) against itself and against the Swift sources it names, and reports every problem as path:line:column, so that editors and CI point at it.

      Examples:
        trackc lint tracking.yaml
        trackc lint tracking.yaml --sources App/Sources
        trackc lint --strict Examples/Shop/tracking.yaml
        trackc scan Sources --output handlers.json
        trackc init --sources Sources
        trackc lint --format sarif tracking.yaml > trackc.sarif
        trackc rules
        trackc docs tracking.yaml --output plan.html
        trackc diff --git origin/main tracking.yaml --format markdown
        trackc export --format jsonschema tracking.yaml --output schemas/
        trackc collector --config tracking.yaml --port 9000
      """,
    version: TrackcVersion.current,
    subcommands: [
      LintCommand.self, GenerateCommand.self, ScanCommand.self, InitCommand.self, RulesCommand.self, DocsCommand.self, DiffCommand.self,
      ExportCommand.self, AdoptCommand.self, CollectorCommand.self, ScanWorkerCommand.self,
    ]
  )
}
