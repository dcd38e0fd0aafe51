import Foundation
import Testing
import TrackcTestSupport

@testable import TrackcCollector

/// The laws the `collector-request` fuzz target checks (`CollectorRequestFuzzing`), held on bodies made
/// by hand and on every input a fuzzer once broke one with (`Tests/Fixtures/fuzz/collector-request/`).
@Suite struct CollectorRequestFuzzingTests {
  static func regressions() -> [URL] {
    let folder = Fixtures.directory.appendingPathComponent("fuzz/collector-request")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().map { folder.appendingPathComponent($0) }
  }

  @Test(.timeLimit(.minutes(TimeLimits.minutes(1))), arguments: regressions())
  func regression(input: URL) throws {
    #expect(CollectorRequestFuzzing.violations([UInt8](try Data(contentsOf: input))) == [])
  }

  static let event =
    #"{"type":"track","event":"CTRL_HOME_FAV","messageId":"m1","timestamp":"2026-01-01T00:00:00Z","anonymousId":"a","properties":{"source":"home"}}"#

  @Test(arguments: [
    #"{"batch":[\#(event)]}"#, #"{"batch":[\#(event),\#(event)]}"#, #"{"batch":[]}"#, #"{"batch":[{"type":"identify"}]}"#,
    #"{"batch":[{"type":"track","event":"E","messageId":"m","timestamp":"2026-01-01T00:00:00Z","userId":"u","properties":{"p":"\#(String(repeating: "x", count: 3000))"}}]}"#,
    "[1, 2]", "not JSON", #"{"batch": 1e999}"#, String(repeating: "[", count: 70) + String(repeating: "]", count: 70),
  ])
  func lawsHoldOnBodies(body: String) {
    #expect(CollectorRequestFuzzing.violations(Array(body.utf8)) == [])
  }

  /// The laws are not vacuous: they hold trivially for a refused batch, so the collector they are checked
  /// on must accept a good one and count its events, and a message ID sent twice in one batch as a
  /// duplicate.
  @Test func anAcceptedBatchIsCounted() throws {
    let one = Array(#"{"batch":[\#(Self.event)]}"#.utf8)
    #expect(CollectorRequestFuzzing.batchViolations(one) == [])
    let core = try CollectorRequestFuzzing.makeCore()
    let answer = core.acceptBatch(one, request: "POST /v1/batch")
    #expect(answer.status == 200, "\(answer.body)")
    #expect(core.statistics.acceptedEvents == 1 && core.statistics.duplicates == 0 && core.received.map(\.messageID) == ["m1"])
    let twice = Array(#"{"batch":[\#(Self.event),\#(Self.event)]}"#.utf8)
    #expect(CollectorRequestFuzzing.batchViolations(twice) == [])
    let again = try CollectorRequestFuzzing.makeCore()
    #expect(again.acceptBatch(twice, request: "POST /v1/batch").status == 200)
    #expect(again.statistics.acceptedEvents == 1 && again.statistics.duplicates == 1)
    #expect(CollectorRequestFuzzing.jsonViolations(Array("[1, 2.5, \"\\u00e9\", {\"a\": null}]".utf8)) == [])
  }
}
