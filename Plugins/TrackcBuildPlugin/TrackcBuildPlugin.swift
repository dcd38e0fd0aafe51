import Foundation
import PackagePlugin

/// Generates the tracking registry of a target that holds a tracking plan, at every build: the code is
/// not checked in, and cannot go stale. Runs `trackc-plugin-tool generate --single-file` (which lints the
/// plan first, and stops the build on an error, each finding at its line) into the plugin's work
/// directory. The tool is trackc's lint and generate without the collector, so that an app's first build
/// compiles no swift-nio, built from source or taken from an artifact bundle (Scripts/artifact-bundle.sh). The
/// outputs have fixed names (`Tracking.swift`, and the plan's privacy manifest `PrivacyInfo.xcprivacy`,
/// which the build copies into the target's resources, where Xcode's privacy report finds it), as build
/// tool plugins must declare their outputs up front.
///
/// Two ways in, one command (`generate(plan:sources:trackc:workDirectory:)`):
/// - a SwiftPM target (`BuildToolPlugin`): the `tracking.yaml` in its directory; the Swift files of the
///   targets it depends on (the feature modules the plan's `sources` name) are its inputs;
/// - an Xcode target (`XcodeBuildToolPlugin`, in Xcode only): a `tracking.yaml` among the target's files,
///   else the nearest one in the folders of its Swift files (up to the project's folder), so that the plan
///   need not be a member of the target (which would copy it into the app); the target's Swift files are
///   its inputs. The code is generated into the target itself: under `interception: objc-runtime` the
///   registry finds the target's classes in its own module.
///
/// So editing the plan or a handler regenerates, and nothing else does.
@main
struct TrackcBuildPlugin: BuildToolPlugin {
  struct MissingPlan: Error, CustomStringConvertible {
    let target: String
    let looked: String
    var description: String { "target '\(target)' uses TrackcBuildPlugin but has no tracking.yaml \(looked)" }
  }

  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let plan = target.directoryURL.appending(path: "tracking.yaml")
    guard FileManager.default.fileExists(atPath: plan.path) else { throw MissingPlan(target: target.name, looked: "in its directory") }
    var sources: [URL] = []
    for case .target(let dependency) in target.dependencies {
      guard let module = dependency as? SourceModuleTarget else { continue }
      sources += module.sourceFiles(withSuffix: "swift").map(\.url)
    }
    return [
      Self.generate(
        plan: plan, sources: sources, trackc: try context.tool(named: "trackc-plugin-tool").url, workDirectory: context.pluginWorkDirectoryURL)
    ]
  }

  /// `trackc generate` of `plan` into the work directory; `sources` are declared as inputs.
  static func generate(plan: URL, sources: [URL], trackc: URL, workDirectory: URL) -> Command {
    let output = workDirectory.appending(path: "Generated")
    return .buildCommand(
      displayName: "trackc generate \(plan.lastPathComponent)",
      executable: trackc,
      arguments: [
        "generate", plan.path, "--output", output.path, "--single-file", "--cache-dir", workDirectory.appending(path: "cache").path,
      ],
      inputFiles: [plan] + sources,
      outputFiles: outputs(in: output))
  }

  /// What `trackc generate --single-file` writes: the code, compiled into the target, and the privacy
  /// manifest, a resource of the target.
  static func outputs(in directory: URL) -> [URL] {
    [directory.appending(path: "Tracking.swift"), directory.appending(path: "PrivacyInfo.xcprivacy")]
  }

  /// An Xcode target's plan: a `tracking.yaml` among its files, else the nearest one in the folders of its
  /// Swift files, looking up to (and in) `root`, the project's folder.
  static func plan(amongTargetFiles files: [URL], root: URL) -> URL? {
    if let member = files.first(where: { $0.lastPathComponent == "tracking.yaml" }) { return member }
    let top = root.standardizedFileURL.path
    var folders = Set<String>()
    for file in files where file.pathExtension == "swift" {
      var folder = file.deletingLastPathComponent().standardizedFileURL
      // The folder itself and its parents, inside the project's folder.
      while folder.path.hasPrefix(top), folders.insert(folder.path).inserted {
        if folder.path == top { break }
        folder = folder.deletingLastPathComponent()
      }
    }
    // The deepest folder first: the plan nearest the sources.
    for folder in folders.sorted(by: { $0.count > $1.count }) {
      let candidate = URL(fileURLWithPath: folder).appending(path: "tracking.yaml")
      if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
    }
    return nil
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension TrackcBuildPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
      let files = target.inputFiles.map(\.url)
      guard let plan = Self.plan(amongTargetFiles: files, root: context.xcodeProject.directoryURL) else {
        throw MissingPlan(target: target.displayName, looked: "among its files or in the folders of its Swift files")
      }
      return [
        Self.generate(
          plan: plan, sources: files.filter { $0.pathExtension == "swift" }, trackc: try context.tool(named: "trackc-plugin-tool").url,
          workDirectory: context.pluginWorkDirectoryURL)
      ]
    }
  }
#endif
