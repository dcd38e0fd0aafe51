import ArgumentParser
import TrackcCommands
import TrackcCore

struct DiffCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Show what changed in the tracking plan between two configs, and what of it breaks.",
    discussion: """
      Changes: screens and events added or removed, events renamed (the same screen and handler or page phase, a new ID), moved (the same ID elsewhere), re-routed, properties added, removed, retyped or given another value, destinations added or removed. Breaking: removed screens and events, renamed events, removed and retyped properties. Each change points into NEW (into OLD for removals).

      Exit status: 0 compared (1 with --fail-on breaking when a change breaks); 65 a config could not be read as a tracking config (its errors are printed); 66 a file or git revision could not be read; 64 usage error.

      Examples:
        trackc diff old/tracking.yaml tracking.yaml
        trackc diff --git origin/main tracking.yaml --format markdown > plan-diff.md
        trackc diff --git HEAD~1 tracking.yaml --format github --fail-on breaking
      """
  )

  enum FailOn: String, ExpressibleByArgument, CaseIterable {
    case breaking, never
  }

  @Argument(help: ArgumentHelp("OLD and NEW configs, or with --git only the config (compared with itself at REV).", valueName: "config"))
  var configs: [String]

  @Option(name: .customLong("git"), help: ArgumentHelp("Compare the config with the same file at this git revision.", valueName: "rev"))
  var revision: String?

  @Option(help: "Output format: text, markdown, json or github.")
  var format: PlanDiffFormat = .text

  @Option(help: "Exit 1 when a change is breaking ('breaking'), or never ('never', the default).")
  var failOn: FailOn = .never

  func validate() throws {
    if revision != nil {
      guard configs.count == 1 else { throw ValidationError("With --git, give one config: the file to compare with its revision.") }
    } else {
      guard configs.count == 2 else { throw ValidationError("Give two configs, OLD and NEW (or --git REV and one config).") }
    }
  }

  func run() async throws {
    let newPath = configs.last!
    let old: ConfigSource
    let new: ConfigSource
    do {
      new = try ConfigSource.read(path: newPath)
      if let revision {
        old = try await GitRevision.read(newPath, at: revision)
      } else {
        old = try ConfigSource.read(path: configs[0])
      }
    } catch {
      StandardError.write("trackc: error: \(error)\n")
      throw ExitCode(ExitStatus.noInput.rawValue)
    }
    switch PlanDiffSession.compare(old: old, new: new) {
    case .unreadable(let results):
      let diagnostics = PlanDiffSession.blockingDiagnostics(results)
      let rendered: String
      switch format {
      case .json: rendered = DiagnosticFormat.json.render(diagnostics)
      case .github: rendered = DiagnosticFormat.github.render(diagnostics)
      case .text, .markdown: rendered = DiagnosticFormat.text.render(diagnostics)
      }
      print(rendered, terminator: "")
      let names = results.map(\.path).joined(separator: " and ")
      StandardError.write("trackc: error: \(names) could not be read as a tracking config; nothing was compared\n")
      throw ExitCode(ExitStatus.dataError.rawValue)
    case .compared(let diff):
      print(format.render(diff, failOnBreaking: failOn == .breaking), terminator: "")
      StandardError.write("trackc: \(PlanDiffRenderer.summary(diff))\n")
      if failOn == .breaking && !diff.breakingChanges.isEmpty { throw ExitCode(ExitStatus.findings.rawValue) }
    }
  }
}

extension PlanDiffFormat: ExpressibleByArgument {}
