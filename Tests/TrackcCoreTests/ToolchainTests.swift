import Foundation
import Testing
import TrackcTestSupport

/// The toolchain the docs state is the one that can build trackc with the dependencies it resolves: the
/// lowest Swift every resolved package's manifest allows (`Package.resolved`, and each package's
/// `Package.swift` and version-specific `Package@swift-X.Y.swift` in `.build/checkouts`), and trackc's
/// own. A dependency that moves to newer tools fails this test until the docs say so.
@Suite struct ToolchainTests {
  static let root = Fixtures.repositoryRoot

  /// `// swift-tools-version: 6.2` (or `:6.2`, `:5.10.1`) -> [6, 2].
  static func toolsVersion(ofManifest text: String) -> [Int]? {
    guard let first = text.split(separator: "\n", maxSplits: 1).first,
      let range = first.range(of: "swift-tools-version:")
    else { return nil }
    let version = first[range.upperBound...].trimmingCharacters(in: .whitespaces).prefix { $0.isNumber || $0 == "." }
    let parts = version.split(separator: ".").compactMap { Int($0) }
    return parts.isEmpty ? nil : parts
  }

  static func less(_ a: [Int], _ b: [Int]) -> Bool {
    for index in 0..<max(a.count, b.count) {
      let (x, y) = (index < a.count ? a[index] : 0, index < b.count ? b[index] : 0)
      if x != y { return x < y }
    }
    return false
  }

  /// The lowest toolchain that can load the package at `directory`: of each manifest, the higher of the
  /// tools version it declares and (for `Package@swift-X.Y.swift`, which SwiftPM picks only from X.Y on)
  /// the version in its name; the lowest of those.
  static func lowestToolchain(ofPackageAt directory: URL) throws -> [Int] {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0 == "Package.swift" || ($0.hasPrefix("Package@swift-") && $0.hasSuffix(".swift"))
    }
    var lowest: [Int]?
    for name in names {
      let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
      guard var needed = toolsVersion(ofManifest: text) else { continue }
      if name != "Package.swift" {
        let named = name.dropFirst("Package@swift-".count).dropLast(".swift".count).split(separator: ".").compactMap { Int($0) }
        if less(needed, named) { needed = named }
      }
      if lowest.map({ less(needed, $0) }) ?? true { lowest = needed }
    }
    return try #require(lowest, "no manifest with a tools version in \(directory.path)")
  }

  /// Every resolved package, with the lowest toolchain that loads it.
  static func resolved() throws -> [(identity: String, lowest: [Int])] {
    let resolvedFile = root.appendingPathComponent("Package.resolved")
    let data = try #require(try? Data(contentsOf: resolvedFile), "no Package.resolved: resolve the package first (swift build)")
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let pins = try #require(object["pins"] as? [[String: Any]])
    let checkouts = root.appendingPathComponent(".build/checkouts")
    return try pins.map { pin in
      let identity = try #require(pin["identity"] as? String)
      let checkout = checkouts.appendingPathComponent(identity)
      #expect(FileManager.default.fileExists(atPath: checkout.path), "no checkout of \(identity) in .build/checkouts")
      return (identity, try lowestToolchain(ofPackageAt: checkout))
    }
  }

  /// "Swift 6.2 or later" in a document -> [6, 2].
  static func stated(in path: String, _ pattern: String) throws -> [Int] {
    let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    let expression = try Regex(pattern)
    let match = try #require(text.firstMatch(of: expression), "\(path) does not say \(pattern)")
    let version = try #require(match.output[1].substring.map(String.init))
    return version.split(separator: ".").compactMap { Int($0) }
  }

  @Test func theStatedSwiftIsWhatEveryResolvedDependencyNeeds() throws {
    let packages = try Self.resolved()
    #expect(packages.count >= 5, "\(packages.map(\.identity))")
    let own = try #require(Self.toolsVersion(ofManifest: String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)))
    let needed = packages.map(\.lowest).reduce(own) { Self.less($0, $1) ? $1 : $0 }
    let neededText = needed.map(String.init).joined(separator: ".")
    let why = packages.filter { $0.lowest == needed }.map(\.identity).joined(separator: ", ")

    let readme = try Self.stated(in: "README.md", #"builds with Swift (\d+\.\d+) or later"#)
    #expect(readme == needed, "README.md states Swift \(readme), the resolved dependencies need \(neededText) (\(why))")
    let gettingStarted = try Self.stated(in: "docs/getting-started.md", #"\(Swift (\d+\.\d+) or later"#)
    #expect(gettingStarted == needed, "docs/getting-started.md states Swift \(gettingStarted), the dependencies need \(neededText) (\(why))")
    let example = try Self.stated(in: "Examples/ShopApp-iOS/README.md", #"\(Swift (\d+\.\d+) or later"#)
    #expect(example == needed, "Examples/ShopApp-iOS/README.md states Swift \(example), the dependencies need \(neededText) (\(why))")
  }

  /// The reading itself: a version-specific manifest lowers what a package needs, never below its name.
  @Test func versionSpecificManifestsAreRead() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackc-toolchain-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try "// swift-tools-version: 6.2\nimport PackageDescription\n".write(
      to: directory.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    #expect(try Self.lowestToolchain(ofPackageAt: directory) == [6, 2])
    try "// swift-tools-version:5.7\n".write(to: directory.appendingPathComponent("Package@swift-5.8.swift"), atomically: true, encoding: .utf8)
    #expect(try Self.lowestToolchain(ofPackageAt: directory) == [5, 8])
  }
}
