#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few file operations the commands need, over POSIX.
public enum FileSystem {
  public static func exists(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0
  }

  public static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }

  /// The file's text, or nil when it cannot be read.
  public static func read(_ path: String) -> String? {
    guard let source = try? ConfigSource.read(path: path, maxBytes: 256 << 20), source.fileSize == source.byteCount else { return nil }
    return String(decoding: source.input.buffer, as: UTF8.self)
  }

  /// Writes `text` unless the file already holds exactly it (so that build systems and editors see no
  /// change), atomically (readers see the old file or the new one). False when it cannot be written.
  @discardableResult
  public static func writeIfChanged(_ text: String, to path: String) -> Bool {
    if read(path) == text { return true }
    let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    if !directory.isEmpty, !makeDirectories(directory) { return false }
    let temporary = path + ".\(getpid()).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return false }
    var text = text
    let complete = text.withUTF8 { bytes -> Bool in
      var offset = 0
      while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written <= 0 { return false }
        offset += written
      }
      return true
    }
    close(descriptor)
    guard complete, rename(temporary, path) == 0 else {
      unlink(temporary)
      return false
    }
    return true
  }

  /// `mkdir -p`.
  public static func makeDirectories(_ path: String) -> Bool {
    if isDirectory(path) { return true }
    let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    if !parent.isEmpty, !makeDirectories(parent) { return false }
    return mkdir(path, 0o755) == 0 || errno == EEXIST
  }
}
