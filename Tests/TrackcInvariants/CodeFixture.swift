import Foundation
import TrackcCore

/// The code that fuzzed configs are checked against: the generator fixture's feature module (every
/// handler shape a replacement must repeat), scanned once and kept as the registry `trackc scan` writes.
/// Its config is the seed the registry target checks fuzzed registries with.
public enum CodeFixture {
  /// `Tests/GenerateFixtures`, found from this file. The path goes through `..` rather than being cut
  /// lexically, so that it also holds where this folder is reached through a symbolic link (`Fuzz/`).
  static let directory: String = {
    let file = "\(#filePath)"
    let folder = file[..<(file.lastIndex(of: "/") ?? file.startIndex)]
    return folder + "/../GenerateFixtures"
  }()

  static func read(_ relativePath: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: directory + "/" + relativePath) else {
      fatalError("cannot read \(directory)/\(relativePath): the fuzz targets run from a checkout of trackc")
    }
    return [UInt8](data)
  }

  /// The feature module's registry, as JSON.
  public static let registryJSON: [UInt8] = {
    let path = "Sources/GenerateFixtureFeature/Screens.swift"
    let text = String(decoding: read(path), as: UTF8.self)
    return SourceScanner.scan(.files([(path, text)]), options: ScanOptions(useCache: false)).registry.jsonBytes()
  }()

  /// The fixture's config, which lints clean against that module and generates interceptors.
  public static let config: [UInt8] = read("tracking.yaml")
}
