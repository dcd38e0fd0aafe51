import CollectorProcess
import Foundation
import Testing

/// The Shop's identity across a kill -9 and a restart: the app (`ShopCrashChild`, started with
/// `ShopApp.start` as the app starts) visits the shop and signs in, and is killed with SIGKILL before it
/// delivers anything; launched again it has the same anonymous ID and user, and delivers the first
/// launch's events, each carrying them; launched a third time (after a clean exit) it still has them.
@Suite struct ShopCrashTests {
  /// `ShopCrashChild`, built beside the tests.
  static var childPath: String {
    var directories: [URL] = []
    if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      directories.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
    }
    // On macOS the tests are a bundle loaded by a runner elsewhere: the bundle sits beside the binary.
    directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    let candidates = directories.map { $0.appendingPathComponent("ShopCrashChild").path }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
  }

  /// A launch of the app: its output, line by line, as it comes.
  final class Launch: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var lines: [String] = []
    private let changed = NSCondition()

    init(_ arguments: [String]) throws {
      process.executableURL = URL(fileURLWithPath: ShopCrashTests.childPath)
      process.arguments = arguments
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      try output.fileHandleForWriting.close()
      let handle = output.fileHandleForReading
      Thread { [self] in
        var pending = Data()
        while true {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          pending += chunk
          while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
            pending = Data(pending[pending.index(after: newline)...])
            changed.lock()
            lines.append(line)
            changed.broadcast()
            changed.unlock()
          }
        }
      }.start()
    }

    /// The next line starting with `prefix`, its words after it; nil if none came within a minute (a
    /// debug build on a loaded machine starts slowly).
    func line(_ prefix: String) -> [String]? {
      let deadline = Date(timeIntervalSinceNow: 60)
      changed.lock()
      defer { changed.unlock() }
      while true {
        if let line = lines.first(where: { $0.hasPrefix(prefix + " ") || $0 == prefix }) {
          return Array(line.split(separator: " ").dropFirst().map(String.init))
        }
        guard changed.wait(until: deadline) else { return nil }
      }
    }
  }

  @Test func identitySurvivesAKillAndARestart() async throws {
    let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("tracking.yaml")
    let collector = try CollectorProcess(plan: config)
    let journal = FileManager.default.temporaryDirectory.appendingPathComponent("shop-crash-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: journal) }
    // Nothing is delivered before the kill: the collector is not there yet for the first launch.
    let unreachable = "http://127.0.0.1:9"

    let visit = try Launch(["visit", journal, unreachable])
    let ready = try #require(visit.line("ready"), "the visit reports its identity")
    let (anonymousID, tracked) = (ready[0], try #require(Int(ready[1])))
    kill(visit.process.processIdentifier, SIGKILL)
    visit.process.waitUntilExit()
    #expect(visit.process.terminationReason == .uncaughtSignal)

    // Launched again after the kill: the same identity, and the first launch's events delivered.
    let resume = try Launch(["resume", journal, collector.baseURL.absoluteString])
    #expect(resume.line("identity") == [anonymousID, "user-1001"])
    #expect(resume.line("delivered") == [])
    resume.process.waitUntilExit()
    #expect(resume.process.terminationStatus == 0)

    // And after a clean exit, still the same.
    let restart = try Launch(["resume", journal, collector.baseURL.absoluteString])
    #expect(restart.line("identity") == [anonymousID, "user-1001"])
    restart.process.waitUntilExit()
    collector.stop()

    let events = collector.received.filter { $0.type != "identify" }
    // Each launch tracks the plan's application events: the first, installed and opened (counted in
    // `tracked`); each of the two after it, opened.
    #expect(events.map(\.event).filter { $0.hasPrefix("APP_") } == ["APP_INSTALLED", "APP_OPENED", "APP_OPENED", "APP_OPENED"])
    #expect(events.count + 1 == tracked + 2, "every event tracked before the kill, and the identify call, arrives once")
    #expect(collector.duplicates == 0)
    #expect(events.allSatisfy { $0.anonymousID == anonymousID })
    let signedIn = try #require(events.firstIndex { $0.event == "CTRL_CHECKOUT_PAYMENT_METHOD" })
    #expect(events[..<signedIn].allSatisfy { $0.userID == nil })
    #expect(events[signedIn...].allSatisfy { $0.userID == "user-1001" })
    #expect(collector.received.contains { $0.type == "identify" && $0.userID == "user-1001" && $0.anonymousID == anonymousID })
  }
}
