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
  /// change), atomically (readers see the old file or the new one). A symbolic link is written through,
  /// and a device or pipe (`/dev/null`, `/dev/stdout`) is written into, never replaced by a file. False
  /// when it cannot be written.
  @discardableResult
  public static func writeIfChanged(_ text: String, to path: String) -> Bool {
    writeIfChanged(Array(text.utf8), to: path)
  }

  @discardableResult
  public static func writeIfChanged(_ bytes: [UInt8], to path: String) -> Bool {
    var path = path
    var status = stat()
    if lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) {
      path = String(cString: resolved)
      free(resolved)
    }
    var mode: mode_t = 0o644
    if stat(path, &status) == 0 {
      switch status.st_mode & S_IFMT {
      case S_IFREG:
        if Int(status.st_size) == bytes.count, let old = try? ConfigSource.read(path: path, maxBytes: bytes.count),
          old.input.buffer.elementsEqual(bytes)
        {
          return true
        }
        mode = status.st_mode & 0o7777
      case S_IFDIR:
        return false
      default:
        return writeInPlace(bytes, to: path)
      }
    }
    let directory = RelativePath.directory(of: path)
    if !directory.isEmpty, !makeDirectories(directory) { return false }
    let temporary = path + ".\(getpid()).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard descriptor >= 0 else { return false }
    let complete = writeAll(bytes, to: descriptor)
    fchmod(descriptor, mode)
    close(descriptor)
    guard complete, rename(temporary, path) == 0 else {
      unlink(temporary)
      return false
    }
    return true
  }

  private static func writeInPlace(_ bytes: [UInt8], to path: String) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return writeAll(bytes, to: descriptor)
  }

  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    bytes.withUnsafeBytes { FileDescriptorIO.writeAll(descriptor, $0) }
  }

  /// The names in a directory (not `.` and `..`), sorted; empty when it cannot be read.
  public static func contentsOfDirectory(_ path: String) -> [String] {
    guard let handle = opendir(path) else { return [] }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  /// Removes a file; false when it could not.
  @discardableResult
  public static func remove(_ path: String) -> Bool {
    unlink(path) == 0
  }

  /// `mkdir -p`.
  public static func makeDirectories(_ path: String) -> Bool {
    if isDirectory(path) { return true }
    let parent = RelativePath.directory(of: path)
    if !parent.isEmpty, !makeDirectories(parent) { return false }
    return mkdir(path, 0o755) == 0 || errno == EEXIST
  }
}
