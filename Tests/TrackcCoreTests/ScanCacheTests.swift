import Foundation
import Testing
import TrackcCore
import TrackcTestSupport

/// The scan cache: a second run over unchanged sources parses nothing, a changed file is parsed again,
/// and a cache that is damaged or from another version is ignored and replaced, never trusted.
@Suite struct ScanCacheTests {
  static let app = Fixtures.directory.appendingPathComponent("app/Sources")

  struct Setup {
    let scratch: ScratchDirectory
    var sources: String { scratch.path + "/Sources" }
    var cache: String { scratch.path + "/cache" }
    var options: ScanOptions { ScanOptions(cacheDirectory: cache) }

    init() throws {
      scratch = try ScratchDirectory("cache")
      try scratch.copy(ScanCacheTests.app, to: "Sources")
    }

    func scan() -> ScanResult { SourceScanner.scan(.paths([sources]), options: options) }

    func cacheFile(_ prefix: String = "scans-") throws -> String {
      let names = try FileManager.default.contentsOfDirectory(atPath: cache)
      return cache + "/" + (try #require(names.first { $0.hasPrefix(prefix) && $0.hasSuffix(".bin") }))
    }

    /// The phases of a scan, by name (`--timings`).
    func phases() -> [String] {
      let recorded = Recorded()
      var options = self.options
      options.phaseObserver = { name, _ in recorded.append(name) }
      _ = SourceScanner.scan(.paths([sources]), options: options)
      return recorded.names
    }
  }

  final class Recorded: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ name: String) { lock.withLock { stored.append(name) } }
    var names: [String] { lock.withLock { stored } }
  }

  @Test func secondRunOverUnchangedSourcesParsesNothing() throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    let cold = setup.scan()
    #expect(cold.fileCount == 12)
    #expect(cold.cachedCount == 0)
    let warm = setup.scan()
    #expect(warm.cachedCount == warm.fileCount)
    #expect(warm.registry == cold.registry)
    #expect(warm.diagnostics == cold.diagnostics)
  }

  @Test func changedFileIsParsedAgain() throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    _ = setup.scan()
    try setup.scratch.write(
      "Sources/Settings/SettingsViewController.swift", "class SettingsViewController {\n  @objc func onRenamed(_ s: Any) {}\n}\n")
    let result = setup.scan()
    #expect(result.cachedCount == result.fileCount - 1)
    let settings = try #require(result.registry.types.first { $0.name == "SettingsViewController" })
    #expect(settings.methods.map(\.name) == ["onRenamed(_:)"])
  }

  @Test func invalidFilesAreCachedWithTheirWarnings() throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    try setup.scratch.write("Sources/Home/Broken.swift", "class Broken {\n  func b( {}\n}\n")
    let cold = setup.scan()
    let warm = setup.scan()
    #expect(warm.cachedCount == warm.fileCount)
    #expect(!warm.diagnostics.isEmpty)
    #expect(warm.diagnostics == cold.diagnostics)
  }

  /// A warm run over an unchanged tree reads no source file: the files' stamps are the link cache's, so
  /// their hashes are known, and the linked registry is read back instead of the scans being linked.
  @Test func aWarmRunOverAnUnchangedTreeReadsTheLinkedRegistry() throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    let cold = setup.scan()
    let phases = setup.phases()
    #expect(phases.contains { $0.hasPrefix("read the linked registry") }, "\(phases)")
    #expect(!phases.contains { $0.hasPrefix("load the cache") || $0.hasPrefix("link ") }, "\(phases)")
    let warm = setup.scan()
    #expect(warm.registry == cold.registry)
    #expect(warm.diagnostics == cold.diagnostics)
  }

  /// A file rewritten with its old size and modification time is still read again (its status-change
  /// time differs, or it is racily clean), never taken for its old self.
  @Test func aFileRewrittenWithItsOldSizeAndTimeIsReadAgain() throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    _ = setup.scan()
    let path = setup.sources + "/Settings/SettingsViewController.swift"
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    let original = try String(contentsOfFile: path, encoding: .utf8)
    let renamed = original.replacingOccurrences(of: "SettingsViewController", with: "SettingsViewControllex")
    #expect(renamed.utf8.count == original.utf8.count)
    try renamed.write(toFile: path, atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: path)
    let result = setup.scan()
    #expect(result.registry.types.contains { $0.name == "SettingsViewControllex" })
    #expect(!result.registry.types.contains { $0.name == "SettingsViewController" })
  }

  /// Each damage is applied to a good cache file (the scans, or the linked registry); the next scan must
  /// ignore it (parse or link again, give the same registry) and write a good one again.
  @Test(arguments: ["scans-", "links-"], ["truncated", "garbage", "flipped byte", "appended byte", "other version", "empty", "directory"])
  func damagedCacheIsIgnoredAndReplaced(cache: String, damage: String) throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    let reference = setup.scan()
    // The scans are read only when the linked registry cannot be used.
    if cache == "scans-" { try FileManager.default.removeItem(atPath: try setup.cacheFile("links-")) }
    let file = try setup.cacheFile(cache)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
    switch damage {
    case "truncated": bytes = Array(bytes.prefix(bytes.count / 2))
    case "garbage": bytes = HostileCorpus.binaryJunk(count: 4096)
    case "flipped byte":
      // A recorded column one off: the structure still reads, but the checksum no longer matches.
      bytes[bytes.count - 1] ^= 1
    case "appended byte": bytes.append(0)
    case "other version":
      let version = Array(TrackcVersion.current.utf8)
      let start = try #require((0...(64 - version.count)).first { Array(bytes[$0..<$0 + version.count]) == version })
      bytes[start + version.count - 1] ^= 1
    case "empty": bytes = []
    default: bytes = []
    }
    if damage == "directory" {
      try FileManager.default.removeItem(atPath: file)
      try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
    } else {
      try Data(bytes).write(to: URL(fileURLWithPath: file))
    }
    let afterDamage = setup.scan()
    // Without the scans every file is parsed; without the linked registry the scans are linked again.
    #expect(afterDamage.cachedCount == (cache == "scans-" ? 0 : afterDamage.fileCount))
    #expect(afterDamage.registry == reference.registry)
    if damage != "directory" {
      #expect(setup.scan().cachedCount == reference.fileCount, "the cache is written again")
      #expect(setup.phases().contains { $0.hasPrefix("read the linked registry") }, "the linked registry is written again")
    }
  }

  @Test func noCacheReadsAndWritesNothing() throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    var options = setup.options
    options.useCache = false
    _ = SourceScanner.scan(.paths([setup.sources]), options: options)
    #expect(!FileManager.default.fileExists(atPath: setup.cache))
    _ = setup.scan()
    #expect(SourceScanner.scan(.paths([setup.sources]), options: options).cachedCount == 0)
  }

  @Test func differentSourceSetsKeepTheirOwnCaches() throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    let home = setup.sources + "/Home"
    let cart = setup.sources + "/Cart"
    _ = SourceScanner.scan(.paths([home]), options: setup.options)
    _ = SourceScanner.scan(.paths([cart]), options: setup.options)
    let again = SourceScanner.scan(.paths([home]), options: setup.options)
    #expect(again.cachedCount == again.fileCount)
  }
}
