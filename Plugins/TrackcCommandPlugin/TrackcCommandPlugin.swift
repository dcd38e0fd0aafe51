import Foundation
import PackagePlugin

/// `swift package trackc lint` and `swift package trackc generate`, for teams that check generated code
/// in (run `generate --check` in CI to catch a forgotten regeneration).
///
///     swift package trackc lint [--config PATH]
///     swift package --allow-writing-to-package-directory trackc generate --target ShopTracking [--check]
///
/// `generate` writes into each `--target`'s directory (by default, each target that holds a
/// `tracking.yaml`). The config is `--config` (relative to the package), else the target's own
/// `tracking.yaml`, else the package's. Other arguments go to trackc as they are.
@main
struct TrackcCommandPlugin: CommandPlugin {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let targetNames = extractor.extractOption(named: "target")
    let configOption = extractor.extractOption(named: "config").last
    let remaining = extractor.remainingArguments
    guard let command = remaining.first, command == "lint" || command == "generate" else {
      throw Failure(description: "usage: swift package trackc lint|generate [--target NAME]... [--config PATH] [trackc options]")
    }
    let passThrough = Array(remaining.dropFirst())
    let package = context.package.directoryURL
    let packageConfig = package.appending(path: "tracking.yaml")

    var targets: [SourceModuleTarget] = []
    for target in context.package.targets {
      guard let module = target as? SourceModuleTarget else { continue }
      let hasConfig = FileManager.default.fileExists(atPath: module.directoryURL.appending(path: "tracking.yaml").path)
      if targetNames.isEmpty ? hasConfig : targetNames.contains(module.name) { targets.append(module) }
    }
    let missing = Set(targetNames).subtracting(targets.map(\.name))
    guard missing.isEmpty else { throw Failure(description: "no source target named \(missing.sorted().joined(separator: ", "))") }

    func config(for target: SourceModuleTarget?) -> URL {
      if let configOption { return package.appending(path: configOption) }
      if let target, FileManager.default.fileExists(atPath: target.directoryURL.appending(path: "tracking.yaml").path) {
        return target.directoryURL.appending(path: "tracking.yaml")
      }
      return packageConfig
    }

    let trackc = try context.tool(named: "trackc-plugin-tool").url
    switch command {
    case "lint":
      let configs = targets.isEmpty ? [config(for: nil)] : targets.map { config(for: $0) }
      try run(trackc, ["lint"] + Array(Set(configs.map(\.path))).sorted() + passThrough, in: package)
    default:
      guard !targets.isEmpty else {
        throw Failure(description: "name the target to generate into with --target (or put a tracking.yaml in its directory)")
      }
      for target in targets {
        try run(trackc, ["generate", config(for: target).path, "--output", target.directoryURL.path] + passThrough, in: package)
      }
    }
  }

  private func run(_ tool: URL, _ arguments: [String], in directory: URL) throws {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    process.currentDirectoryURL = directory
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(description: "trackc \(arguments.first ?? "") failed (exit \(process.terminationStatus))")
    }
  }
}
