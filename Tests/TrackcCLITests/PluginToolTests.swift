import Foundation
import Testing
import TrackcTestSupport

/// The tool the plugins run, `trackc-plugin-tool`: trackc's lint and generate without the collector, so
/// that an app's first build compiles no NIO; and the artifact bundle that ships it prebuilt
/// (Scripts/artifact-bundle.sh), used by a package through `binaryTarget(name:path:)`.
@Suite struct PluginToolTests {
  static let pluginTool = BuiltExecutable.path(named: "trackc-plugin-tool")

  /// Swift mangles a declaration's module into its symbol as `<length><name>`: a module linked into an
  /// executable leaves its name so in the binary.
  static func links(_ binary: String, module: String) throws -> Bool {
    let data = try Data(contentsOf: URL(fileURLWithPath: binary), options: .alwaysMapped)
    return data.range(of: Data("\(module.utf8.count)\(module)".utf8)) != nil
  }

  @Test func thePluginToolLinksTheCompilerAndNeitherTheCollectorNorNIO() throws {
    #expect(try Self.links(Self.pluginTool, module: "TrackcCore"))
    for module in ["TrackcCollector", "NIOCore", "NIOPosix", "NIOHTTP1"] {
      #expect(try !Self.links(Self.pluginTool, module: module), "trackc-plugin-tool links \(module)")
      // The command line does: what is looked for is there to find.
      #expect(try Self.links(TrackcBinary.path, module: module), "trackc does not link \(module)")
    }
  }

  /// The plugins run `lint` and `generate`; the parsing workers those start re-run the tool itself.
  @Test func thePluginToolAnswersLintGenerateAndItsParsingWorkers() throws {
    let scratch = try ScratchDirectory("plugin-tool")
    defer { scratch.remove() }
    let plan = Fixtures.repositoryRoot.appendingPathComponent("Tests/ArtifactBundleFixture/tracking.yaml").path
    let lint = try ProcessRunner.run(Self.pluginTool, ["lint", plan, "--no-cache"])
    #expect(lint.status == 0, "\(lint.standardOutput)\(lint.standardError)")
    for tool in [Self.pluginTool, TrackcBinary.path] {
      let output = scratch.url.appendingPathComponent(URL(fileURLWithPath: tool).lastPathComponent).path
      let run = try ProcessRunner.run(tool, ["generate", plan, "--output", output, "--no-cache"])
      #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
    }
    for file in ["Tracking.swift", "Tracking+Shop.swift", "PrivacyInfo.xcprivacy"] {
      #expect(try scratch.read("trackc-plugin-tool/\(file)") == scratch.read("trackc/\(file)"), "\(file) differs")
    }
    let commands = try ProcessRunner.run(Self.pluginTool, ["--help"]).standardOutput
    #expect(commands.contains("lint") && commands.contains("generate") && !commands.contains("collector"))
  }

  /// The script writes `trackc.artifactbundle` (SE-0305's `info.json`: an executable artifact a tool, a
  /// variant for this platform) from this build's executables, and the trackc-plugins package beside it;
  /// a package that depends on it runs `swift package trackc lint` and `generate` with the bundle's tool,
  /// which writes what the tool built from source writes, and stops on an error in the plan.
  @Test(.timeLimit(.minutes(10)))
  func aPackageRunsThePluginsWithTheBundlesTool() throws {
    let swift = try #require(TestTool.findOnPath(["swift"]), "no swift on PATH")
    let scratch = try ScratchDirectory("artifact-bundle")
    defer { scratch.remove() }
    let binaries = URL(fileURLWithPath: Self.pluginTool).deletingLastPathComponent().path
    let plugins = scratch.url.appendingPathComponent("trackc-plugins").path
    let script = Fixtures.repositoryRoot.appendingPathComponent("Scripts/artifact-bundle.sh").path
    let made = try ProcessRunner.run("/bin/bash", [script, "--binaries", binaries, "--output", plugins, "--package"])
    try #require(made.status == 0, "\(made.standardOutput)\(made.standardError)")

    let bundle = scratch.url.appendingPathComponent("trackc-plugins/trackc.artifactbundle")
    let info = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("info.json"))) as? [String: Any])
    #expect(info["schemaVersion"] as? String == "1.0")
    let artifacts = try #require(info["artifacts"] as? [String: [String: Any]])
    #expect(artifacts.keys.sorted() == ["trackc", "trackc-plugin-tool"])
    var machine = utsname()
    uname(&machine)
    let architecture = withUnsafeBytes(of: machine.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    #if os(Linux)
      let triple = "\(architecture)-unknown-linux-gnu"
    #else
      let triple = "\(architecture)-apple-macosx"
    #endif
    let version = try ProcessRunner.run(TrackcBinary.path, ["--version"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    for (name, artifact) in artifacts {
      #expect(artifact["type"] as? String == "executable")
      #expect(artifact["version"] as? String == version)
      let variants = try #require(artifact["variants"] as? [[String: Any]])
      #expect(variants.count == 1)
      let path = try #require(variants.first?["path"] as? String)
      #expect(path.hasSuffix("/bin/\(name)"))
      #expect(FileManager.default.isExecutableFile(atPath: bundle.appendingPathComponent(path).path), "\(path) is not in the bundle")
      #expect(variants.first?["supportedTriples"] as? [String] == [triple])
    }

    try scratch.copy(Fixtures.repositoryRoot.appendingPathComponent("Tests/ArtifactBundleFixture"), to: "consumer")
    let consumer = scratch.url.appendingPathComponent("consumer")
    let generate = try ProcessRunner.run(
      swift, ["package", "--allow-writing-to-package-directory", "trackc", "generate", "--target", "FixtureTracking"], currentDirectory: consumer)
    try #require(generate.status == 0, "\(generate.standardOutput)\(generate.standardError)")
    // SwiftPM passes on what the plugin's tool prints, on standard output.
    #expect((generate.standardOutput + generate.standardError).contains("trackc: 3 files generated"), "\(generate.standardOutput)")
    let fromSource = scratch.url.appendingPathComponent("from-source").path
    let reference = try ProcessRunner.run(
      TrackcBinary.path, ["generate", consumer.appendingPathComponent("tracking.yaml").path, "--output", fromSource, "--no-cache"])
    try #require(reference.status == 0, "\(reference.standardError)")
    for file in ["Tracking.swift", "Tracking+Shop.swift", "PrivacyInfo.xcprivacy"] {
      #expect(try scratch.read("consumer/Sources/FixtureTracking/\(file)") == scratch.read("from-source/\(file)"), "\(file) differs")
    }

    let lint = try ProcessRunner.run(swift, ["package", "--allow-writing-to-package-directory", "trackc", "lint"], currentDirectory: consumer)
    #expect(lint.status == 0, "\(lint.standardOutput)\(lint.standardError)")
    // A handler the code does not have: the finding at its line, and the plugin fails.
    let plan = consumer.appendingPathComponent("tracking.yaml")
    let text = try String(contentsOf: plan, encoding: .utf8)
    try text.replacingOccurrences(of: "onFavBtnPressed(_:)", with: "onFavouriteTapped(_:)").write(to: plan, atomically: true, encoding: .utf8)
    let failing = try ProcessRunner.run(swift, ["package", "--allow-writing-to-package-directory", "trackc", "lint"], currentDirectory: consumer)
    #expect(failing.status != 0)
    #expect(failing.standardOutput.contains("tracking.yaml:12:7: error:"), "\(failing.standardOutput)\(failing.standardError)")
  }
}
