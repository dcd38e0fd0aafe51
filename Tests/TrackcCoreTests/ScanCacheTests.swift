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

    func cacheFile() throws -> String {
      let names = try FileManager.default.contentsOfDirectory(atPath: cache)
      return cache + "/" + (try #require(names.first { $0.hasPrefix("scans-") && $0.hasSuffix(".bin") }))
    }
  }

  @Test func secondRunOverUnchangedSourcesParsesNothing() throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    let cold = setup.scan()
    #expect(cold.fileCount == 11)
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

  /// Each damage is applied to a good cache; the next scan must ignore it (parse everything, give the
  /// same registry) and write a good cache again.
  @Test(arguments: ["truncated", "garbage", "flipped byte", "appended byte", "other version", "empty", "directory"])
  func damagedCacheIsIgnoredAndReplaced(damage: String) throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    let reference = setup.scan()
    let file = try setup.cacheFile()
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
    #expect(afterDamage.cachedCount == 0)
    #expect(afterDamage.registry == reference.registry)
    if damage != "directory" {
      #expect(setup.scan().cachedCount == reference.fileCount, "the cache is written again")
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
