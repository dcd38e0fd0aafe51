import Foundation

/// An executable of this package, built alongside the tests (same build directory as the test bundle).
public enum BuiltExecutable {
  public static func path(named name: String) -> String {
    var candidates: [URL] = []
    if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
    }
    candidates.append(Bundle.main.bundleURL)
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
    for directory in candidates {
      let binary = directory.appendingPathComponent(name).path
      if FileManager.default.isExecutableFile(atPath: binary) { return binary }
    }
    return candidates[0].appendingPathComponent(name).path
  }
}
