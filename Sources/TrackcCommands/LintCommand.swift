import ArgumentParser
import TrackcCore

package struct LintCommand: ParsableCommand {
  package static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check tracking configs and report every problem.",
    discussion: """
      Prints each finding as 'path:line:column: severity: message [rule-id]', followed by its notes, sorted by file and position.

      Exit status: 0 no errors; 1 the config has errors (or warnings, with --strict); 64 usage error; 66 a config could not be read.

      With Swift sources (the config's 'sources', or --sources), or a handler registry (--handlers), the config is also checked against the code, both ways: every screen and handler it names must exist and be reachable, every handler the code marks for tracking must be mapped.

      Examples:
        trackc lint tracking.yaml
        trackc lint tracking.yaml --sources Sources/App Sources/Features
        trackc lint tracking.yaml --handlers handlers.json
        trackc lint --strict --quiet App/tracking.yaml Widgets/tracking.yaml
        trackc lint --format json tracking.yaml
        trackc lint --fix --dry-run tracking.yaml
      """
  )

  @Argument(help: ArgumentHelp("Tracking config files to check.", valueName: "config"))
  var configs: [String]

  @Option(help: "Output format: text, json, sarif (SARIF 2.1.0) or github (GitHub Actions annotations).")
  var format: DiagnosticFormat = .text

  @Flag(help: "Fail (exit 1) on warnings too.")
  var strict = false

  @Flag(help: "Print errors only.")
  var quiet = false

  @Flag(help: "Print how long each phase took to standard error.")
  var timings = false

  @OptionGroup(title: "Code")
  var code: SourceOptions

  @OptionGroup(title: "Fixing")
  var fixing: FixOptions

  package init() {}

  package func validate() throws {
    guard !configs.isEmpty else { throw ValidationError("Give at least one config file to check.") }
    if fixing.dryRun && !fixing.fix { throw ValidationError("--dry-run goes with --fix.") }
  }

  package func run() throws {
    var options = LintOptions()
    if timings {
      options.phaseObserver = { StandardError.write(Timings.line($0, $1)) }
    }
    try code.apply(to: &options)
    if fixing.fix { try fixing.run(configs, options: options, strict: strict) }
    let session = LintSession.run(paths: configs, options: options)
    for error in session.unreadable {
      StandardError.write("trackc: error: \(error)\n")
    }
    let diagnostics = session.diagnostics(errorsOnly: quiet)
    let output = format.render(diagnostics)
    if !output.isEmpty { print(output, terminator: "") }
    if format == .text && !diagnostics.isEmpty {
      StandardError.write(TextDiagnosticRenderer.summary(diagnostics, fileCount: session.results.count) + "\n")
    }
    let status = session.exitStatus(strict: strict)
    // Like clang's -disable-free: the process is about to exit, so the config trees are not torn down
    // node by node (a tenth of the run time on a large config).
    _ = Unmanaged.passRetained(SessionBox(session))
    if status != .success { throw ExitCode(status.rawValue) }
  }
}

private final class SessionBox {
  let session: LintSession
  init(_ session: LintSession) { self.session = session }
}
