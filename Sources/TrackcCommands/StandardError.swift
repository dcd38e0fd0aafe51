import SystemPackage

/// Findings and messages for people go to standard error, so that standard output holds only what a
/// command produces (a report, a diff, generated text).
package enum StandardError {
  package static func write(_ text: String) {
    _ = try? FileDescriptor.standardError.writeAll(text.utf8)
  }
}
