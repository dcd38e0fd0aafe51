import Foundation
import TrackcCollector
import TrackcCore
import TrackcTestSupport

/// Batch bodies as the runtime sends them (docs/wire-format.md), built with Foundation's JSON writer.
enum Batches {
  /// A track call as trackc sends it; `destinations` become `integrations` (nil: none, every destination).
  static func event(
    _ id: String, messageID: String = UUID().uuidString.lowercased(), destinations: [String]? = ["firebase"],
    properties: [String: Any] = [:], screen: String? = "HomeViewController", extra: [String: Any] = [:]
  ) -> [String: Any] {
    var trackc: [String: Any] = ["source": "control"]
    if let screen { trackc["screen"] = screen }
    var event: [String: Any] = [
      "type": "track", "event": id, "properties": properties, "messageId": messageID,
      "timestamp": "2026-11-23T10:00:00.123Z", "anonymousId": "3f2c5d1e-8a7b-4c6d-9e0f-112233445566",
      "context": ["library": ["name": "trackc", "version": "0.2.0"], "trackc": trackc],
    ]
    if let destinations {
      var integrations: [String: Any] = ["All": false]
      for name in destinations { integrations[name] = true }
      event["integrations"] = integrations
    }
    for (key, value) in extra { event[key] = value }
    return event
  }

  static func body(_ events: [[String: Any]]) -> [UInt8] {
    let object: [String: Any] = ["batch": events, "sentAt": "2026-11-23T10:00:01.000Z"]
    return [UInt8](try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
  }

  static func text(_ events: [[String: Any]]) -> String { String(decoding: body(events), as: UTF8.self) }

  /// gzip, by the system's gzip (the runtime gzips with zlib; any gzip stream will do).
  static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let scratch = try ScratchDirectory("gzip")
    defer { scratch.remove() }
    let path = try scratch.write("body", bytes: bytes)
    let output = try ProcessRunner.runBytes("/usr/bin/env", ["gzip", "-c", "-n", path])
    return output
  }

  /// A gzip stream of `count` zero bytes (a "gzip bomb" when `count` is large), made by Python's zlib.
  static func gzipOfZeros(_ count: Int) throws -> [UInt8] {
    try ProcessRunner.runBytes(
      "/usr/bin/env",
      ["python3", "-c", "import gzip, sys; sys.stdout.buffer.write(gzip.compress(bytes(\(count)), compresslevel=9))"])
  }

  /// The Shop example's plan (firebase and mixpanel; CTRL_HOME_BANNER goes to firebase only, with
  /// string properties source and slot).
  static let shopPlan: CollectorPlan = {
    let config = Fixtures.repositoryRoot.appendingPathComponent("Examples/Shop/tracking.yaml")
    return try! CollectorPlan(lintResult: Fixtures.lint(inPlace: config))
  }()

  /// A plan from YAML text (no sources).
  static func plan(_ yaml: String) throws -> CollectorPlan {
    try CollectorPlan(lintResult: Linter.lint(ConfigSource(path: "tracking.yaml", text: yaml)))
  }
}

extension ProcessRunner {
  /// Runs a program and returns what it wrote to standard output, as bytes.
  static func runBytes(_ executable: String, _ arguments: [String]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
    return [UInt8](data)
  }
}

/// Starts a collector for one test and stops it however the test ends.
func withCollector<Result>(
  _ configure: (inout CollectorConfiguration) -> Void = { _ in },
  _ body: (Collector) async throws -> Result
) async throws -> Result {
  var configuration = CollectorConfiguration()
  configuration.plan = Batches.shopPlan
  // A starved test process (the whole suite in parallel on two cores, beside a build) can sit longer
  // than the default 30 s between connecting and sending; only the idle test wants the timeout.
  configuration.limits.idleTimeoutSeconds = 600
  configure(&configuration)
  let collector = try await Collector.start(configuration)
  do {
    let result = try await body(collector)
    await collector.stop()
    return result
  } catch {
    await collector.stop()
    throw error
  }
}
