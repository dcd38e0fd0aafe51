import SystemPackage

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The few file operations the commands need: FileManager for directories, swift-system for
/// descriptors and `stat`.
public enum FileSystem {
  public static func exists(_ path: String) -> Bool {
    (try? Stat(path)) != nil
  }

  public static func isDirectory(_ path: String) -> Bool {
    (try? Stat(path))?.type == .directory
  }

  /// The file's text, or nil when it cannot be read.
  public static func read(_ path: String) -> String? {
    guard let source = try? ConfigSource.read(path: path, maxBytes: 256 << 20), source.fileSize == source.byteCount else { return nil }
    return String(decoding: source.input.buffer, as: UTF8.self)
  }

  /// What `write` did.
  public enum WriteOutcome: Equatable, Sendable {
    /// The file already held exactly these bytes: nothing was written.
    case unchanged
    case written
    case failed
  }

  /// Writes `text` unless the file already holds exactly it (so that build systems and editors see no
  /// change), atomically (readers see the old file or the new one). A symbolic link is written through,
  /// and a device or pipe (`/dev/null`, `/dev/stdout`) is written into, never replaced by a file. False
  /// when it cannot be written.
  @discardableResult
  public static func writeIfChanged(_ text: String, to path: String) -> Bool {
    write(Array(text.utf8), to: path) != .failed
  }

  @discardableResult
  public static func writeIfChanged(_ bytes: [UInt8], to path: String) -> Bool {
    write(bytes, to: path) != .failed
  }

  /// `writeIfChanged`, saying whether it wrote.
  public static func write(_ bytes: [UInt8], to path: String) -> WriteOutcome {
    var path = path
    if let link = try? Stat(path, followTargetSymlink: false), link.type == .symbolicLink {
      path = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
    var permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]
    if let status = try? Stat(path) {
      switch status.type {
      case .regular:
        if Int(status.size) == bytes.count, let old = try? ConfigSource.read(path: path, maxBytes: bytes.count),
          old.input.buffer.elementsEqual(bytes)
        {
          return .unchanged
        }
        permissions = status.permissions
      case .directory:
        return .failed
      default:
        return writeInPlace(bytes, to: path) ? .written : .failed
      }
    }
    let directory = RelativePath.directory(of: path)
    if !directory.isEmpty, !makeDirectories(directory) { return .failed }
    let temporary = path + ".\(ProcessInfo.processInfo.processIdentifier).tmp"
    do {
      let file = try FileDescriptor.open(
        temporary, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: permissions)
      try file.closeAfter { _ = try file.writeAll(bytes) }
      // The old file's permissions, whatever the umask took from them at creation.
      try FileManager.default.setAttributes([.posixPermissions: Int(permissions.rawValue)], ofItemAtPath: temporary)
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      return .failed
    }
    guard Platform.replace(path, with: temporary) else {
      try? FileManager.default.removeItem(atPath: temporary)
      return .failed
    }
    return .written
  }

  private static func writeInPlace(_ bytes: [UInt8], to path: String) -> Bool {
    do {
      let file = try FileDescriptor.open(path, .writeOnly, options: [.closeOnExec])
      try file.closeAfter { _ = try file.writeAll(bytes) }
      return true
    } catch {
      return false
    }
  }

  /// The names in a directory (not `.` and `..`), sorted; empty when it cannot be read.
  public static func contentsOfDirectory(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  /// Removes a file (not a directory); false when it could not.
  @discardableResult
  public static func remove(_ path: String) -> Bool {
    guard let status = try? Stat(path, followTargetSymlink: false), status.type != .directory else { return false }
    return (try? FileManager.default.removeItem(atPath: path)) != nil
  }

  /// `mkdir -p`.
  public static func makeDirectories(_ path: String) -> Bool {
    if isDirectory(path) { return true }
    return (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil || isDirectory(path)
  }
}
