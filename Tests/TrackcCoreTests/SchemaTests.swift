import Foundation
import Testing
import TrackcCore
import TrackcTestSupport

/// `Schemas/trackc.schema.json` agrees with `trackc lint`: every example and valid fixture passes both,
/// every invalid fixture fails both. Validation runs Python's `jsonschema` (installed by `.ci/run`).
@Suite struct SchemaTests {
  struct Report: Decodable {
    var schemaErrors: [String]
    var results: [String: [String]]
  }

  static let valid = Fixtures.configs(in: "valid") + [Fixtures.repositoryRoot.appendingPathComponent("Examples/Shop/tracking.yaml")]
  static let invalid = Fixtures.configs(in: "invalid")

  func validate(_ configs: [URL]) throws -> Report {
    let root = Fixtures.repositoryRoot
    let output = try ProcessRunner.run(
      "/usr/bin/env",
      ["python3", root.appendingPathComponent("Tests/Schema/validate_configs.py").path, root.appendingPathComponent("Schemas/trackc.schema.json").path]
        + configs.map(\.path))
    try #require(output.status == 0, "validate_configs.py failed (is jsonschema installed? .ci/run installs it): \(output.standardError)")
    return try JSONDecoder().decode(Report.self, from: Data(output.standardOutput.utf8))
  }

  @Test func schemaIsAValidDraft202012Schema() throws {
    let report = try validate([])
    #expect(report.schemaErrors.isEmpty)
  }

  @Test func examplesAndValidFixturesPassTheSchemaAndLint() throws {
    let report = try validate(Self.valid)
    for config in Self.valid {
      #expect(report.results[config.path] == [], "\(config.lastPathComponent): \(report.results[config.path] ?? ["missing"])")
      #expect(try Fixtures.lint(config).diagnostics.isEmpty)
    }
  }

  @Test func invalidFixturesFailTheSchemaAndLint() throws {
    let report = try validate(Self.invalid)
    for config in Self.invalid {
      let errors = report.results[config.path] ?? []
      #expect(!errors.isEmpty, "\(config.lastPathComponent) passes the schema")
      #expect(try Fixtures.lint(config).diagnostics.hasErrors, "\(config.lastPathComponent) passes lint")
    }
  }
}
