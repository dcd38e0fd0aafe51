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

  @OptionGroup
  var plan: PlanSourceOptions

  @Flag(help: "Replace an existing plan.")
  var force = false

  func run() throws {
    let output = plan.output
    try ScanSettings.requireExisting(plan.sources)
    guard force || !FileSystem.exists(output) else {
      StandardError.write("trackc: error: '\(output)' exists; use --force to replace it\n")
      throw ExitCode(ExitStatus.cannotWrite.rawValue)
    }
    let scanned = SourceScanner.scan(.paths(plan.sources), options: plan.settings.scanOptions)
    let findings = TextDiagnosticRenderer.render(scanned.diagnostics)
    if !findings.isEmpty { StandardError.write(findings) }
    let starter = StarterConfig.make(
      registry: scanned.registry, bases: plan.bases, sources: plan.sourcesFromPlan, interception: plan.interceptionMode)
    guard FileSystem.writeIfChanged(starter.text, to: output) else {
      StandardError.write("trackc: error: cannot write '\(output)'\n")
      throw ExitCode(ExitStatus.cannotWrite.rawValue)
    }
    StandardError.write(
      "trackc: wrote \(output) from \(scanned.fileCount) Swift files: \(starter.screenCount) screens (\(starter.summary)), \(starter.handlerCount) handlers to consider\n"
    )
  }
}
