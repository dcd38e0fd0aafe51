import Foundation
import Testing
import TrackcTestSupport

/// `trackc generate` as CI and a developer use it: files written only when they change, `--check` that
/// fails on anything stale, and nothing generated from a config with errors.
@Suite struct GenerateCommandTests {
  static let config = "Tests/GenerateFixtures/tracking.yaml"
  static let committed = "Tests/GenerateFixtures/Sources/GenerateFixtureTracking"

  @Test func committedFixtureIsUpToDate() throws {
    let run = try TrackcBinary.run("generate", Self.config, "--output", Self.committed, "--name", "FixtureTracking", "--check", "--no-cache")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
  }

  @Test func writesOnlyWhatChangedAndRemovesWhatIsNoLongerGenerated() throws {
    let scratch = try ScratchDirectory("generate")
    defer { scratch.remove() }
    let first = try TrackcBinary.run("generate", Self.config, "-o", scratch.path, "--name", "FixtureTracking", "--no-cache")
    #expect(first.status == 0, "\(first.standardError)")
    #expect(first.standardError == "trackc: 5 files generated, 5 changed\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == [
        "FixtureTracking+GenerateFixtureFeature.swift", "FixtureTracking+Routes.swift", "FixtureTracking+SwiftUI.swift", "FixtureTracking.swift",
        "PrivacyInfo.xcprivacy",
      ])
    #expect(try scratch.read("FixtureTracking.swift") == (try String(contentsOfFile: Self.committed + "/FixtureTracking.swift", encoding: .utf8)))
    let registry = scratch.path + "/FixtureTracking.swift"
    let written = try FileIdentity(registry)
    try scratch.write("FixtureTracking+Removed.swift", "// an interceptor file for a module the config no longer maps\n")
    try scratch.write("Helpers.swift", "// not trackc's\n")
    let second = try TrackcBinary.run("generate", Self.config, "-o", scratch.path, "--name", "FixtureTracking", "--no-cache")
    #expect(second.standardError == "trackc: 5 files generated, 1 changed\n")
    #expect(try FileIdentity(registry) == written, "rewritten though unchanged")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == [
        "FixtureTracking+GenerateFixtureFeature.swift", "FixtureTracking+Routes.swift", "FixtureTracking+SwiftUI.swift", "FixtureTracking.swift",
        "Helpers.swift", "PrivacyInfo.xcprivacy",
      ])
  }

  /// The plan's privacy manifest goes beside the code when the plan does not say where; a manifest there
  /// that trackc did not write (the app's own) is never overwritten: the run fails and says why.
  @Test func thePrivacyManifestGoesBesideTheCodeButNeverOverAManifestByHand() throws {
    let scratch = try ScratchDirectory("generate-manifest")
    defer { scratch.remove() }
    let written = try TrackcBinary.run("generate", Self.config, "-o", scratch.path, "--name", "FixtureTracking", "--no-cache")
    #expect(written.status == 0, "\(written.standardError)")
    #expect(
      try scratch.read("PrivacyInfo.xcprivacy")
        == (try String(contentsOfFile: Self.committed + "/PrivacyInfo.xcprivacy", encoding: .utf8)))
    let own = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n"
    try scratch.write("PrivacyInfo.xcprivacy", own)
    let refused = try TrackcBinary.run("generate", Self.config, "-o", scratch.path, "--name", "FixtureTracking", "--no-cache")
    #expect(refused.status != 0)
    #expect(refused.standardError.contains("PrivacyInfo.xcprivacy was not written by trackc; set 'privacy.manifest'"), "\(refused.standardError)")
    #expect(try scratch.read("PrivacyInfo.xcprivacy") == own)
  }

  /// The SwiftUI screens' file goes to a module the views import when `--swiftui-output` says so: out of
  /// the main directory (a stale copy there is removed), checked there by `--check`, and nothing else of
  /// that directory is touched.
  @Test func theSwiftUIFileGoesWhereTheViewsCanImportIt() throws {
    let scratch = try ScratchDirectory("generate-swiftui")
    defer { scratch.remove() }
    func generate(_ extra: String...) throws -> ProcessOutput {
      try TrackcBinary.run(
        [
          "generate", Self.config, "-o", scratch.path + "/Tracking", "--swiftui-output", scratch.path + "/Screens", "--name", "FixtureTracking",
          "--no-cache",
        ]
          + extra)
    }
    try scratch.write("Tracking/FixtureTracking+SwiftUI.swift", "// left from a run without --swiftui-output\n")
    try scratch.write("Screens/Views.swift", "// the views' own code\n")
    #expect(try generate("--check").status == 1)
    let run = try generate()
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/Screens").sorted() == ["FixtureTracking+SwiftUI.swift", "Views.swift"])
    #expect(!(try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/Tracking")).contains("FixtureTracking+SwiftUI.swift"))
    #expect(
      try scratch.read("Screens/FixtureTracking+SwiftUI.swift")
        == (try String(contentsOfFile: Self.committed + "/FixtureTracking+SwiftUI.swift", encoding: .utf8)))
    #expect(try generate("--check").status == 0)
  }

  /// The apple-app-site-association file and the Android manifest are written where `links` says,
  /// relative to the config (folders made as needed), and `--check` fails when either is stale.
  @Test func platformFilesAreWrittenAndChecked() throws {
    let scratch = try ScratchDirectory("generate-platform")
    defer { scratch.remove() }
    let config = try scratch.write(
      "tracking.yaml",
      """
      version: 1
      screens:
        Product: {page_events: {enter: PRODUCT_ENTER}}
      links:
        hosts: [shop.example.com]
        apple: {app_ids: [ABCDE12345.com.example.shop], site_association: web/.well-known/apple-app-site-association}
        android: {manifest: android/AndroidManifest.xml}
      entry_points:
        product: {screen: Product, links: ["/product/{id:int}"]}
      """)
    func generate(_ extra: String...) throws -> ProcessOutput {
      try TrackcBinary.run(["generate", config, "-o", scratch.path + "/Sources", "--no-cache"] + extra)
    }
    let missing = try generate("--check")
    #expect(missing.status == 1)
    #expect(missing.standardError.contains("apple-app-site-association is missing"))
    #expect(missing.standardError.contains("AndroidManifest.xml is missing"))
    let written = try generate()
    #expect(written.status == 0, "\(written.standardError)")
    #expect(try scratch.read("web/.well-known/apple-app-site-association").contains("\"/\" : \"/product/*\""))
    #expect(try scratch.read("android/AndroidManifest.xml").contains("android:pathPattern=\"/product/.*\""))
    #expect(try generate("--check").status == 0)
    _ = try scratch.write("web/.well-known/apple-app-site-association", "{}\n")
    let stale = try generate("--check")
    #expect(stale.status == 1)
    #expect(stale.standardError.contains("apple-app-site-association is out of date"))
  }

  @Test func checkFailsOnAnythingStale() throws {
    let scratch = try ScratchDirectory("generate-check")
    defer { scratch.remove() }
    func check() throws -> ProcessOutput {
      try TrackcBinary.run("generate", Self.config, "-o", scratch.path, "--name", "FixtureTracking", "--check", "--no-cache")
    }
    let missing = try check()
    #expect(missing.status == 1)
    #expect(missing.standardError.contains("FixtureTracking.swift is missing"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "--check writes nothing")
    #expect(try TrackcBinary.run("generate", Self.config, "-o", scratch.path, "--name", "FixtureTracking", "--no-cache").status == 0)
    #expect(try check().status == 0)
    try scratch.write("FixtureTracking.swift", try scratch.read("FixtureTracking.swift") + "// edited by hand\n")
    let edited = try check()
    #expect(edited.status == 1)
    #expect(edited.standardError.contains("FixtureTracking.swift is out of date"))
    #expect(try TrackcBinary.run("generate", Self.config, "-o", scratch.path, "--name", "FixtureTracking", "--no-cache").status == 0)
    try scratch.write("FixtureTracking+Old.swift", "\n")
    let stale = try check()
    #expect(stale.status == 1)
    #expect(stale.standardError.contains("FixtureTracking+Old.swift is no longer generated"))
  }

  @Test func configWithErrorsGeneratesNothing() throws {
    let scratch = try ScratchDirectory("generate-errors")
    defer { scratch.remove() }
    let run = try TrackcBinary.run("generate", "Tests/Fixtures/app/config-to-code.yaml", "-o", scratch.path, "--no-cache")
    #expect(run.status == 1)
    #expect(run.standardOutput.contains("[unknown-handler]"))
    #expect(run.standardError.contains("nothing was generated"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
  }

  @Test func usageErrors() throws {
    #expect(try TrackcBinary.run("generate", Self.config, "-o", "/tmp", "--name", "not an identifier").status == 64)
    #expect(try TrackcBinary.run("generate", Self.config).status == 64)
    #expect(try TrackcBinary.run("generate", "Tests/nowhere.yaml", "-o", "/tmp").status == 66)
  }
}
