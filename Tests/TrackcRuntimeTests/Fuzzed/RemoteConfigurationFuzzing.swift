// Shared with the `remote-config` fuzz target (Fuzz/Sources/fuzz-remote-config links this file):
// self-contained, TrackcRuntime and Foundation only. `@testable` for the one wait on the cache read
// (`RemoteDestinationConfiguration.waitUntil`): the tests and the fuzz build both compile the runtime
// for testing.
import Foundation

@_spi(Generated) @testable import TrackcRuntime

/// The remote configuration document (`RemoteDestinationConfiguration`), fed arbitrary bytes the way an
/// app receives them: fetched (from a file URL, the same path as a response body) after a good document,
/// then read back from the cache by the next process.
///
/// Laws: never a trap; a document that is not the agreed shape is refused and counted, and the previous
/// document stays in force (and in the cache); one that is accepted is in force, answers as it says
/// (sampling rates are products of rates in 0...1), is cached byte for byte, and the next process reads
/// the same document back from the cache.
public enum RemoteConfigurationFuzzing {
  /// The document in force before the fuzzed one arrives. (Made afresh each time: a `Data` kept in a
  /// global holds its storage through a pointer whose spare bits tag the enum case, which LeakSanitizer
  /// does not recognise, and reports as a leak.)
  static var previous: Data {
    Data(
      #"{"version": 1, "destinations": {"firebase": {"enabled": false}, "mixpanel": {"sampling": 0.5}}, "events": {"E": {"sampling": 0.25}}}"#.utf8)
  }

  public static func violations(_ bytes: [UInt8]) -> [String] {
    let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("trackc-remote-fuzz-" + UUID().uuidString)
    do {
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
    } catch {
      return ["cannot make a temporary directory: \(error)"]
    }
    defer { try? FileManager.default.removeItem(at: root) }
    do {
      return try check(Data(bytes), in: root)
    } catch {
      return ["cannot write the documents: \(error)"]
    }
  }

  static func check(_ data: Data, in root: URL) throws -> [String] {
    var violations: [String] = []
    let served = root.appendingPathComponent("config.json")
    let cache = root.appendingPathComponent("cache.json")
    let configuration = RemoteDestinationConfiguration(url: served, cacheFile: cache)
    try previous.write(to: served)
    guard refresh(configuration), let before = configuration.current else { return ["the previous, good document was not applied"] }

    try data.write(to: served)
    let applied = refresh(configuration)
    let parsed = RemoteDestinationConfiguration.parse(data)
    let statistics = configuration.statistics
    let cached = try? Data(contentsOf: cache)
    guard let parsed else {
      if applied { violations.append("a document parse refuses was applied") }
      if configuration.current != before { violations.append("a refused document changed the configuration in force") }
      if statistics.badDocuments != 1 || statistics.applied != 1 { violations.append("a refused document was not counted: \(statistics)") }
      if cached != previous { violations.append("a refused document replaced the cached one") }
      return violations
    }
    if !applied || configuration.current != parsed || statistics.applied != 2 || statistics.badDocuments != 0 {
      violations.append("an accepted document was not applied: \(statistics)")
    }
    if cached != data { violations.append("an accepted document was not cached as it came") }
    violations += answerViolations(configuration, parsed)

    // The next process reads the cache in the background.
    let next = RemoteDestinationConfiguration(url: served, cacheFile: cache)
    // (The document in the cache is one `parse` accepted: reading it back applies it, or counts it bad.)
    if !next.waitUntil(timeout: 10, { $0.applied + $0.badDocuments > 0 }) {
      violations.append("the cached document was not read back in 10 s: \(next.statistics)")
    }
    if next.current != parsed { violations.append("the cached document reads back as \(String(describing: next.current)), not \(parsed)") }
    return violations
  }

  /// Fetches the document, waiting for the answer; whether a new one was applied.
  static func refresh(_ configuration: RemoteDestinationConfiguration) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let result = Result()
    configuration.refresh { applied in
      result.applied = applied
      done.signal()
    }
    done.wait()
    return result.applied
  }

  final class Result: @unchecked Sendable {
    var applied = false
  }

  /// The tracking path's answers agree with the document.
  static func answerViolations(_ configuration: RemoteDestinationConfiguration, _ document: RemoteDestinationConfiguration.Document) -> [String] {
    var violations: [String] = []
    if document.version < 1 { violations.append("version \(document.version) accepted") }
    let events = Array(document.eventSampling.keys.prefix(4)) + ["NOT_NAMED"]
    for (id, destination) in document.destinations.prefix(8) {
      if configuration.isEnabled(id) != destination.enabled { violations.append("\(id.debugDescription): enabled is not what the document says") }
      for event in events {
        let rate = configuration.samplingRate(eventID: event, destinationID: id)
        let expected = destination.sampling * (document.eventSampling[event] ?? 1)
        if !(0...1).contains(rate) || rate != expected {
          violations.append("\(id.debugDescription), \(event.debugDescription): sampling \(rate), expected \(expected)")
        }
      }
    }
    if !configuration.isEnabled("not named") { violations.append("a destination the document does not name is not enabled (the fallback)") }
    return violations
  }
}
