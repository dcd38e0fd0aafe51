import Foundation
import Testing
@_spi(Generated) import TrackcRuntime
import TrackcTestSupport

/// Consent that waits, under kill -9: the crash child (`trackc-crash-child pending`) starts as an app
/// does (a tracker built by hand, installed with the lifecycle: Application Installed, then Application
/// Opened at every launch) with the category `ads` pending, tracks numbered events to `open` (gated by
/// nothing), `gated` (gated by `ads`, a lane of its own) and `relay` (gated by `ads`, forwarded by the
/// collector), and is killed with SIGKILL at random moments, again and again, before anyone answers. A
/// last launch (`pending-answer`) gives the first answer.
///
/// Granted: `gated` and the collector receive every acknowledged event and every launch's application
/// events, after the answer and not before. Refused: they receive nothing, and what waited is dropped and
/// counted (`consentDenied`). `open` receives every acknowledged event either way.
@Suite(.serialized) struct PendingConsentCrashTests {
  static var runs: Int { max(3, (Int(ProcessInfo.processInfo.environment["TRACKC_CRASH_KILLS"] ?? "") ?? 24) / 4) }

  struct Outcome {
    var acknowledged = Set<Int>()
    var report = ""
    var status: Int32 = -1
    var directory: TemporaryDirectory
  }

  /// Kills the child `runs` times while `ads` is pending, then answers.
  func killWhilePending(answer: String, seed: UInt64) throws -> Outcome {
    var generator = SeededGenerator(seed: seed)
    var outcome = Outcome(directory: try TemporaryDirectory())
    let journal = outcome.directory.url.appendingPathComponent("journal").path
    for run in 0..<Self.runs {
      let count = Int.random(in: 100...1_500, using: &generator)
      let child = try CrashTests.start(["pending", journal, outcome.directory.url.path, String(run * 100_000_000), String(count)])
      // Every other run is killed once all its events are acknowledged (idle, what waits is all in the
      // journal); the others once a seeded number of them is (in the middle of tracking, with the lanes
      // holding what came before).
      let killAt = run % 2 == 0 ? count : Int.random(in: 1...count, using: &generator)
      child.acknowledgements.waitFor(killAt, timeout: TimeLimits.seconds(60))
      outcome.acknowledged.formUnion(child.killed(run: run, seed: seed))
    }
    let last = try CrashTests.start(["pending-answer", journal, outcome.directory.url.path, answer])
    last.process.waitUntilExit()
    outcome.report = last.acknowledgements.text.trimmingCharacters(in: .whitespacesAndNewlines)
    outcome.status = last.process.terminationStatus
    return outcome
  }

  /// The lines a receiver wrote: (event ID, number or -1, forwarded to), and whether each came after
  /// the `ANSWER` line.
  static func lines(_ path: String) throws -> [(id: String, number: Int, forwardedTo: String, afterAnswer: Bool)] {
    var afterAnswer = false
    var result: [(String, Int, String, Bool)] = []
    for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
      if line == "ANSWER" {
        afterAnswer = true
        continue
      }
      let fields = line.split(separator: " ")
      // A kill in the middle of a write can leave part of a line: not an event received.
      guard fields.count == 4, fields[2].utf8.count == 36, let number = Int(fields[1]) else { continue }
      result.append((String(fields[0]), number, String(fields[3]), afterAnswer))
    }
    return result
  }

  @Test func heldEventsSurviveKillsAndGoOutOnGrant() throws {
    let seed = CrashTests.seed
    let outcome = try killWhilePending(answer: "grant", seed: seed)
    #expect(outcome.status == 0, "\(outcome.report); seed \(seed)")
    let directory = outcome.directory.url.path
    let launches = Self.runs + 1
    for receiver in ["gated", "collector"] {
      let lines = try Self.lines(directory + "/\(receiver).txt")
      #expect(lines.allSatisfy { $0.afterAnswer }, "\(receiver) received something before the answer; seed \(seed)")
      let numbers = Set(lines.filter { $0.id == "CRASH_TEST" }.map(\.number))
      let lost = outcome.acknowledged.subtracting(numbers)
      #expect(lost.isEmpty, "\(receiver) lost acknowledged events held for ads, e.g. \(lost.sorted().prefix(5)); seed \(seed)")
      // The application events of every launch, the last included: held like any other, delivered once.
      #expect(lines.filter { $0.id == "APP_INSTALLED" }.count == 1, "\(receiver); seed \(seed)")
      #expect(lines.filter { $0.id == "APP_OPENED" }.count == launches, "\(receiver): one Application Opened per launch; seed \(seed)")
    }
    // The collector forwarded each to relay, the one destination it stands for.
    #expect(try Self.lines(directory + "/collector.txt").allSatisfy { $0.forwardedTo == "relay" })
    let open = Set(try Self.lines(directory + "/open.txt").map(\.number))
    #expect(outcome.acknowledged.isSubset(of: open), "open, gated by nothing, has every acknowledged event; seed \(seed)")
    print(
      "pending consent crash test (grant): \(Self.runs) kills, \(outcome.acknowledged.count) acknowledged while pending, 0 lost; "
        + "last start: \(outcome.report); seed \(seed)")
  }

  @Test func heldEventsSurviveKillsAndAreDroppedAndCountedOnRefusal() throws {
    let seed = CrashTests.seed
    let outcome = try killWhilePending(answer: "deny", seed: seed)
    #expect(outcome.status == 0, "\(outcome.report); seed \(seed)")
    let directory = outcome.directory.url.path
    #expect(try Self.lines(directory + "/gated.txt").isEmpty, "gated received what ads was refused for; seed \(seed)")
    #expect(try Self.lines(directory + "/collector.txt").isEmpty, "the collector forwarded what ads was refused for; seed \(seed)")
    let open = Set(try Self.lines(directory + "/open.txt").map(\.number))
    #expect(outcome.acknowledged.isSubset(of: open), "open, gated by nothing, has every acknowledged event; seed \(seed)")
    // Every event that waited is dropped for gated and for the collector, as refused: at least the
    // acknowledged ones and one Application Opened per launch.
    let minimum = outcome.acknowledged.count + Self.runs + 1
    for id in ["gated", "collector"] {
      let denied = Self.dropped(id, .consentDenied, in: outcome.report)
      #expect(denied >= minimum, "\(id): \(denied) dropped as consentDenied, expected at least \(minimum): \(outcome.report); seed \(seed)")
    }
    print(
      "pending consent crash test (deny): \(Self.runs) kills, \(outcome.acknowledged.count) acknowledged while pending, none sent to "
        + "gated or the collector; last start: \(outcome.report); seed \(seed)")
  }

  /// `gated: 0 recovered, 0 delivered, dropped [consentDenied=1234]` -> 1234.
  static func dropped(_ id: String, _ reason: DropReason, in report: String) -> Int {
    guard let part = report.components(separatedBy: "; ").first(where: { $0.contains("\(id): ") }),
      let range = part.range(of: "\(reason.rawValue)=")
    else { return 0 }
    return Int(part[range.upperBound...].prefix { $0.isNumber }) ?? 0
  }
}
