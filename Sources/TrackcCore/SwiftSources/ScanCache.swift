#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Scans of single files, keyed by a hash of their content, kept between runs so that a second run
/// over an unchanged tree parses nothing.
///
/// The cache is one file per set of scanned paths (so that linting one app and scanning another do not
/// evict each other's entries); it holds the files of the last scan of that set. It is trusted only
/// when its header names this trackc and this scanner and its checksum matches its content; anything
/// else (an older version, a truncated or edited file, garbage) is ignored, and replaced by the next run.
///
/// Layout: the magic line, then (in the binary form of `BinaryForm.swift`) trackc's version, the scanner version,
/// the body's length and its 128-bit checksum, then the body: the entry count and each entry's content
/// hash and scan.
struct ScanCache: Sendable {
  var entries: [String: FileScan]

  /// Bumped whenever what a scan or a link records, or the binary form they are kept in, changes: it is in
  /// the header of both caches, so an older cache is ignored rather than misread.
  static let scannerVersion = 12
  static let magic = Array("trackc scan cache\n".utf8)
  /// Caches larger than this are not read (a cache of 10,000 files is about 20 MB).
  static let maxBytes = 512 << 20

  /// The cache file of a set of scanned paths (the paths as given, in any order).
  static func fileName(for roots: [String]) -> String {
    var key = roots.sorted().joined(separator: "\u{0}")
    let hash = key.withUTF8 { ContentHash.of($0) }
    return "scans-v\(scannerVersion)-\(hash.prefix(16)).bin"
  }

  /// `.build/trackc-cache` when the working directory is a Swift package, else `$XDG_CACHE_HOME/trackc`
  /// (or `~/.cache/trackc`).
  static func defaultDirectory() -> String {
    if FileSystem.isDirectory(".build") { return ".build/trackc-cache" }
    let environment = ProcessInfo.processInfo.environment
    if let cacheHome = environment["XDG_CACHE_HOME"], cacheHome.hasPrefix("/") { return cacheHome + "/trackc" }
    return (environment["HOME"] ?? "/tmp") + "/.cache/trackc"
  }

  static func load(from directory: String, name: String) -> ScanCache? {
    guard let source = try? ConfigSource.read(path: directory + "/" + name, maxBytes: maxBytes),
      source.fileSize == source.byteCount
    else { return nil }
    return decode(UnsafeRawBufferPointer(source.input.buffer))
  }

  static func decode(_ bytes: UnsafeRawBufferPointer) -> ScanCache? {
    guard let body = CacheFile.body(of: bytes, magic: magic) else { return nil }
    var bodyReader = BinaryReader(body)
    do {
      let count = try bodyReader.count()
      var entries: [String: FileScan] = [:]
      entries.reserveCapacity(count)
      for _ in 0..<count {
        let hash = try bodyReader.string()
        entries[hash] = try FileScan.decodeBinary(from: &bodyReader)
      }
      guard bodyReader.isAtEnd else { return nil }
      return ScanCache(entries: entries)
    } catch {
      return nil
    }
  }

  func encoded() -> [UInt8] {
    var body = BinaryWriter()
    body.int(entries.count)
    for hash in entries.keys.sorted() {
      body.string(hash)
      entries[hash]!.encodeBinary(into: &body)
    }
    return CacheFile.framed(body.bytes, magic: Self.magic)
  }

  /// Writes the cache (atomically: a reader sees the old file or the new one). Failing to write is not an
  /// error; the next run simply scans again.
  func save(to directory: String, name: String) {
    FileSystem.writeIfChanged(encoded(), to: directory + "/" + name)
  }
}

/// The frame both caches are written in: the magic line, trackc's version, the scanner version, the body's
/// length and 128-bit checksum, then the body. A file whose frame does not match is not this trackc's, or
/// is damaged, and is ignored.
enum CacheFile {
  static func framed(_ body: [UInt8], magic: [UInt8]) -> [UInt8] {
    let checksum = body.withUnsafeBytes { ContentHash.digest($0) }
    var header = BinaryWriter(bytes: magic)
    header.string(TrackcVersion.current)
    header.int(ScanCache.scannerVersion)
    header.int(body.count)
    header.int(Int(Int64(bitPattern: checksum.0)))
    header.int(Int(Int64(bitPattern: checksum.1)))
    return header.bytes + body
  }

  /// The body of a framed file, nil unless its frame matches.
  static func body(of bytes: UnsafeRawBufferPointer, magic: [UInt8]) -> UnsafeRawBufferPointer? {
    guard bytes.count >= magic.count, bytes.prefix(magic.count).elementsEqual(magic) else { return nil }
    var reader = BinaryReader(UnsafeRawBufferPointer(rebasing: bytes[magic.count...]))
    guard (try? reader.string()) == TrackcVersion.current, (try? reader.int()) == ScanCache.scannerVersion,
      let length = try? reader.count(), let first = try? reader.int(), let second = try? reader.int()
    else { return nil }
    let bodyStart = magic.count + reader.offset
    guard bodyStart + length == bytes.count else { return nil }
    let body = UnsafeRawBufferPointer(rebasing: bytes[bodyStart...])
    guard ContentHash.digest(body) == (UInt64(bitPattern: Int64(first)), UInt64(bitPattern: Int64(second))) else { return nil }
    return body
  }
}
