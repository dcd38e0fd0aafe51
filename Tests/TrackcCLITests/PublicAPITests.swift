import Foundation
import Testing
import TrackcTestSupport

/// `Scripts/public-api.sh --check`, which CI runs, compares TrackcRuntime's public API with the committed
/// baseline (Scripts/api/TrackcRuntime.txt): it passes on the baseline as committed, and fails, naming the
/// declaration, when the API and the baseline differ either way.
@Suite struct PublicAPITests {
  static let script = Fixtures.repositoryRoot.appendingPathComponent("Scripts/public-api.sh").path
  static let baseline = Fixtures.repositoryRoot.appendingPathComponent("Scripts/api/TrackcRuntime.txt")
  /// The modules of the build these tests belong to (`swift-symbolgraph-extract` reads TrackcRuntime's).
  static let modules = URL(fileURLWithPath: BuiltExecutable.path(named: "trackc")).deletingLastPathComponent().appendingPathComponent("Modules").path

  static func check(against baseline: URL) throws -> ProcessOutput {
    try ProcessRunner.run(
      "/usr/bin/env", ["TRACKC_API_BASELINE=\(baseline.path)", "TRACKC_MODULES=\(modules)", "bash", script, "--check"])
  }

  @Test func theRuntimesAPIIsTheBaseline() throws {
    let run = try Self.check(against: Self.baseline)
    #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
    #expect(run.standardOutput.contains("is the baseline's"))
  }

  /// A declaration the baseline has and the API no longer has (removed or changed), and one the API has
  /// and the baseline does not (added): each fails the check, and the output names it.
  @Test(arguments: ["removed", "added"])
  func aChangedAPIFailsTheCheck(_ change: String) throws {
    var lines = try String(contentsOf: Self.baseline, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    let changed: String
    if change == "removed" {
      // The API has a declaration the baseline lacks: as if it had been added to the runtime.
      changed = try #require(lines.first { $0.hasPrefix("method Tracker.track(_:screen:properties:)") })
      lines.removeAll { $0 == changed }
    } else {
      // The baseline has a declaration the API lacks: as if it had been removed from the runtime.
      changed = "method Tracker.trackEverything(): func trackEverything()"
      lines.insert(changed, at: 0)
    }
    let edited = FileManager.default.temporaryDirectory.appendingPathComponent("trackc-api-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(at: edited) }
    try lines.joined(separator: "\n").write(to: edited, atomically: true, encoding: .utf8)

    let run = try Self.check(against: edited)
    #expect(run.status == 1, "\(run.standardOutput)\(run.standardError)")
    #expect(run.standardOutput.contains("TrackcRuntime's public API differs"))
    #expect(run.standardOutput.contains((change == "removed" ? "added:   " : "removed: ") + changed), "\(run.standardOutput)")
    #expect(run.standardOutput.contains("Scripts/public-api.sh --record"))
  }
}
