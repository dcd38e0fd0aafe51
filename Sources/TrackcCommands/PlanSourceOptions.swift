import ArgumentParser
import TrackcCore

/// What `trackc init` and `trackc adopt` both read to write a plan from an app: its sources, its screens'
/// base classes, how the plan intercepts, and where the plan goes.
package struct PlanSourceOptions: ParsableArguments {
  @Option(parsing: .upToNextOption, help: ArgumentHelp("Swift source files or directories of the app.", valueName: "path"))
  package var sources: [String] = []

  @Option(
    name: .customLong("base"),
    help: ArgumentHelp("A base class of the app's screens (repeatable; default: every view controller).", valueName: "class"))
  package var bases: [String] = []

  @Option(help: ArgumentHelp("How the plan intercepts: objc-runtime or dynamic-replacement.", valueName: "mode"))
  var interception: String = TrackingConfig.Interception.default.rawValue

  @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the plan.", valueName: "file"))
  package var output = "tracking.yaml"

  @OptionGroup
  package var settings: ScanSettings

  package init() {}

  package func validate() throws {
    guard !sources.isEmpty else { throw ValidationError("Give the app's sources with --sources.") }
    guard TrackingConfig.Interception(rawValue: interception) != nil else {
      let modes = TrackingConfig.Interception.allCases.map(\.rawValue)
      let suggestion = Suggestions.closest(to: interception, in: modes).map { "; did you mean '\($0)'?" } ?? ""
      throw ValidationError("--interception must be \(modes.joined(separator: " or ")), not '\(interception)'\(suggestion)")
    }
  }

  package var interceptionMode: TrackingConfig.Interception { TrackingConfig.Interception(rawValue: interception) ?? .default }

  /// The sources as the plan names them: relative to the plan's folder.
  package var sourcesFromPlan: [String] {
    let directory = RelativePath.directory(of: output)
    return sources.map { RelativePath.from(directory: directory, to: $0) }
  }
}
