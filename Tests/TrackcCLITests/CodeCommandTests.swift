import Foundation
import Testing
import TrackcTestSupport

/// `trackc scan`, `trackc init` and `trackc lint --sources/--handlers` as a team uses them, on the
/// fixture app in `Tests/Fixtures/app`.
@Suite struct CodeCommandTests {
  static let appSources = "Tests/Fixtures/app/Sources"

  @Test func scanWritesTheSameRegistryEveryTimeAndOnlyWhenItChanges() throws {
    let scratch = try ScratchDirectory("cli-scan")
    defer { scratch.remove() }
    let output = scratch.path + "/handlers.json"
    let first = try TrackcBinary.run("scan", Self.appSources, "--output", output, "--cache-dir", scratch.path + "/cache")
    #expect(first.status == 0, "\(first.standardError)")
    #expect(first.standardOutput.isEmpty)
    #expect(first.standardError == "trackc: 12 files, 14 types, 35 methods (0 files from the cache)\n")
    let written = try FileIdentity(output)
    let second = try TrackcBinary.run("scan", Self.appSources, "--output", output, "--cache-dir", scratch.path + "/cache")
    #expect(second.standardError == "trackc: 12 files, 14 types, 35 methods (12 files from the cache)\n")
    #expect(try FileIdentity(output) == written, "rewritten though unchanged")
    let toStandardOutput = try TrackcBinary.run("scan", Self.appSources, "--no-cache")
    #expect(toStandardOutput.standardOutput == (try scratch.read("handlers.json")))
    #expect(toStandardOutput.standardOutput.contains("\"objcSelector\": \"openProductWithID:\""))
  }

  @Test func scanOfAMissingPathExits66() throws {
    let output = try TrackcBinary.run("scan", "Tests/Fixtures/app/Sourcez", "--no-cache")
    #expect(output.status == 66)
    #expect(output.standardError.contains("cannot read 'Tests/Fixtures/app/Sourcez'"))
    #expect(try TrackcBinary.run("lint", "Tests/Fixtures/app/tracking.yaml", "--sources", "nowhere").status == 66)
    #expect(try TrackcBinary.run("lint", "Tests/Fixtures/app/tracking.yaml", "--handlers", "nowhere.json").status == 66)
    #expect(try TrackcBinary.run("scan").status == 64)
  }

  @Test func lintReadsARegistryInsteadOfScanning() throws {
    let scratch = try ScratchDirectory("cli-handlers")
    defer { scratch.remove() }
    let registry = scratch.path + "/handlers.json"
    #expect(try TrackcBinary.run("scan", Self.appSources, "-o", registry, "--no-cache").status == 0)
    let fromRegistry = try TrackcBinary.run("lint", "Tests/Fixtures/app/config-to-code.yaml", "--handlers", registry)
    let fromSources = try TrackcBinary.run("lint", "Tests/Fixtures/app/config-to-code.yaml", "--no-cache")
    #expect(fromRegistry.status == 1)
    #expect(fromRegistry.standardOutput == fromSources.standardOutput)
    #expect(try TrackcBinary.run("lint", "Tests/Fixtures/app/tracking.yaml", "--handlers", registry).status == 0)
    let both = try TrackcBinary.run("lint", "Tests/Fixtures/app/tracking.yaml", "--handlers", registry, "--sources", Self.appSources)
    #expect(both.status == 64)
  }

  @Test func findingsInTheCodePointAtTheSwiftDeclaration() throws {
    let output = try TrackcBinary.run("lint", "Tests/Fixtures/app/code-to-config.yaml", "--no-cache")
    #expect(output.status == 1)
    #expect(
      output.standardOutput.contains(
        "Tests/Fixtures/app/Sources/Settings/SettingsViewController.swift:4:14: error: handler 'onLogoutPressed_UA(_:)' of 'SettingsViewController' is marked for tracking (its name ends in '_UA') but no screen maps it [untracked-handler]\n"
      ))
  }

  /// The design's original failure, end to end: a clean app, a handler renamed in a feature, the commit
  /// hook's lint fails at the config line with the new name suggested; `--sources` wins over the config's.
  @Test func renamedHandlerFailsTheHook() throws {
    let scratch = try ScratchDirectory("cli-rename")
    defer { scratch.remove() }
    try scratch.copy(Fixtures.directory.appendingPathComponent("app"), to: "app")
    let config = scratch.path + "/app/tracking.yaml"
    let cache = scratch.path + "/cache"
    #expect(try TrackcBinary.run("lint", config, "--cache-dir", cache).status == 0)
    let file = "app/Sources/Home/HomeViewController.swift"
    try scratch.write(file, try scratch.read(file).replacingOccurrences(of: "func onFavBtnPressed(", with: "func onMyFavBtnPressed("))
    let output = try TrackcBinary.run("lint", config, "--cache-dir", cache)
    #expect(output.status == 1)
    #expect(
      output.standardOutput.hasPrefix(
        "\(config):15:7: error: 'HomeViewController' has no handler 'onFavBtnPressed(_:)'; did you mean 'onMyFavBtnPressed(_:)'? [unknown-handler]\n")
    )
    // The unchanged copy in the repository, given with --sources, passes again.
    #expect(try TrackcBinary.run("lint", config, "--sources", Self.appSources, "--no-cache").status == 0)
  }

  @Test func initWritesAConfigThatPassesLint() throws {
    let scratch = try ScratchDirectory("cli-init")
    defer { scratch.remove() }
    try scratch.copy(Fixtures.directory.appendingPathComponent("app/Sources"), to: "Sources")
    let written = try TrackcBinary.run("init", "--sources", "Sources", "--output", "config/tracking.yaml", "--no-cache", in: scratch.url)
    #expect(written.status == 0, "\(written.standardError)")
    #expect(
      written.standardError
        == "trackc: wrote config/tracking.yaml from 12 Swift files: 7 screens (7 view controllers (0 hosting), 0 SwiftUI screens (0 hosted), 0 view models), 31 handlers to consider\n"
    )
    let text = try scratch.read("config/tracking.yaml")
    #expect(text.contains("sources: ['../Sources']"))
    #expect(text.contains("  Settings.ProfileViewController:  # view controller\n"))
    #expect(text.contains("    #   onBannerTapped(_:): CTRL_HOME_ON_BANNER_TAPPED\n"))
    #expect(!text.contains("viewDidAppear"), "framework overrides are not handlers")
    #expect(try TrackcBinary.run("lint", "config/tracking.yaml", "--no-cache", in: scratch.url).status == 0)
    // Every suggested handler switched on still passes.
    let everything = text.replacingOccurrences(of: "    # control_events:", with: "    control_events:")
      .replacingOccurrences(of: "    #   ", with: "      ")
    try scratch.write("config/everything.yaml", everything)
    let lint = try TrackcBinary.run("lint", "config/everything.yaml", "--no-cache", in: scratch.url)
    #expect(lint.status == 0, "\(lint.standardOutput)")
    // An existing config is kept unless --force.
    let again = try TrackcBinary.run("init", "--sources", "Sources", "--output", "config/tracking.yaml", "--no-cache", in: scratch.url)
    #expect(again.status == 73)
    #expect(again.standardError.contains("use --force"))
    #expect(try TrackcBinary.run("init", "--sources", "Sources", "-o", "config/tracking.yaml", "--force", "--no-cache", in: scratch.url).status == 0)
  }

  /// The bundled example is checked against its own feature sources: clean as shipped, caught when a
  /// handler is renamed or a screen is added without being tracked.
  @Test func exampleIsCheckedAgainstItsSources() throws {
    let clean = try TrackcBinary.run("lint", "Examples/Shop/tracking.yaml", "--no-cache")
    #expect(clean.status == 0)
    #expect(clean.standardOutput.isEmpty)
    let scratch = try ScratchDirectory("cli-example")
    defer { scratch.remove() }
    // The config and the sources only (not the example package's build directory).
    try scratch.copy(Fixtures.repositoryRoot.appendingPathComponent("Examples/Shop/tracking.yaml"), to: "Shop/tracking.yaml")
    try scratch.copy(Fixtures.repositoryRoot.appendingPathComponent("Examples/Shop/Sources"), to: "Shop/Sources")
    let file = "Shop/Sources/Cart/CartViewController.swift"
    try scratch.write(file, try scratch.read(file).replacingOccurrences(of: "func onCheckoutPressed(", with: "func onCheckoutTapped("))
    try scratch.write("Shop/Sources/Home/WishlistViewController.swift", "import ShopUI\n\nopen class WishlistViewController: ScreenController {}\n")
    let broken = try TrackcBinary.run("lint", "Shop/tracking.yaml", "--no-cache", in: scratch.url)
    #expect(broken.status == 1)
    let lines = broken.standardOutput.split(separator: "\n").filter { !$0.contains(": note: ") }
    #expect(
      lines == [
        "Shop/Sources/Home/WishlistViewController.swift:3:12: error: 'WishlistViewController' is a ScreenController but no screen lists it; add it to 'screens' [unmapped-screen]",
        "Shop/tracking.yaml:103:7: error: 'CartViewController' has no handler 'onCheckoutPressed(_:)'; did you mean 'onCheckoutTapped(_:)'? [unknown-handler]",
      ], "\(broken.standardOutput)")
  }
}
