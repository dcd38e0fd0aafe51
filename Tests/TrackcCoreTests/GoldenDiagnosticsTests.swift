import Foundation
import Testing
import TrackcCore
import TrackcTestSupport

/// Lints every fixture and compares the rendered findings with the committed `.diagnostics.txt` beside it.
/// Re-record with `TRACKC_RECORD_GOLDENS=1 swift test` (the run fails while recording).
@Suite struct GoldenDiagnosticsTests {
  static let invalid = Fixtures.configs(in: "invalid")
  static let findings = Fixtures.configs(in: "findings")
  static let hostile = Fixtures.configs(in: "hostile")

  static func reference(for config: URL, suffix: String = "diagnostics.txt") -> URL {
    config.deletingPathExtension().appendingPathExtension(suffix)
  }

  @Test func fixtureFoldersAreNotEmpty() {
    #expect(Fixtures.configs(in: "valid").count >= 3)
    #expect(Self.invalid.count >= 10)
    #expect(Self.findings.count >= 5)
    #expect(Self.hostile.count >= 20)
  }

  @Test(arguments: invalid + findings)
  func findingsMatchGolden(config: URL) throws {
    let result = try Fixtures.lint(config)
    #expect(!result.diagnostics.isEmpty, "a fixture here must have findings")
    Golden.check(TextDiagnosticRenderer.render(result.diagnostics), matches: Self.reference(for: config))
  }

  @Test(arguments: invalid)
  func invalidFixturesHaveErrors(config: URL) throws {
    #expect(try Fixtures.lint(config).diagnostics.hasErrors)
  }

  /// Every hostile input gets at least one error with a real position, and nothing else happens.
  @Test(arguments: hostile)
  func hostileInputMatchesGolden(config: URL) throws {
    let result = try Fixtures.lint(config)
    let error = try #require(result.diagnostics.first { $0.severity == .error })
    #expect(error.location.line >= 1 && error.location.column >= 1)
    Golden.check(TextDiagnosticRenderer.render(result.diagnostics), matches: Self.reference(for: config))
  }

  @Test(arguments: HostileCorpus.generated.map(\.name))
  func generatedHostileInputMatchesGolden(name: String) throws {
    let input = try #require(HostileCorpus.generated.first { $0.name == name })
    let result = Linter.lint(ConfigSource(path: "hostile/\(name).yaml", bytes: input.make()))
    #expect(result.diagnostics.hasErrors)
    let reference = Fixtures.directory.appendingPathComponent("hostile/\(name).diagnostics.txt")
    Golden.check(TextDiagnosticRenderer.render(result.diagnostics), matches: reference)
  }

  @Test(arguments: Fixtures.configs(in: "valid") + [Fixtures.repositoryRoot.appendingPathComponent("Examples/Shop/tracking.yaml")])
  func validConfigsAreClean(config: URL) throws {
    let result = try Fixtures.lint(config)
    #expect(result.diagnostics.isEmpty, "\(TextDiagnosticRenderer.render(result.diagnostics))")
  }

  @Test(arguments: DiagnosticFormat.allCases)
  func formatsMatchGolden(format: DiagnosticFormat) throws {
    let config = Fixtures.directory.appendingPathComponent("findings/broken-config.yaml")
    let result = try Fixtures.lint(config)
    let suffix = format == .text ? "txt" : format.rawValue
    Golden.check(
      format.render(result.diagnostics, toolVersion: "0.0.0-test"),
      matches: Self.reference(for: config, suffix: "formatted.\(suffix)"))
  }
}
