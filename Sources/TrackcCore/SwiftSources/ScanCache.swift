#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Scans of single files, keyed by a hash of their content, kept between runs so that a second run
/// over an unchanged tree parses nothing.
///
/// The cache is one file per set of scanned paths (so that linting one app and scanning another do not
/// evict each other's entries); it holds the files of the last scan of that set. It is trusted only when its header names this trackc and this scanner and its
/// checksum matches its content; anything else (an older version, a truncated or edited file, garbage)
/// is ignored, and replaced by the next run.
struct ScanCache: Sendable {
  var entries: [String: FileScan]

  /// Bumped whenever what a scan records changes.
  static let scannerVersion = 1

  /// The cache file of a set of scanned paths (the paths as given, in any order).
  static func fileName(for roots: [String]) -> String {
    var key = roots.sorted().joined(separator: "\u{0}")
    let hash = key.withUTF8 { ContentHash.of($0) }
    return "scans-v\(scannerVersion)-\(hash.prefix(16)).json"
  }

  private struct Envelope: Codable {
    var trackc: String
    var scanner: Int
    /// A hash of `payload`, so that a damaged file is not trusted.
    var checksum: String
    var payload: String
  }

  /// `.build/trackc-cache` when the working directory is a Swift package, else `$XDG_CACHE_HOME/trackc`
  /// (or `~/.cache/trackc`).
  static func defaultDirectory() -> String {
    var status = stat()
    if stat(".build", &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR { return ".build/trackc-cache" }
    let environment = ProcessInfo.processInfo.environment
    if let cacheHome = environment["XDG_CACHE_HOME"], cacheHome.hasPrefix("/") { return cacheHome + "/trackc" }
    return (environment["HOME"] ?? "/tmp") + "/.cache/trackc"
  }

  static func load(from directory: String, name: String) -> ScanCache? {
    guard let source = try? ConfigSource.read(path: directory + "/" + name, maxBytes: 512 << 20),
      source.fileSize == source.byteCount,
      let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(source.input.buffer)),
      envelope.trackc == TrackcVersion.current, envelope.scanner == scannerVersion
    else { return nil }
    var payload = envelope.payload
    guard payload.withUTF8({ ContentHash.of($0) }) == envelope.checksum,
      let entries = try? JSONDecoder().decode([String: FileScan].self, from: Data(payload.utf8))
    else { return nil }
    return ScanCache(entries: entries)
  }

  /// Writes the cache (atomically: a reader sees the old file or the new one). Failing to write is not an
  /// error; the next run simply scans again.
  func save(to directory: String, name: String) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let payloadData = try? encoder.encode(entries) else { return }
    var payload = String(decoding: payloadData, as: UTF8.self)
    let checksum = payload.withUTF8 { ContentHash.of($0) }
    let envelope = Envelope(trackc: TrackcVersion.current, scanner: Self.scannerVersion, checksum: checksum, payload: payload)
    guard let data = try? encoder.encode(envelope) else { return }
    FileSystem.writeIfChanged(String(decoding: data, as: UTF8.self), to: directory + "/" + name)
  }
}
