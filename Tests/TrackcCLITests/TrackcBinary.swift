import Foundation
import TrackcTestSupport

/// The `trackc` executable built alongside the tests (same build directory as the test bundle).
enum TrackcBinary {
  static let path: String = {
    var candidates: [URL] = []
    if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
    }
    // On macOS the tests are a bundle loaded by a runner elsewhere: the bundle sits beside the binary.
    candidates.append(Bundle(for: BundleMarker.self).bundleURL.deletingLastPathComponent())
    candidates.append(Bundle.main.bundleURL)
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
    for directory in candidates {
      let binary = directory.appendingPathComponent("trackc").path
      if FileManager.default.isExecutableFile(atPath: binary) { return binary }
    }
    return candidates[0].appendingPathComponent("trackc").path
  }()

  static func run(_ arguments: String..., in directory: URL = Fixtures.repositoryRoot) throws -> ProcessOutput {
    try ProcessRunner.run(path, arguments, currentDirectory: directory)
  }
}

/// A class of this test target, to find its bundle by.
private final class BundleMarker {}
