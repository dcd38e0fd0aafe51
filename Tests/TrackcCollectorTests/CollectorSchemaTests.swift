import Foundation
import Testing
import TrackcCollector
import TrackcTestSupport

/// `Schemas/collector-batch.schema.json` describes the batch body: the sample bodies under
/// Tests/Fixtures/collector pass or fail it (Python's jsonschema, installed by `.ci/run`), and the
/// collector agrees: it accepts every valid sample without a violation, refuses each `refused-*`
/// sample, accepts each `flagged-*` one with a violation, and each `filled-*` one, which lacks what
/// Segment fills in, as Segment does (the collector takes whatever Segment takes, the schema says what
/// trackc sends).
@Suite(.requires(.jsonSchema)) struct CollectorSchemaTests {
  struct Report: Decodable {
    var schemaErrors: [String]
    var loadErrors: [String: String]
    var results: [String: [String]]
  }

  static let directory = Fixtures.directory.appendingPathComponent("collector")

  static func samples(_ folder: String) -> [URL] {
    let url = directory.appendingPathComponent(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted().map { url.appendingPathComponent($0) }
  }

  func validate(_ files: [URL]) throws -> Report {
    let root = Fixtures.repositoryRoot
    let output = try PythonEnvironment.run(
      PythonPackages.jsonSchema,
      [
        root.appendingPathComponent("Tests/Schema/validate_configs.py").path,
        root.appendingPathComponent("Schemas/collector-batch.schema.json").path,
      ] + files.map(\.path))
    try #require(output.status == 0, "validate_configs.py failed: \(output.standardError)")
    let report = try JSONDecoder().decode(Report.self, from: Data(output.standardOutput.utf8))
    #expect(report.loadErrors.isEmpty, "files the schema never saw: \(report.loadErrors)")
    return report
  }

  static var configuration: CollectorConfiguration {
    var configuration = CollectorConfiguration()
    configuration.plan = Batches.shopPlan
    return configuration
  }

  @Test func validSamplesPassTheSchemaAndTheCollector() throws {
    let valid = Self.samples("valid")
    #expect(valid.count >= 3)
    let report = try validate(valid)
    #expect(report.schemaErrors.isEmpty)
    for sample in valid {
      #expect(report.results[sample.path] == [], "\(sample.lastPathComponent): \(report.results[sample.path] ?? ["missing"])")
      let events = try Collector.readBatch([UInt8](Data(contentsOf: sample)), configuration: Self.configuration)
      #expect(events.allSatisfy { $0.violations.isEmpty }, "\(sample.lastPathComponent): \(events.flatMap(\.violations))")
    }
  }

  @Test func invalidSamplesFailTheSchemaAndTheCollectorRefusesOrFlagsThem() throws {
    let invalid = Self.samples("invalid")
    #expect(invalid.count >= 6)
    let report = try validate(invalid)
    for sample in invalid {
      let name = sample.lastPathComponent
      #expect(report.results[sample.path]?.isEmpty == false, "\(name) passes the schema")
      let body = [UInt8](try Data(contentsOf: sample))
      if name.hasPrefix("refused-") {
        #expect(throws: Rejection.self, "\(name)") { try Collector.readBatch(body, configuration: Self.configuration) }
      } else if name.hasPrefix("filled-") {
        let events = try Collector.readBatch(body, configuration: Self.configuration)
        #expect(events.count == 1 && events.allSatisfy { $0.violations.isEmpty }, "\(name)")
        #expect(events.allSatisfy { $0.messageID.count == 36 && $0.timestamp.count >= 20 }, "\(name): filled in")
      } else {
        #expect(name.hasPrefix("flagged-"), "\(name): name it refused-*, filled-* or flagged-*")
        let events = try Collector.readBatch(body, configuration: Self.configuration)
        #expect(!events.flatMap(\.violations).isEmpty, "\(name) is accepted without a violation")
      }
    }
  }

  /// What the tests send (the runtime's shape, built by `Batches`) is what the schema describes.
  @Test func testBatchesMatchTheSchema() throws {
    let scratch = try ScratchDirectory("collector-schema")
    defer { scratch.remove() }
    let path = try scratch.write(
      "batch.json", bytes: Batches.body([Batches.event("CTRL_HOME_FAVORITE"), Batches.event("PAGE_HOME_ENTER", destinations: ["mixpanel"])]))
    let report = try validate([URL(fileURLWithPath: path)])
    #expect(report.results[path] == [])
  }
}
