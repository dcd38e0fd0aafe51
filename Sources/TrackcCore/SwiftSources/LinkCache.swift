import SystemPackage

/// What a file's status says about its content without reading it, as git's index keeps it: size,
/// modification and status-change times (nanoseconds), inode and device. A file whose stamp is unchanged
/// since the last run has the content it had then, unless it was changed within the same timestamp tick
/// as that run wrote the cache ("racy"), which `LinkCache` checks by hashing those files again.
struct FileStamp: Sendable, Hashable {
  var size: Int
  var modified: Int64
  var changed: Int64
  var inode: UInt64
  var device: UInt64

  init(size: Int, modified: Int64, changed: Int64, inode: UInt64, device: UInt64) {
    self.size = size
    self.modified = modified
    self.changed = changed
    self.inode = inode
    self.device = device
  }

  init(_ status: Stat) {
    size = Int(status.size)
    modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    changed = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
    inode = UInt64(truncatingIfNeeded: status.inode.rawValue)
    device = UInt64(truncatingIfNeeded: status.deviceID.rawValue)
  }
}

/// The last link of a set of scanned paths, kept between runs: each file's stamp and content hash, and
/// the registry and problems the link gave, under a key made of its inputs (every file's path, module
/// and content hash, and what the link recorded). A run whose files all have their old stamps knows
/// their hashes without reading them; when the key is then the same, the linked registry is read back
/// instead of the scans being loaded and linked again. That is a warm lint over an unchanged tree: find
/// the files, compare stamps, read one file.
///
/// Trusted like the scan cache: only with this trackc's and this scanner's versions and a matching
/// checksum; anything else is ignored and replaced. The registry part is decoded only when it is used.
///
/// Layout: the magic line, trackc's version, the scanner version, the body's length and 128-bit
/// checksum; the body: the entries (path, stamp, hash), the key, the problems, then the registry
/// (`FieldRecord`'s binary form).
struct LinkCache: Sendable {
  struct Entry: Sendable {
    var path: String
    var stamp: FileStamp
    /// The content hash (`ContentHash`); empty when the file could not be read.
    var hash: String
  }

  var entries: [Entry]
  /// `SourceScanner.linkKey` of the inputs the registry was linked from.
  var key: String
  /// The problems of the scan and the link (not the finder's, which each run finds again).
  var problems: [SourceProblem]
  /// The registry's bytes, decoded by `registry()`.
  private var registryBytes: [UInt8]
  /// The cache file's own modification time when it was read: a file modified at or after it may have
  /// changed within the tick the cache was written in ("racy"), so its stamp alone is not trusted.
  var writtenAt: Int64 = .max

  static let magic = Array("trackc link cache\n".utf8)
  /// Caches larger than this are not read.
  static let maxBytes = 512 << 20

  init(entries: [Entry], key: String, problems: [SourceProblem], registry: HandlerRegistry) {
    self.entries = entries
    self.key = key
    self.problems = problems
    var writer = BinaryWriter()
    registry.encodeBinary(into: &writer)
    registryBytes = writer.bytes
  }

  private init(entries: [Entry], key: String, problems: [SourceProblem], registryBytes: [UInt8]) {
    self.entries = entries
    self.key = key
    self.problems = problems
    self.registryBytes = registryBytes
  }

  /// The cache file of a set of scanned paths (beside the scan cache, named by the same key).
  static func fileName(for roots: [String]) -> String {
    "links-" + ScanCache.fileName(for: roots).dropFirst("scans-".count)
  }

  /// The linked registry, or nil when its bytes are damaged (checked by the checksum, so only a bug
  /// would make them so).
  func registry() -> HandlerRegistry? {
    registryBytes.withUnsafeBytes { HandlerRegistry.decodeBinary($0) }
  }

  static func load(from directory: String, name: String) -> LinkCache? {
    let path = directory + "/" + name
    guard let source = try? ConfigSource.read(path: path, maxBytes: maxBytes), source.fileSize == source.byteCount,
      let status = try? Stat(path)
    else { return nil }
    guard var cache = decode(UnsafeRawBufferPointer(source.input.buffer)) else { return nil }
    cache.writtenAt = FileStamp(status).modified
    return cache
  }

  static func decode(_ bytes: UnsafeRawBufferPointer) -> LinkCache? {
    guard let body = CacheFile.body(of: bytes, magic: magic) else { return nil }
    do {
      var bodyReader = BinaryReader(body)
      let entries = try bodyReader.array { (reader: inout BinaryReader) throws(MalformedBytes) in
        Entry(
          path: try reader.string(),
          stamp: FileStamp(
            size: try reader.int(), modified: Int64(try reader.int()), changed: Int64(try reader.int()),
            inode: UInt64(bitPattern: Int64(try reader.int())), device: UInt64(bitPattern: Int64(try reader.int()))),
          hash: try reader.string())
      }
      let key = try bodyReader.string()
      let problems = try bodyReader.array { (reader: inout BinaryReader) throws(MalformedBytes) in
        let file = try reader.string()
        let line = try reader.int()
        let column = try reader.int()
        return SourceProblem(try reader.string(), at: SourceLocation(file: file, line: line, column: column))
      }
      let rest = Array(UnsafeRawBufferPointer(rebasing: body[bodyReader.offset...]))
      return LinkCache(entries: entries, key: key, problems: problems, registryBytes: rest)
    } catch {
      return nil
    }
  }

  func encoded() -> [UInt8] {
    var body = BinaryWriter()
    body.array(entries) { writer, entry in
      writer.string(entry.path)
      writer.int(entry.stamp.size)
      writer.int(Int(entry.stamp.modified))
      writer.int(Int(entry.stamp.changed))
      writer.int(Int(Int64(bitPattern: entry.stamp.inode)))
      writer.int(Int(Int64(bitPattern: entry.stamp.device)))
      writer.string(entry.hash)
    }
    body.string(key)
    body.array(problems) { writer, problem in
      writer.string(problem.location.file)
      writer.int(problem.location.range.start.line)
      writer.int(problem.location.range.start.column)
      writer.string(problem.message)
    }
    body.bytes += registryBytes
    return CacheFile.framed(body.bytes, magic: Self.magic)
  }

  /// Writes the cache (atomically). Failing to write is not an error; the next run links again.
  func save(to directory: String, name: String) {
    FileSystem.writeIfChanged(encoded(), to: directory + "/" + name)
  }
}
