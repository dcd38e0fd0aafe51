import Foundation
import Testing
import TrackcTestSupport

/// Every hostile input through the real binary: it must exit 1 with a positioned error, within a time
/// limit and a memory ceiling, whatever the bytes.
@Suite struct HostileInputTests {
  /// 300 MB; Scripts/sanitize.sh raises it for AddressSanitizer's builds, whose shadow memory, redzones
  /// and quarantine add about half again.
  static let memoryCeilingKilobytes = (ProcessInfo.processInfo.environment["TRACKC_TEST_MEMORY_CEILING_MB"].flatMap { Int($0) } ?? 300) * 1024
  /// A minute (scaled under a sanitizer: `TimeLimits`).
  static let timeLimitSeconds = TimeLimits.seconds(60)
  /// A scan of every hostile Swift file with the default per-file limit: a sanity bound, not a target.
  static let slowScanLimitSeconds = 600.0

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
    #expect(run.peakStaysUnder(Self.memoryCeilingKilobytes), "peak memory \(run.maxResidentKilobytes / 1024) MB")
  }

  /// Devices that never end are read up to the size limit and rejected, not read forever.
  @Test(arguments: ["/dev/zero", "/dev/urandom"])
  func endlessDevicesAreRejected(device: String) throws {
    let run = try MeasuredRun.run(TrackcBinary.path, ["lint", device], timeout: Self.timeLimitSeconds)
    #expect(!run.timedOut)
    #expect(run.status == 1)
    #expect(run.standardOutput.contains("[file-too-large]"))
    #expect(run.peakStaysUnder(Self.memoryCeilingKilobytes))
  }

  @Test func emptyDeviceIsAnEmptyConfig() throws {
    let run = try MeasuredRun.run(TrackcBinary.path, ["lint", "/dev/null"], timeout: Self.timeLimitSeconds)
    #expect(run.status == 1)
    #expect(run.standardOutput.contains("/dev/null:1:1: error: the config is empty"))
  }

  /// Hostile Swift sources: the scan reads what it can, warns about the rest, and stays within bounds;
  /// a lint over them does not crash either.
  @Test func hostileSwiftSourcesAreScannedWithinBounds() throws {
    let scratch = try ScratchDirectory("hostile-swift")
    defer { scratch.remove() }
    // The file that takes the parser quadratic time is scanned on its own with a short per-file limit;
    // the others with the default one (30 s), so that a file that crashes the parser is reported as a
    // crash even on a loaded machine, where parsing it in a debug build can take longer than a short
    // limit (seen: 5.5 s for CurriedFunctionType at a load of 13 on 2 cores).
    let slow = "RepeatedSome.swift"
    for source in HostileCorpus.swiftSources {
      try scratch.write((source.name == slow ? "Slow/Hostile/" : "Sources/Hostile/") + source.name, bytes: source.make())
    }
    let timed = try MeasuredRun.run(
      TrackcBinary.path, ["scan", scratch.path + "/Slow", "--no-cache", "--file-time-limit", "3", "-o", scratch.path + "/slow.json"],
      timeout: Self.timeLimitSeconds)
    #expect(!timed.timedOut)
    #expect(timed.status == 0, "exit \(timed.status): \(timed.standardError)")
    #expect(
      timed.standardError.contains(
        "Slow/Hostile/RepeatedSome.swift:1:1: warning: parsing this file took longer than 3 s; it was not read [swift-source]"))
    #expect(timed.peakStaysUnder(Self.memoryCeilingKilobytes), "peak memory \(timed.maxResidentKilobytes / 1024) MB")

    let scan = try MeasuredRun.run(
      TrackcBinary.path, ["scan", scratch.path + "/Sources", "--no-cache", "-o", scratch.path + "/handlers.json"],
      timeout: Self.slowScanLimitSeconds)
    #expect(!scan.timedOut)
    #expect(scan.status == 0, "exit \(scan.status): \(scan.standardError)")
    #expect(scan.peakStaysUnder(Self.memoryCeilingKilobytes), "peak memory \(scan.maxResidentKilobytes / 1024) MB")
    for broken in ["DeepBraces", "DeepParentheses", "BinaryJunk", "UnterminatedComment", "UnterminatedString", "TooLarge"] {
      #expect(scan.standardError.contains("Sources/Hostile/\(broken).swift:"), "no warning for \(broken)")
    }
    for crashing in ["RepeatedTry", "CurriedFunctionType", "NestedArrayType", "IfAroundAttributes"] {
      #expect(
        scan.standardError.contains("Sources/Hostile/\(crashing).swift:1:1: warning: swift-syntax's parser crashed on this file"), "\(crashing)")
    }
    #expect(scan.standardError.contains("trackc: \(HostileCorpus.swiftSources.count - 1) files, "))
    let registry = try scratch.read("handlers.json")
    #expect(registry.contains("\"tapped(_:)\""), "the clean file behind a byte order mark is read")
    #expect(registry.contains("\"name\": \"F\""), "what precedes a syntax error is read")

    try scratch.write("tracking.yaml", "version: 1\nsources: [Sources]\nscreens:\n  G: {control_events: {tapped(_:): G_TAPPED}}\n")
    let lint = try MeasuredRun.run(
      TrackcBinary.path, ["lint", scratch.path + "/tracking.yaml", "--no-cache", "--file-time-limit", "3"], timeout: Self.timeLimitSeconds)
    #expect(!lint.timedOut)
    #expect(lint.status == 0, "warnings only: \(lint.standardOutput)")
    #expect(lint.standardOutput.contains("[swift-source]"))
    #expect(lint.peakStaysUnder(Self.memoryCeilingKilobytes))
  }

  /// A registry file that is a YAML bomb or junk is an error, not a hang.
  @Test(arguments: ["Tests/Fixtures/hostile/billion-laughs.yaml", "Tests/Fixtures/hostile/recursive-alias.yaml", "/dev/urandom", "/dev/zero"])
  func hostileRegistryFilesAreErrors(handlers: String) throws {
    let run = try MeasuredRun.run(TrackcBinary.path, ["lint", "Examples/Shop/tracking.yaml", "--handlers", handlers], timeout: Self.timeLimitSeconds)
    #expect(!run.timedOut)
    #expect(run.status == 1, "exit \(run.status): \(run.standardError)")
    #expect(run.standardOutput.hasPrefix("\(handlers):"), "the error is in the registry file, with its position: \(run.standardOutput.prefix(300))")
    #expect(run.standardOutput.contains(": error: "))
    #expect(run.peakStaysUnder(Self.memoryCeilingKilobytes))
  }
}
