import Foundation
import Testing
import TrackcTestSupport

@_spi(Generated) @testable import TrackcRuntime

/// The laws the `journal` and `remote-config` fuzz targets check (`JournalFuzzing`,
/// `RemoteConfigurationFuzzing`), held on inputs made by hand and on every input a fuzzer once broke one
/// with (`Tests/Fixtures/fuzz/journal/`, `.../remote-config/`), so that `swift test` keeps them
/// without a fuzzer build.
@Suite struct RuntimeFuzzingTests {
  static func regressions(_ target: String) -> [URL] {
    let folder = Fixtures.directory.appendingPathComponent("fuzz").appendingPathComponent(target)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().map { folder.appendingPathComponent($0) }
  }

  /// A record as the journal writes it (the harness fixes the checksum), routed by `mask`, referring to
  /// snapshot 0; of version 1 (no snapshot) when `version1`.
  static func record(_ eventID: String, mask: UInt64, properties: [String: PropertyValue] = [:], version1: Bool = false) -> [UInt8] {
    let draft = EventCoding.Draft(eventID: eventID, source: .manual, screen: "Home", properties: properties)
    var payload = [UInt8](repeating: 0, count: EventCoding.encodedSize(draft, snapshot: 0))
    _ = payload.withUnsafeMutableBytes { raw in
      EventCoding.encode(
        draft, destinations: mask, messageID: UUID().uuid, microseconds: 1_700_000_000_000_000, snapshot: 0, into: raw.baseAddress!)
    }
    // Version 1 had no snapshot number: the byte after the flags goes.
    if version1 { payload.remove(at: EventCoding.fixedSize) }
    return framed(payload)
  }

  /// Snapshot 0, as the journal writes it first in each segment.
  static let snapshot: [UInt8] = {
    let snapshot = EventSnapshot(identity: TrackingIdentity(anonymousID: "anon", userID: "u"), context: .current)
    var payload = [UInt8](repeating: 0, count: SnapshotCoding.encodedSize(snapshot, number: 0))
    _ = payload.withUnsafeMutableBytes { SnapshotCoding.encode(snapshot, number: 0, into: $0.baseAddress!) }
    return framed(payload)
  }()

  static func framed(_ payload: [UInt8]) -> [UInt8] {
    withUnsafeBytes(of: UInt32(payload.count).littleEndian, Array.init) + [0, 0, 0, 0] + payload
  }

  @Test(.timeLimit(.minutes(TimeLimits.minutes(1))), arguments: regressions("journal"))
  func journalRegression(input: URL) throws {
    #expect(JournalFuzzing.violations([UInt8](try Data(contentsOf: input))) == [])
  }

  @Test(.timeLimit(.minutes(TimeLimits.minutes(1))), arguments: regressions("remote-config"))
  func remoteConfigurationRegression(input: URL) throws {
    #expect(RemoteConfigurationFuzzing.violations([UInt8](try Data(contentsOf: input))) == [])
  }

  /// Good records, one for each destination and one for both, then garbage that is not zeros.
  @Test func journalLawsHoldOnRecordsAndADirtyTail() throws {
    let records =
      Self.snapshot + Self.record("A", mask: 1) + Self.record("B", mask: 2)
      + Self.record("AB", mask: 3, properties: ["n": .int(7), "x": .double(.nan)])
    #expect(JournalFuzzing.violations([0] + records) == [])
    #expect(JournalFuzzing.violations([0] + records + [0xFF, 0xFF]) == [])
    #expect(JournalFuzzing.violations([JournalFuzzing.Flags.shuffledDestinations.rawValue] + records) == [])
    #expect(JournalFuzzing.violations([JournalFuzzing.Flags.truncated.rawValue] + records) == [])
    // A cursor past the first event (the segment's header is 48 bytes here: records start at 48).
    let firstEvent = UInt64(48 + Self.snapshot.count + Self.record("A", mask: 1).count)
    let cursor = withUnsafeBytes(of: UInt64(1).littleEndian, Array.init) + withUnsafeBytes(of: firstEvent.littleEndian, Array.init)
    #expect(JournalFuzzing.violations([JournalFuzzing.Flags.cursor.rawValue] + cursor + records) == [])
    #expect(JournalFuzzing.violations([JournalFuzzing.Flags.rawCursor.rawValue] + [UInt8](repeating: 0xAB, count: 64) + records) == [])
    // An earlier release's segment.
    let version1 = Self.record("A", mask: 1, version1: true) + Self.record("AB", mask: 3, version1: true)
    #expect(JournalFuzzing.violations([JournalFuzzing.Flags.version1.rawValue] + version1) == [])
    // Events whose snapshot is missing: counted as undecodable, the books still balance.
    #expect(JournalFuzzing.violations([0] + Self.record("A", mask: 1)) == [])
    // Not a segment at all: quarantined.
    #expect(JournalFuzzing.violations([JournalFuzzing.Flags.raw.rawValue] + [UInt8](repeating: 7, count: 100)) == [])
    #expect(JournalFuzzing.violations([]) == [])
  }

  /// The harness really recovers what it wrote: the laws are not checked on an empty journal.
  @Test func journalHarnessRecoversWhatItWrites() throws {
    let root = try #require(JournalFuzzing.makeDirectory())
    defer { try? FileManager.default.removeItem(atPath: root) }
    let written = try JournalFuzzing.write([0] + Self.snapshot + Self.record("A", mask: 1) + Self.record("AB", mask: 3), into: root)
    #expect(written.headerIsValid)
    #expect(written.routed == [2, 1])
    #expect(!written.dirtyTail)
    #expect(JournalFuzzing.drain(root, written) == [])
    // And the laws catch a count that is wrong.
    let other = try #require(JournalFuzzing.makeDirectory())
    defer { try? FileManager.default.removeItem(atPath: other) }
    var wrong = try JournalFuzzing.write([0] + Self.snapshot + Self.record("A", mask: 1), into: other)
    wrong.routed = [2, 0]
    #expect(JournalFuzzing.drain(other, wrong).count == 1)
  }

  @Test func remoteConfigurationLawsHoldOnGoodAndBadDocuments() {
    let good = [
      #"{"version": 2, "destinations": {"firebase": {"sampling": 0.1}, "x": {}}, "events": {"E": {"sampling": 0}, "F": {}}}"#,
      #"{"version": 1}"#,
    ]
    let bad = [
      #"{"version": 0}"#, #"{"version": 1, "destinations": {"a": {"enabled": 1}}}"#, #"{"version": 1, "events": {"E": {"sampling": 1.5}}}"#,
      "[]", "", "not JSON", #"{"version": true}"#,
    ]
    // The laws hold trivially for a refused document: the good ones must be read, the bad ones refused.
    for document in good { #expect(RemoteDestinationConfiguration.parse(Data(document.utf8)) != nil, "\(document)") }
    for document in bad { #expect(RemoteDestinationConfiguration.parse(Data(document.utf8)) == nil, "\(document)") }
    for document in good + bad {
      #expect(RemoteConfigurationFuzzing.violations(Array(document.utf8)) == [], "\(document)")
    }
  }
}
