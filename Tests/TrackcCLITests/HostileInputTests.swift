import Foundation
import Testing
import TrackcTestSupport

/// Every hostile input through the real binary: it must exit 1 with a positioned error, within a time
/// limit and a memory ceiling, whatever the bytes.
@Suite struct HostileInputTests {
  static let memoryCeilingKilobytes = 300 * 1024
  static let timeLimitSeconds = 60.0


  static func inputs() -> [String] {
    Fixtures.configs(in: "hostile").map(\.path) + HostileCorpus.generated.map { "generated:" + $0.name }
  }

  /// The file to lint: a committed fixture, or a generated input written to a temporary file (removed
  /// by `cleanUp`).
  func path(for input: String) throws -> (path: String, cleanUp: () -> Void) {
    guard input.hasPrefix("generated:") else { return (input, {}) }
    let name = String(input.dropFirst("generated:".count))
    let generated = try #require(HostileCorpus.generated.first { $0.name == name })
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("trackc-\(UUID().uuidString)-\(name).yaml")
    try Data(generated.make()).write(to: url)
    return (url.path, { try? FileManager.default.removeItem(at: url) })
  }

  @Test(arguments: inputs())
  func rejectsCleanlyWithinBounds(input: String) throws {
    let (file, cleanUp) = try path(for: input)
    defer { cleanUp() }
    let run = try MeasuredRun.run(TrackcBinary.path, ["lint", file], timeout: Self.timeLimitSeconds)
    #expect(!run.timedOut, "took longer than \(Self.timeLimitSeconds) s")
    #expect(run.status == 1, "exit \(run.status): \(run.standardError)")
    let first = run.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.hasPrefix(file + ":") && first.contains(": error: "), "\(first)")
    #expect(run.maxResidentKilobytes < Self.memoryCeilingKilobytes, "peak memory \(run.maxResidentKilobytes / 1024) MB")
  }

  /// Devices that never end are read up to the size limit and rejected, not read forever.
  @Test(arguments: ["/dev/zero", "/dev/urandom"])
  func endlessDevicesAreRejected(device: String) throws {
    let run = try MeasuredRun.run(TrackcBinary.path, ["lint", device], timeout: Self.timeLimitSeconds)
    #expect(!run.timedOut)
    #expect(run.status == 1)
    #expect(run.standardOutput.contains("[file-too-large]"))
    #expect(run.maxResidentKilobytes < Self.memoryCeilingKilobytes)
  }

  @Test func emptyDeviceIsAnEmptyConfig() throws {
    let run = try MeasuredRun.run(TrackcBinary.path, ["lint", "/dev/null"], timeout: Self.timeLimitSeconds)
    #expect(run.status == 1)
    #expect(run.standardOutput.contains("/dev/null:1:1: error: the config is empty"))
  }
}
