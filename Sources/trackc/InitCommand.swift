import ArgumentParser
import TrackcCore

struct InitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "init",
    abstract: "Write a starter tracking config from an existing app's sources.",
    discussion: """
      Every subclass of the base classes (UIViewController unless --base says otherwise) becomes a screen with enter and leave events; the handlers it exposes to Objective-C are listed as commented-out entries. The result passes 'trackc lint' as written.

      Examples:
        trackc init --sources Sources/App
        trackc init --sources App Features --base UIViewController --base BaseScreen --output App/tracking.yaml
      """
  )

  @Option(parsing: .upToNextOption, help: ArgumentHelp("Swift source files or directories of the app.", valueName: "path"))
  var sources: [String] = []

  @Option(name: .customLong("base"), help: ArgumentHelp("A base class of the app's screens (repeatable).", valueName: "class"))
  var bases: [String] = []

  @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the config.", valueName: "file"))
  var output = "tracking.yaml"

  @Flag(help: "Replace an existing config.")
  var force = false

  @OptionGroup
  var settings: ScanSettings

  func validate() throws {
    guard !sources.isEmpty else { throw ValidationError("Give the app's sources with --sources.") }
  }

  func run() throws {
    try ScanSettings.requireExisting(sources)
    guard force || !FileSystem.exists(output) else {
      StandardError.write("trackc: error: '\(output)' exists; use --force to replace it\n")
      throw ExitCode(ExitStatus.cannotWrite.rawValue)
    }
    let scanned = SourceScanner.scan(.paths(sources), options: settings.scanOptions)
    let findings = TextDiagnosticRenderer.render(scanned.diagnostics)
    if !findings.isEmpty { StandardError.write(findings) }
    let outputDirectory = RelativePath.directory(of: output)
    let starter = StarterConfig.make(
      registry: scanned.registry, bases: bases.isEmpty ? ["UIViewController"] : bases,
      sources: sources.map { RelativePath.from(directory: outputDirectory, to: $0) })
    guard FileSystem.writeIfChanged(starter.text, to: output) else {
      StandardError.write("trackc: error: cannot write '\(output)'\n")
      throw ExitCode(ExitStatus.cannotWrite.rawValue)
    }
    StandardError.write("trackc: wrote \(output): \(starter.screenCount) screens, \(starter.handlerCount) handlers to consider\n")
  }
}
