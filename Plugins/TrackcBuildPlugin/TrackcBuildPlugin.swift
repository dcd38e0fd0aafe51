import Foundation
import PackagePlugin

/// Generates the tracking registry of a target that holds a `tracking.yaml`, at every build: the code is
/// not checked in, and cannot go stale. Runs `trackc generate --single-file` into the plugin's work
/// directory; the outputs have fixed names (`Tracking.swift`, and the plan's privacy manifest
/// `PrivacyInfo.xcprivacy`, which the build copies into the target's resource bundle, where Xcode's
/// privacy report finds it), as build tool plugins must declare their outputs up front.
///
/// The config's `sources` name the feature modules (relative to the config); their Swift files are
/// declared as inputs, so editing a handler regenerates.
@main
struct TrackcBuildPlugin: BuildToolPlugin {
  struct MissingConfig: Error, CustomStringConvertible {
    let target: String
    var description: String { "target '\(target)' uses TrackcBuildPlugin but has no tracking.yaml in its directory" }
  }

  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let config = target.directoryURL.appending(path: "tracking.yaml")
    guard FileManager.default.fileExists(atPath: config.path) else { throw MissingConfig(target: target.name) }
    let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
    var inputs = [config]
    for case .target(let dependency) in target.dependencies {
      guard let module = dependency as? SourceModuleTarget else { continue }
      inputs += module.sourceFiles(withSuffix: "swift").map(\.url)
    }
    return [
      .buildCommand(
        displayName: "trackc generate \(target.name)",
        executable: try context.tool(named: "trackc").url,
        arguments: [
          "generate", config.path, "--output", output.path, "--single-file",
          "--cache-dir", context.pluginWorkDirectoryURL.appending(path: "cache").path,
        ],
        inputFiles: inputs,
        outputFiles: Self.outputs(in: output))
    ]
  }

  /// What `trackc generate --single-file` writes: the code, compiled into the target, and the privacy
  /// manifest, a resource of the target.
  static func outputs(in directory: URL) -> [URL] {
    [directory.appending(path: "Tracking.swift"), directory.appending(path: "PrivacyInfo.xcprivacy")]
  }
}
