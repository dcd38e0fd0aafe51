import ArgumentParser
import TrackcCommands
import TrackcCore

struct DocsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "docs",
    abstract: "Write the tracking plan as one self-contained HTML page.",
    discussion: """
      Every screen with its page and control events: each event's ID, destinations, properties and trigger, and, when the config is checked against code (its 'sources', or --sources), the Swift file and line of each screen and handler. Events per destination, and a search box. The page loads nothing from anywhere and prints well. The config is linted first; its findings go to standard error, and only a config that cannot be read stops the page.

      Examples:
        trackc docs tracking.yaml --output plan.html
        trackc docs tracking.yaml --sources Sources/App --output docs/plan.html --title "Shop tracking plan"
      """
  )

  @Argument(help: ArgumentHelp("The tracking config.", valueName: "config"))
  var config: String

  @Option(
    name: .shortAndLong, help: ArgumentHelp("The HTML file to write (default: standard output); written only when it changes.", valueName: "file"))
  var output: String?

  @Option(help: ArgumentHelp("The page's heading (default: 'Tracking plan').", valueName: "text"))
  var title: String?

  @OptionGroup(title: "Code")
  var code: SourceOptions

  func run() throws {
    var options = LintOptions()
    try code.apply(to: &options)
    let outline = try PlanToolInput.outline(of: config, options: options)
    let html = PlanDocument.render(outline, title: title)
    try PlanToolInput.write(html, to: output)
  }
}

/// What the plan tools share: a config read and linted into an outline, and output written.
enum PlanToolInput {
  /// The config's outline; its findings go to standard error. Exits 66 when it cannot be read, 1 when it
  /// cannot be read far enough to have a plan.
  static func outline(of config: String, options: LintOptions) throws -> PlanOutline {
    let session = LintSession.run(paths: [config], options: options)
    for error in session.unreadable { StandardError.write("trackc: error: \(error)\n") }
    guard let result = session.results.first else { throw ExitCode(ExitStatus.noInput.rawValue) }
    StandardError.write(TextDiagnosticRenderer.render(result.diagnostics))
    guard let outline = PlanOutline(result) else {
      StandardError.write("trackc: error: \(config) could not be read as a tracking config; nothing was written\n")
      throw ExitCode(ExitStatus.findings.rawValue)
    }
    return outline
  }

  /// Writes to a file (only when it changes), or to standard output when `path` is nil.
  static func write(_ text: String, to path: String?) throws {
    guard let path else {
      print(text, terminator: "")
      return
    }
    guard FileSystem.writeIfChanged(text, to: path) else {
      StandardError.write("trackc: error: cannot write '\(path)'\n")
      throw ExitCode(ExitStatus.cannotWrite.rawValue)
    }
  }
}
