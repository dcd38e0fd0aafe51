import Foundation

/// A fresh directory under the system's temporary directory, removed by `remove()` (call it in a `defer`).
public struct ScratchDirectory: Sendable {
  public let url: URL
  public var path: String { url.path }

  public init(_ label: String = "scratch") throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("trackc-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Writes a file (creating its directories) and returns its path.
  @discardableResult
  public func write(_ relativePath: String, _ text: String) throws -> String {
    try write(relativePath, bytes: Array(text.utf8))
  }

  @discardableResult
  public func write(_ relativePath: String, bytes: [UInt8]) throws -> String {
    let file = url.appendingPathComponent(relativePath)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: file)
    return file.path
  }

  /// Copies a directory of the repository (a fixture) into this one.
  public func copy(_ source: URL, to relativePath: String) throws {
    let destination = url.appendingPathComponent(relativePath)
    try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: source, to: destination)
  }

  public func read(_ relativePath: String) throws -> String {
    try String(contentsOf: url.appendingPathComponent(relativePath), encoding: .utf8)
  }

  public func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// Which file a path names: its inode. A write that replaces a file atomically (a temporary file renamed
/// over it) gives the path a new inode, since the temporary file is created while the old one still
/// exists; a file left alone keeps its own. So "not rewritten" is provable whatever the file system's
/// timestamp resolution (modification times on 1-second file systems would not tell).
public struct FileIdentity: Equatable, Sendable {
  public var inode: UInt64

  public init(_ path: String) throws {
    let number = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber]
    inode = (number as? UInt64) ?? UInt64(truncatingIfNeeded: (number as? Int) ?? -1)
  }
}
