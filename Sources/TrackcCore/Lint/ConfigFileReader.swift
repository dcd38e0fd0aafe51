#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A config that could not be read at all (as opposed to one that was read and has problems).
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
  public var path: String
  public var reason: String

  public var description: String { "cannot read '\(path)': \(reason)" }
}

extension ConfigSource {
  /// Reads a config from disk, stopping after `maxBytes + 1` bytes so that a huge file (or a device that
  /// never ends) costs no more than the limit; `fileSize` still tells how large the file really is.
  public static func read(path: String, maxBytes: Int = LintOptions.defaultMaxConfigBytes) throws(InputError) -> ConfigSource {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw InputError(path: path, reason: Self.errorText(errno)) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw InputError(path: path, reason: Self.errorText(errno)) }
    if (status.st_mode & S_IFMT) == S_IFDIR { throw InputError(path: path, reason: "it is a directory") }
    let reportedSize = (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : 0
    // A regular file over the limit is not read at all; its size is all the linter needs to report.
    if reportedSize > maxBytes { return ConfigSource(path: path, bytes: [], fileSize: reportedSize) }

    let cap = maxBytes + 1
    var bytes = [UInt8](repeating: 0, count: min(cap, max(reportedSize, 4096)))
    var count = 0
    while count < cap {
      if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(cap - count, max(count, 4096)))) }
      let read = bytes.withUnsafeMutableBytes { buffer in
        Glue.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
      }
      if read < 0 {
        if errno == EINTR { continue }
        throw InputError(path: path, reason: Self.errorText(errno))
      }
      if read == 0 { break }
      count += read
    }
    bytes.removeSubrange(count...)
    return ConfigSource(path: path, bytes: bytes, fileSize: max(reportedSize, count))
  }

  private static func errorText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }
}

/// The C library's `read`, named apart from the many `read`s in scope.
private enum Glue {
  static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc) || canImport(Musl)
      return Glibc.read(descriptor, buffer, count)
    #else
      return Darwin.read(descriptor, buffer, count)
    #endif
  }
}
