import Foundation
import Testing
import TrackcTestSupport

/// `trackc collector` and a real Segment client library: Segment's Python client (`segment-analytics-python`,
/// in the tests' own Python environment) sends its batches, identify calls in the same batch as track
/// calls, to the binary, which records every call and checks the track and screen calls against the
/// Shop example's plan.
@Suite(.requires(.segmentClient)) struct CollectorInteroperabilityTests {
  static let script = #"""
    import json, sys
    import segment.analytics as analytics

    errors = []
    analytics.write_key = "shop-key"
    analytics.host = sys.argv[1]
    analytics.on_error = lambda error, items: errors.append(repr(error))
    analytics.max_retries = 0

    user = "user-42"
    analytics.identify(user, {"plan": "pro", "seats": 3})
    analytics.track(user, "CTRL_HOME_FAVORITE")
    analytics.track(user, "CTRL_HOME_BANNER", {"source": "home", "slot": "hero"})
    analytics.screen(user, name="HomeViewController", properties={"tab": "feed"})
    analytics.page(user, name="Pricing")
    analytics.group(user, "company-7", {"name": "Shop Inc."})
    analytics.alias("anonymous-1", user)
    analytics.track(user, "NOT_IN_PLAN", {"nested": {"a": 1}})
    analytics.track(anonymous_id="anonymous-2", event="CTRL_HOME_BANNER", properties={"source": 3})
    analytics.flush()
    analytics.shutdown()
    print(json.dumps({"errors": errors}))
    """#

  @Test func everyCallOfSegmentsPythonClientIsRecordedAndChecked() async throws {
    let python = try PythonEnvironment.with(PythonPackages.segmentClient).get()
    let scratch = try ScratchDirectory("collector-interop")
    defer { scratch.remove() }
    let output = scratch.url.appendingPathComponent("calls.ndjson").path
    let collector = try CollectorCommandTests.RunningCollector([
      "--config", "Examples/Shop/tracking.yaml", "--port", "0", "--write-key", "shop-key", "--output", output, "--quiet",
    ])
    let port = try collector.port()
    let script = try scratch.write("send.py", Self.script)
    let sent = try ProcessRunner.run(python.python, [script, "http://127.0.0.1:\(port)"])
    #expect(sent.status == 0, "\(sent.standardError)")
    #expect(sent.standardOutput.contains(#"{"errors": []}"#), "the client saw no error: \(sent.standardOutput) \(sent.standardError)")
    #expect(collector.interrupt() == 0)

    let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
    let calls = try lines.map { line in try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) }
    #expect(calls.map { $0["type"] as? String } == ["identify", "track", "track", "screen", "page", "group", "alias", "track", "track"])
    let sentCalls = calls.compactMap { $0["event"] as? [String: Any] }
    let libraries = sentCalls.map { (($0["context"] as? [String: Any])?["library"] as? [String: Any])?["name"] as? String }
    #expect(libraries.allSatisfy { $0 == "analytics-python" })
    #expect((sentCalls[0]["traits"] as? [String: Any])?["plan"] as? String == "pro", "the identify call and its traits")
    let violations = calls.map { call in ((call["violations"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String } }
    #expect(
      violations == [[], [], [], [], [], [], [], ["property-value", "unknown-event"], ["missing-property", "property-type"]],
      "checked against the plan, and never told that a client which knows nothing of trackc names no destination")
    #expect(collector.standardError.contains("9 calls accepted"), "\(collector.standardError)")
    #expect(collector.standardError.contains("refused") == false, "\(collector.standardError)")
  }
}
