import Foundation
import Testing

/// Compares output with a committed reference file.
///
/// `TRACKC_RECORD_GOLDENS=1 swift test` rewrites the references instead, and fails the run while it does,
/// so a recording can never pass for a test.
public enum Golden {
  public static let recordVariable = "TRACKC_RECORD_GOLDENS"

  public static var isRecording: Bool {
    ProcessInfo.processInfo.environment[recordVariable] == "1"
  }

  public static func check(_ actual: String, matches reference: URL, sourceLocation: SourceLocation = #_sourceLocation) {
    if isRecording {
      do {
        try actual.write(to: reference, atomically: true, encoding: .utf8)
        Issue.record("Recorded \(reference.lastPathComponent); unset \(recordVariable) and run the tests again.", sourceLocation: sourceLocation)
      } catch {
        Issue.record("Could not record \(reference.path): \(error)", sourceLocation: sourceLocation)
      }
      return
    }
    guard let expected = try? String(contentsOf: reference, encoding: .utf8) else {
      Issue.record("Missing reference file \(reference.path); run with \(recordVariable)=1 to create it.", sourceLocation: sourceLocation)
      return
    }
    if expected != actual {
      Issue.record(
        "Output differs from \(reference.lastPathComponent) (- expected, + actual):\n\(LineDiff.unified(expected, actual))",
        sourceLocation: sourceLocation)
    }
  }
}

/// A small line diff (longest common subsequence) for readable golden-test failures.
public enum LineDiff {
  public static func unified(_ old: String, _ new: String) -> String {
    let a = old.split(separator: "\n", omittingEmptySubsequences: false)
    let b = new.split(separator: "\n", omittingEmptySubsequences: false)
    var lengths = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
      }
    }
    var output: [String] = []
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      if i < a.count, j < b.count, a[i] == b[j] {
        output.append("  " + a[i])
        i += 1
        j += 1
      } else if j < b.count, i == a.count || lengths[i][j + 1] >= lengths[i + 1][j] {
        output.append("+ " + b[j])
        j += 1
      } else {
        output.append("- " + a[i])
        i += 1
      }
    }
    return output.joined(separator: "\n")
  }
}
