import Foundation
import Testing
import TrackcCore
import TrackcTestSupport

/// `Schemas/trackc.schema.json` agrees with `trackc lint`: every example and valid fixture passes both,
/// every invalid fixture fails both. Validation runs Python's `jsonschema`, in the tests' own environment.
@Suite(.requires(.jsonSchema)) struct SchemaTests {
  struct Report: Decodable {
    var schemaErrors: [String]
    var loadErrors: [String: String]
    var results: [String: [String]]
  }

  static let valid = Fixtures.configs(in: "valid") + [Fixtures.repositoryRoot.appendingPathComponent("Examples/Shop/tracking.yaml")]
  static let invalid = Fixtures.configs(in: "invalid")

  static let appConfigs = Fixtures.configs(in: "app")

  func validate(_ configs: [URL], schema: String = "Schemas/trackc.schema.json") throws -> Report {
    let root = Fixtures.repositoryRoot
    let output = try PythonEnvironment.run(
      PythonPackages.jsonSchema,
      [root.appendingPathComponent("Tests/Schema/validate_configs.py").path, root.appendingPathComponent(schema).path] + configs.map(\.path))
    try #require(output.status == 0, "validate_configs.py failed: \(output.standardError)")
    let report = try JSONDecoder().decode(Report.self, from: Data(output.standardOutput.utf8))
    #expect(report.loadErrors.isEmpty, "files the schema never saw: \(report.loadErrors)")
    return report
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

  /// The fixture app's configs use every code-check setting (sources, interception, conventions); broken
  /// or not against the code, they are all well-formed.
  @Test func appConfigsPassTheSchema() throws {
    #expect(Self.appConfigs.count >= 5)
    let report = try validate(Self.appConfigs)
    for config in Self.appConfigs {
      #expect(report.results[config.path] == [], "\(config.lastPathComponent): \(report.results[config.path] ?? ["missing"])")
    }
  }

  /// What `trackc scan` writes is what `Schemas/handlers.schema.json` describes; a registry missing a
  /// field or with a wrong value is not.
  @Test func scannedRegistryMatchesItsSchema() throws {
    let scratch = try ScratchDirectory("schema")
    defer { scratch.remove() }
    let sources = Fixtures.directory.appendingPathComponent("app/Sources").path
    let registry = SourceScanner.scan(.paths([sources]), options: ScanOptions(useCache: false)).registry.json()
    let good = URL(fileURLWithPath: try scratch.write("handlers.json", registry))
    let missingKind = URL(fileURLWithPath: try scratch.write("missing.json", registry.replacingOccurrences(of: "\"kind\": \"class\",", with: "")))
    let badAccess = URL(
      fileURLWithPath: try scratch.write("access.json", registry.replacingOccurrences(of: "\"access\": \"private\"", with: "\"access\": \"secret\"")))
    // Subscripts, which the fixture's types have none of.
    let shelf = SourceScanner.scan(
      .files([
        (
          "Sources/App/Shelf.swift",
          "struct Shelf: Collection {\n  subscript(position: Int) -> String { \"\" }\n"
            + "  static subscript(key: String, fallback: Int) -> Int { 0 }\n}\n"
        )
      ]),
      options: ScanOptions(useCache: false)
    ).registry.json()
    #expect(shelf.contains("\"subscripts\""))
    let subscripts = URL(fileURLWithPath: try scratch.write("subscripts.json", shelf))
    let report = try validate([good, missingKind, badAccess, subscripts], schema: "Schemas/handlers.schema.json")
    #expect(report.schemaErrors.isEmpty)
    #expect(report.results[good.path] == [])
    #expect(report.results[subscripts.path] == [])
    #expect(report.results[missingKind.path]?.isEmpty == false)
    #expect(report.results[badAccess.path]?.isEmpty == false)
  }
}
