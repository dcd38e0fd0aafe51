import Foundation

/// An executable of this package, built alongside the tests (same build directory as the test bundle).
public enum BuiltExecutable {
  public static func path(named name: String) -> String {
    var candidates: [URL] = []
    if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
    }
    // On macOS the tests are a bundle loaded by a runner elsewhere: the bundle sits beside the binary.
    candidates.append(Bundle(for: BundleMarker.self).bundleURL.deletingLastPathComponent())
    candidates.append(Bundle.main.bundleURL)
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
    for directory in candidates {
      let binary = directory.appendingPathComponent(name).path
      if FileManager.default.isExecutableFile(atPath: binary) { return binary }
    }
    return candidates[0].appendingPathComponent(name).path
  }
}

/// A class of the test support module, to find the test bundle by.
private final class BundleMarker {}
