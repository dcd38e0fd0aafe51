import Foundation
import Testing
import TrackcTestSupport

/// `TrackcBuildPlugin`'s Xcode conformance (`XcodeBuildToolPlugin`) sits behind `#if
/// canImport(XcodeProjectPlugin)`, a module only Xcode has. Here it is type-checked against a stand-in of
/// that module written from Apple's documentation (`Tests/XcodePluginStandIn`), with the toolchain's
/// PackagePlugin, in Swift 6 mode with warnings as errors: checked against those declarations, not against
/// Xcode's module, and not run. A planted error inside the branch shows the branch is compiled.
@Suite struct XcodeBuildPluginTests {
  static let plugin = Fixtures.repositoryRoot.appendingPathComponent("Plugins/TrackcBuildPlugin/TrackcBuildPlugin.swift")
  static let standIn = Fixtures.repositoryRoot.appendingPathComponent("Tests/XcodePluginStandIn/XcodeProjectPlugin.swift")

  /// The compiler and the folder of the toolchain's PackagePlugin module, beside it.
  static func toolchain() throws -> (swiftc: String, pluginAPI: String) {
    let swiftc = try #require(TestTool.findOnPath(["swiftc"]), "no swiftc on PATH")
    let resolved = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath()
    let pluginAPI = resolved.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib/swift/pm/PluginAPI").path
    #expect(FileManager.default.fileExists(atPath: pluginAPI + "/PackagePlugin.swiftmodule"), "no PackagePlugin module at \(pluginAPI)")
    // Run by its own name: the driver reads what it is from it.
    return (swiftc, pluginAPI)
  }

  /// Type-checks `plugin` as SwiftPM compiles a plugin; with the stand-in module when `xcode`.
  static func typecheck(_ plugin: URL, xcode: Bool) throws -> ProcessOutput {
    let (swiftc, pluginAPI) = try toolchain()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackc-xcode-plugin-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let common = ["-parse-as-library", "-swift-version", "6", "-package-description-version", "6.1", "-warnings-as-errors", "-I", pluginAPI]
    if xcode {
      let emitted = try ProcessRunner.run(
        swiftc,
        [
          "-emit-module", "-module-name", "XcodeProjectPlugin", "-emit-module-path",
          folder.appendingPathComponent("XcodeProjectPlugin.swiftmodule").path,
        ]
          + common + [standIn.path])
      #expect(emitted.status == 0, "the stand-in does not compile: \(emitted.standardError)")
    }
    return try ProcessRunner.run(swiftc, ["-typecheck"] + common + (xcode ? ["-I", folder.path] : []) + [plugin.path])
  }

  @Test func bothConformancesTypeCheck() throws {
    let swiftPM = try Self.typecheck(Self.plugin, xcode: false)
    #expect(swiftPM.status == 0, "\(swiftPM.standardError)")
    let xcode = try Self.typecheck(Self.plugin, xcode: true)
    #expect(xcode.status == 0, "\(xcode.standardError)")
  }

  /// An error planted in the Xcode branch fails with the stand-in and goes unseen without it.
  @Test func theXcodeBranchIsCompiledWithTheStandIn() throws {
    let source = try String(contentsOf: Self.plugin, encoding: .utf8)
    let marker = "  extension TrackcBuildPlugin: XcodeBuildToolPlugin {\n"
    #expect(source.contains(marker))
    let planted = FileManager.default.temporaryDirectory.appendingPathComponent("TrackcBuildPlugin-planted-\(UUID().uuidString).swift")
    try source.replacingOccurrences(of: marker, with: marker + "    func planted() -> Int { \"not an Int\" }\n").write(
      to: planted, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: planted) }
    let xcode = try Self.typecheck(planted, xcode: true)
    #expect(xcode.status != 0 && xcode.standardError.contains("not an Int"), "\(xcode.standardError)")
    let swiftPM = try Self.typecheck(planted, xcode: false)
    #expect(swiftPM.status == 0, "\(swiftPM.standardError)")
  }
}
