import ArgumentParser
import TrackcCommands
import TrackcCore

struct InitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "init",
    abstract: "Write a starter tracking config from an existing app's sources.",
    discussion: """
      Every screen of the app becomes a screen of the config: view controllers (every subclass of UIViewController or NSViewController, through UIKit's own classes such as UITableViewController and UIHostingController, unless --base says otherwise), SwiftUI views that are screens (a hosting controller's root, presented, navigated to, or setting up navigation) and view models (observable classes a view holds). Those the interception reports as they stand get enter and leave events, with their handlers listed as commented-out entries; those that need something first (a SwiftUI view its .tracked(_:) modifier, a view model dynamic-replacement) are commented out with what they need. The result passes 'trackc lint' as written.

      Examples:
        trackc init --sources Sources/App
        trackc init --sources App Features --interception dynamic-replacement --output App/tracking.yaml
        trackc init --sources Sources --base ScreenController
      """
  )

  @Option(parsing: .upToNextOption, help: ArgumentHelp("Swift source files or directories of the app.", valueName: "path"))
  var sources: [String] = []

  @Option(
    name: .customLong("base"),
    help: ArgumentHelp("A base class of the app's screens (repeatable; default: every view controller).", valueName: "class"))
  var bases: [String] = []

  @Option(help: ArgumentHelp("How the config intercepts: objc-runtime or dynamic-replacement.", valueName: "mode"))
  var interception: String = TrackingConfig.Interception.default.rawValue

  @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the config.", valueName: "file"))
  var output = "tracking.yaml"

  @Flag(help: "Replace an existing config.")
  var force = false

  @OptionGroup
  var settings: ScanSettings

  func validate() throws {
    guard !sources.isEmpty else { throw ValidationError("Give the app's sources with --sources.") }
    guard TrackingConfig.Interception(rawValue: interception) != nil else {
      let modes = TrackingConfig.Interception.allCases.map(\.rawValue)
      let suggestion = Suggestions.closest(to: interception, in: modes).map { "; did you mean '\($0)'?" } ?? ""
      throw ValidationError("--interception must be \(modes.joined(separator: " or ")), not '\(interception)'\(suggestion)")
    }
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
      registry: scanned.registry, bases: bases, sources: sources.map { RelativePath.from(directory: outputDirectory, to: $0) },
      interception: TrackingConfig.Interception(rawValue: interception) ?? .default)
    guard FileSystem.writeIfChanged(starter.text, to: output) else {
      StandardError.write("trackc: error: cannot write '\(output)'\n")
      throw ExitCode(ExitStatus.cannotWrite.rawValue)
    }
    StandardError.write(
      "trackc: wrote \(output) from \(scanned.fileCount) Swift files: \(starter.screenCount) screens (\(starter.summary)), \(starter.handlerCount) handlers to consider\n"
    )
  }
}
