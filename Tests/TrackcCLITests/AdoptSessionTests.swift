import Foundation
import Testing
import TrackcTestSupport

/// Adoption changes nothing on the wire: an app that tracks with an SDK's calls (Tests/AdoptFixtures/
/// Storefront, its SDK a stand-in for analytics-swift) runs a scripted session against `trackc collector`;
/// then `trackc adopt --fix` writes its plan and takes the mapped calls out, `trackc generate` writes the
/// tracking module, and the same session, rebuilt, delivers the same events (names, properties, order):
/// six now from trackc's interceptors, four from the calls adopt left in the code.
@Suite(.serialized) struct AdoptSessionTests {
  /// What the collector received, as the comparison reads it: type, name, properties (keys sorted).
  struct Received: Equatable, CustomStringConvertible {
    var type: String
    var name: String
    var properties: String
    /// The event ID when trackc's interceptors sent it (`context.trackc.event`); nil for the SDK's calls.
    var trackcEvent: String?

    var description: String { "\(type) \(name) \(properties)" + (trackcEvent.map { " [\($0)]" } ?? "") }
    var wire: String { "\(type) \(name) \(properties)" }
  }

  static let fixture = Fixtures.repositoryRoot.appendingPathComponent("Tests/AdoptFixtures/Storefront")
  /// A build folder per phase, kept from run to run (TrackcRuntime, built once, is most of the build):
  /// before adoption nothing of the tracking module may be found (the session imports it when it can).
  static func buildFolder(_ phase: String) -> URL { Fixtures.repositoryRoot.appendingPathComponent(".build/adopt-session/\(phase)") }
  static let writeKey = "storefront-ios"

  /// The fixture, copied: its dependency on this repository by absolute path, and a line saying which
  /// phase it is in, so that SwiftPM reads the manifest again when the tracking module appears.
  static func copyApp(to scratch: ScratchDirectory) throws -> URL {
    try scratch.copy(fixture, to: "Storefront")
    let app = scratch.url.appendingPathComponent("Storefront")
    try writeManifest(in: app, phase: "before")
    return app
  }

  static func writeManifest(in app: URL, phase: String) throws {
    let manifest = try String(contentsOf: fixture.appendingPathComponent("Package.swift"), encoding: .utf8)
    let root = Fixtures.repositoryRoot.path
    let written = manifest.replacingOccurrences(of: #"path: "../../..""#, with: "path: \"\(root)\"") + "// phase: \(phase)\n"
    try written.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
  }

  static func build(_ app: URL, phase: String) throws {
    let built = try ProcessRunner.run(
      "/usr/bin/env", ["swift", "build", "--package-path", app.path, "--scratch-path", buildFolder(phase).path, "--product", "StoreSession"])
    guard built.status == 0 else { throw Failure(message: "the session did not build:\n\(built.standardOutput)\n\(built.standardError)") }
  }

  /// Runs the session against a collector of its own; what the collector received, in order.
  static func runSession(_ phase: String) throws -> [Received] {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("trackc-adopt-session-\(UUID().uuidString).ndjson")
    defer { try? FileManager.default.removeItem(at: output) }
    let collector = try CollectorCommandTests.RunningCollector(["--port", "0", "--write-key", writeKey, "--output", output.path, "--quiet"])
    let port = try collector.port()
    let session = try ProcessRunner.run(buildFolder(phase).appendingPathComponent("debug/StoreSession").path, ["http://127.0.0.1:\(port)"])
    let stopped = collector.interrupt()
    guard session.status == 0 else { throw Failure(message: "the session failed: \(session.standardOutput)\n\(session.standardError)") }
    guard stopped == 0 else { throw Failure(message: "the collector exited with \(stopped): \(collector.standardError)") }
    let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
    return try lines.map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      guard let event = object?["event"] as? [String: Any], let type = event["type"] as? String else {
        throw Failure(message: "not a call: \(line)")
      }
      let properties = try JSONSerialization.data(withJSONObject: event["properties"] ?? [:], options: [.sortedKeys])
      let trackc = (event["context"] as? [String: Any])?["trackc"] as? [String: Any]
      return Received(
        type: type, name: (event["event"] ?? event["name"]) as? String ?? "?", properties: String(decoding: properties, as: UTF8.self),
        trackcEvent: trackc?["event"] as? String)
    }
  }

  /// Runs `body` on a thread of its own: the builds and the sessions take a minute, and a test blocking one
  /// of the few threads Swift Testing runs the tests on starves the others of their time limits.
  static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try body() }) }.start()
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  @Test(.timeLimit(.minutes(TimeLimits.minutes(20))))
  func theSameEventsReachTheCollectorBeforeAndAfterAdoption() async throws {
    let scratch = try ScratchDirectory("adopt-session")
    defer { scratch.remove() }
    let app = try Self.copyApp(to: scratch)
    let originalSources = try sources(of: app)

    // Before: the SDK's calls, each step delivered before the next.
    let before = try await Self.offThePool {
      try Self.build(app, phase: "before")
      return try Self.runSession("before")
    }
    #expect(
      before.map(\.wire) == [
        #"screen Catalog {"category":"shoes"}"#,
        #"track Category Selected {"category":"boots","source":"catalog"}"#,
        #"track Product Added {"product_id":"sku-1"}"#,
        #"track Product Added {"product_id":"sku-2"}"#,
        "track Catalog Shared {}",
        #"track Cart Viewed {"items":2}"#,
        #"track Coupon Applied {"code":"SAVE10"}"#,
        #"track Product Removed {"product_id":"sku-1"}"#,
        #"track Checkout Started {"currency":"EUR","total":24.5}"#,
        "track Cart Left {}",
      ])
    #expect(before.allSatisfy { $0.trackcEvent == nil })

    // Adoption: the plan, the mapped calls taken out, the tracking module generated.
    let adopt = try await Self.offThePool {
      try TrackcBinary.run(
        [
          "adopt", "--sources", "Sources/StoreUI", "Sources/Storefront", "--base", "ScreenController", "--interception", "dynamic-replacement",
          "--fix", "--no-cache",
        ], in: app)
    }
    #expect(adopt.status == 0, "\(adopt.standardOutput)\n\(adopt.standardError)")
    #expect(adopt.standardError.contains("found 9 calls in 3 files: 6 mapped to events, 3 left"))
    #expect(adopt.standardError.contains("trackc: took 6 mapped calls out of 2 files"))
    let lint = try TrackcBinary.run(["lint", "tracking.yaml", "--strict", "--no-cache"], in: app)
    #expect(lint.status == 0, "\(lint.standardOutput)")
    let generate = try TrackcBinary.run(["generate", "tracking.yaml", "--output", "Sources/StoreTracking"], in: app)
    #expect(generate.status == 0, "\(generate.standardError)")
    // Only the mapped calls' lines went (every other line is there, in order); the three calls adopt left stay.
    let adopted = try sources(of: app)
    #expect(Set(adopted.keys) == Set(originalSources.keys))
    var removed: [String] = []
    for (file, text) in originalSources {
      var kept = (adopted[file] ?? "").split(separator: "\n", omittingEmptySubsequences: false)[...]
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if kept.first == line { kept = kept.dropFirst() } else { removed.append(line.trimmingCharacters(in: .whitespaces)) }
      }
      #expect(kept.isEmpty, "\(file) gained lines: \(kept)")
    }
    #expect(
      removed.sorted() == [
        #"analytics.screen(title: "Catalog", properties: ["category": category])"#,
        #"analytics.track(name: "Cart Left")"#,
        #"analytics.track(name: "Cart Viewed", properties: ["items": itemCount])"#,
        #"analytics.track(name: "Catalog Shared")"#,
        #"analytics.track(name: "Category Selected", properties: ["category": name, "source": "catalog"])"#,
        #"analytics.track(name: "Checkout Started", properties: ["total": total, "currency": "EUR"])"#,
      ])
    #expect(adopted.values.joined().components(separatedBy: "analytics.track(").count - 1 == 3)

    // After: the same events, in the same order; the mapped ones now sent by trackc.
    try Self.writeManifest(in: app, phase: "after")
    let after = try await Self.offThePool {
      try Self.build(app, phase: "after")
      return try Self.runSession("after")
    }
    #expect(after.map(\.wire) == before.map(\.wire))
    #expect(
      after.map { $0.trackcEvent ?? "-" } == [
        "CATALOG", "CATEGORY_SELECTED", "-", "-", "CATALOG_SHARED", "CART_VIEWED", "-", "-", "CHECKOUT_STARTED", "CART_LEFT",
      ])
  }

  /// The Swift files under the app's Sources, by path, read.
  private func sources(of app: URL) throws -> [String: String] {
    let root = app.appendingPathComponent("Sources")
    var files: [String: String] = [:]
    let paths = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
    for path in paths where path.hasSuffix(".swift") && !path.hasPrefix("StoreTracking") {
      files[path] = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
    return files
  }
}
