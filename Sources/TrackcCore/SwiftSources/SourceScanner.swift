import SystemPackage

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where the Swift sources to check come from.
public enum SwiftSourceSet: Sendable {
  /// Files and directories on disk (directories are searched for `.swift` files).
  case paths([String])
  /// Files in memory: path and contents (tests, editors).
  case files([(path: String, text: String)])
}

public struct ScanOptions: Sendable {
  /// Every file belongs to this module, whatever its path says.
  public var module: String?
  /// Where scans are cached by file content; nil for the default (`.build/trackc-cache`, or
  /// `$XDG_CACHE_HOME/trackc`).
  public var cacheDirectory: String?
  public var useCache = true
  /// Files larger than this are not scanned (and reported).
  public var maxFileBytes = 8 << 20
  /// Where files are parsed; the command line isolates parsing in worker processes.
  public var isolation = ParseIsolation.inProcess
  /// With worker processes, a file whose parse takes longer than this is given up (and reported).
  public var fileTimeLimit = Duration.seconds(30)
  /// Each type's properties and initializers go into the registry (`trackc scan` writes them); lint leaves
  /// them out (nil: the registry does not say) when its plan binds nothing and declares no entry point,
  /// since linking them costs a tenth of a warm lint over a large tree and nothing would read them.
  public var recordsMembers = true
  /// Called with each phase's name and duration (`--timings`).
  public var phaseObserver: (@Sendable (String, Duration) -> Void)?

  public init(module: String? = nil, cacheDirectory: String? = nil, useCache: Bool = true) {
    self.module = module
    self.cacheDirectory = cacheDirectory
    self.useCache = useCache
  }
}

public struct ScanResult: Sendable {
  public var registry: HandlerRegistry
  /// Problems with the sources: unreadable or invalid files (the `swift-source` rule words them as
  /// diagnostics: `ScanResult.diagnostics`).
  public var problems: [SourceProblem]
  public var fileCount: Int
  /// Files whose scan came from the cache.
  public var cachedCount: Int
  /// Files that could not be read (unreadable, too large, or their parse crashed or ran past the time
  /// limit in a worker process): a caller that parses the sources itself leaves them alone.
  public var unreadFiles: Set<String> = []
}

/// Builds the registry of declared handlers from Swift sources: finds the files, parses them in parallel
/// on all cores with swift-syntax (reusing cached scans of unchanged contents), and links the results.
public enum SourceScanner {
  public static func scan(_ sources: SwiftSourceSet, options: ScanOptions = ScanOptions()) -> ScanResult {
    var clock = PhaseClock(observer: options.phaseObserver)
    var problems: [SourceProblem] = []
    var inputs: [Input]
    let cacheName: String
    var linkCacheName: String?
    switch sources {
    case .paths(let paths):
      cacheName = ScanCache.fileName(for: paths)
      linkCacheName = LinkCache.fileName(for: paths)
      var found = SwiftFileFinder()
      for path in paths { found.add(path) }
      problems += found.problems
      inputs = found.files.map { Input(path: $0.path, text: nil, size: $0.stamp.size, stamp: $0.stamp) }
    case .files(let files):
      cacheName = ScanCache.fileName(for: files.map(\.path))
      inputs = files.sorted { UTF8Order.less($0.path, $1.path) }.map { Input(path: $0.path, text: $0.text, size: $0.text.utf8.count) }
    }
    clock.lap("find \(inputs.count) Swift files")
    let cacheDirectory = options.cacheDirectory ?? ScanCache.defaultDirectory()

    // Files whose stamps are those of the last run have the content hashed then: they are not read.
    var linkCache: LinkCache?
    if options.useCache, let linkCacheName, let cached = LinkCache.load(from: cacheDirectory, name: linkCacheName) {
      linkCache = cached
      knownHashes(&inputs, from: cached, maxBytes: options.maxFileBytes)
      clock.lap("compare stamps (\(inputs.lazy.filter { $0.knownHash != nil }.count) of \(inputs.count) unchanged)")
      if inputs.allSatisfy({ $0.knownHash != nil }) {
        let key = linkKey(inputs.map { $0.knownHash! }, inputs, options: options)
        if cached.key == key, let registry = cached.registry() {
          clock.lap("read the linked registry (\(registry.types.count) types)")
          return ScanResult(
            registry: registry, problems: (problems + cached.problems).sorted { $0.location < $1.location }, fileCount: inputs.count,
            cachedCount: inputs.count,
            unreadFiles: Set(cached.entries.filter { $0.hash.hasPrefix("!") }.map(\.path)).union(unread(cached.problems)))
        }
      }
    }

    let modules = inputs.map { options.module ?? moduleName(forPath: $0.path) }
    let cache = options.useCache ? ScanCache.load(from: cacheDirectory, name: cacheName) : nil
    clock.lap("load the cache (\(cache?.entries.count ?? 0) entries)")
    let results = scanFiles(inputs, cache: cache, options: options, clock: &clock)

    var files: [RegistryLinker.File] = []
    var cachedCount = 0
    var newEntries: [String: FileScan] = [:]
    var hashes: [String] = []
    var scanProblems: [SourceProblem] = []
    var unreadFiles = Set<String>()
    for (position, (input, result)) in zip(inputs, results).enumerated() {
      switch result {
      case .failure(let failure):
        unreadFiles.insert(input.path)
        scanProblems.append(SourceProblem(failure.reason, at: SourceLocation(file: input.path, line: 1, column: 1)))
        hashes.append("!" + failure.reason)
      case .success(let scanned):
        if scanned.fromCache { cachedCount += 1 }
        if let hash = scanned.hash { newEntries[hash] = scanned.scan }
        hashes.append(scanned.hash ?? "")
        files.append(RegistryLinker.File(path: input.path, module: modules[position], scan: scanned.scan))
      }
    }
    if options.useCache, cachedCount < files.count || cache?.entries.count != newEntries.count {
      ScanCache(entries: newEntries).save(to: cacheDirectory, name: cacheName)
      clock.lap("save the cache")
    }
    let linked = RegistryLinker.link(files, members: options.recordsMembers)
    clock.lap("link \(linked.registry.types.count) types")
    let linkedProblems = scanProblems + linked.problems
    if options.useCache, let linkCacheName, !hashes.contains(""), inputs.allSatisfy({ $0.stamp != nil }) {
      let entries = zip(inputs, hashes).map { LinkCache.Entry(path: $0.path, stamp: $0.stamp!, hash: $1) }
      let key = linkKey(hashes, inputs, options: options)
      if linkCache?.key != key || linkCache?.entries.map(\.stamp) != entries.map(\.stamp) {
        LinkCache(entries: entries, key: key, problems: linkedProblems, registry: linked.registry).save(to: cacheDirectory, name: linkCacheName)
        clock.lap("save the linked registry")
      }
    }
    return ScanResult(
      registry: linked.registry, problems: (problems + linkedProblems).sorted { $0.location < $1.location },
      fileCount: inputs.count, cachedCount: cachedCount, unreadFiles: unreadFiles.union(unread(linkedProblems)))
  }

  /// The files a problem says were not read (a worker's crash or timeout, kept in the cache as a scan).
  private static func unread(_ problems: [SourceProblem]) -> Set<String> {
    Set(problems.filter { $0.message.hasSuffix(ScanFailure.notRead) }.map(\.location.file))
  }

  /// A file modified this close before the link cache was written may have changed within the
  /// timestamp tick it was read in (file systems keep times as coarse as 1 s): it is hashed again.
  static let racyWindow: Int64 = 2_000_000_000

  /// Marks the inputs whose stamp is the one the link cache recorded for their path with its hash.
  /// Racily clean files (`racyWindow`) are read and hashed here, and their hash compared.
  private static func knownHashes(_ inputs: inout [Input], from cache: LinkCache, maxBytes: Int) {
    var byPath: [String: LinkCache.Entry] = [:]
    byPath.reserveCapacity(cache.entries.count)
    for entry in cache.entries { byPath[entry.path] = entry }
    var racy: [Int] = []
    for index in inputs.indices {
      guard let stamp = inputs[index].stamp, let entry = byPath[inputs[index].path], entry.stamp == stamp else {
        continue
      }
      if stamp.modified + racyWindow >= cache.writtenAt || stamp.changed + racyWindow >= cache.writtenAt {
        racy.append(index)
      } else {
        inputs[index].knownHash = entry.hash
      }
    }
    for index in racy {
      guard case .success(let bytes) = read(path: inputs[index].path, text: nil, maxBytes: maxBytes) else { continue }
      let hash = ContentHash.of(bytes.buffer)
      if hash == byPath[inputs[index].path]?.hash { inputs[index].knownHash = hash }
    }
  }

  /// What a link depends on: every file's path and content hash (in order), the module option (each
  /// file's module is its path's, or that), and what the link records. Equal keys link to equal registries.
  private static func linkKey(_ hashes: [String], _ inputs: [Input], options: ScanOptions) -> String {
    var key = "\(options.recordsMembers)\u{0}\(options.module ?? "\u{1}")\u{0}"
    key.reserveCapacity(inputs.count * 96)
    for (index, input) in inputs.enumerated() {
      key += input.path
      key += "\u{0}"
      key += hashes[index]
      key += "\u{0}"
    }
    return key.withUTF8 { ContentHash.of($0) }
  }

  /// The module of a file in the SwiftPM layout: the directory under the last `Sources` (or `Tests`) of
  /// the path with its `.` and `..` taken away (a plan in `Sources/AppTracking/` names its feature modules
  /// `../Home`: `Sources/AppTracking/../Home/File.swift` is in `Home`).
  public static func moduleName(forPath path: String) -> String? {
    var components: [String] = []
    for component in path.split(separator: "/") {
      if component == "." { continue }
      if component == "..", let last = components.last, last != ".." {
        components.removeLast()
        continue
      }
      components.append(String(component))
    }
    guard let index = components.dropLast().lastIndex(where: { $0 == "Sources" || $0 == "Tests" }),
      index + 1 < components.count - 1
    else { return nil }
    return components[index + 1]
  }

  private struct Input: Sendable {
    var path: String
    var text: String?
    var size: Int
    /// Its stamp, for files on disk.
    var stamp: FileStamp? = nil
    /// Its content hash, when its stamp says it is unchanged since the link cache was written.
    var knownHash: String? = nil
  }

  private struct Scanned: Sendable {
    var scan: FileScan
    /// The content hash, the scan's cache key.
    var hash: String?
    var fromCache: Bool
  }

  /// Every file's scan, from the cache or parsed, in the order of `inputs`. Reading, hashing and cache
  /// lookups run here on all cores; parsing runs here too or in worker processes (`ParseIsolation`).
  private static func scanFiles(
    _ inputs: [Input], cache: ScanCache?, options: ScanOptions, clock: inout PhaseClock
  ) -> [Result<Scanned, ScanFailure>] {
    let parseHere = options.isolation == .inProcess
    // With nothing cached, nothing is worth hashing here: the workers read the files and hash them.
    if !parseHere, cache?.entries.isEmpty ?? true, !inputs.contains(where: { $0.knownHash != nil }) {
      return parseInWorkers(inputs, lookups: inputs.map { _ in Lookup.parse(hash: nil) }, options: options, clock: &clock)
    }
    let chunks = Parallel.ranges(count: inputs.count, minimumSize: 4)
    let lookups = Parallel.map(chunks.count) { chunk in
      chunks[chunk].map { index -> Lookup in
        if let hash = inputs[index].knownHash, let cached = cache?.entries[hash] {
          return .done(.success(Scanned(scan: cached, hash: hash, fromCache: true)))
        }
        let bytes: InputBytes
        switch read(path: inputs[index].path, text: inputs[index].text, maxBytes: options.maxFileBytes) {
        case .failure(let failure): return .done(.failure(failure))
        case .success(let read): bytes = read
        }
        let hash = ContentHash.of(bytes.buffer)
        if let cached = cache?.entries[hash] { return .done(.success(Scanned(scan: cached, hash: hash, fromCache: true))) }
        guard parseHere else { return .parse(hash: hash) }
        return .done(.success(Scanned(scan: SwiftFileScanner.scan(bytes.buffer), hash: hash, fromCache: false)))
      }
    }.flatMap { $0 }
    clock.lap(parseHere ? "read, hash and parse (in process)" : "read and hash")

    return parseInWorkers(inputs, lookups: lookups, options: options, clock: &clock)
  }

  private enum Lookup {
    case done(Result<Scanned, ScanFailure>)
    /// Not in the cache; to be parsed in a worker. The hash is nil when there was no cache to look in.
    case parse(hash: String?)
  }

  /// Parses the files still to be parsed in worker processes (see `ParseIsolation`).
  private static func parseInWorkers(
    _ inputs: [Input], lookups: [Lookup], options: ScanOptions, clock: inout PhaseClock
  ) -> [Result<Scanned, ScanFailure>] {
    var lookups = lookups
    if case .workerProcesses(let executable) = options.isolation {
      let misses = lookups.indices.filter { if case .parse = lookups[$0] { true } else { false } }
      let requests = misses.map {
        ScanWorker.Request(path: inputs[$0].text == nil ? inputs[$0].path : nil, text: inputs[$0].text, maxBytes: options.maxFileBytes)
      }
      let parsed = WorkerPool.parse(
        requests, sizes: misses.map { inputs[$0].size }, executable: executable, workers: Parallel.coreCount,
        timeLimit: options.fileTimeLimit)
      clock.lap("parse \(requests.count) files in worker processes")
      for (index, result) in zip(misses, parsed) {
        guard case .parse(let knownHash) = lookups[index] else { continue }
        switch result {
        case .success(let parsed): lookups[index] = .done(.success(Scanned(scan: parsed.scan, hash: parsed.hash, fromCache: false)))
        case .failure(let failure):
          // A crash or a timeout is a property of the content: it is cached like a scan, so that the next
          // run reports it at once instead of waiting out the time limit again.
          let problem = ScanProblem(line: 1, column: 1, message: failure.reason)
          let hash =
            knownHash
            ?? (try? read(path: inputs[index].path, text: inputs[index].text, maxBytes: options.maxFileBytes).get())
            .map { ContentHash.of($0.buffer) }
          lookups[index] = .done(.success(Scanned(scan: FileScan(problems: [problem]), hash: hash, fromCache: false)))
        }
      }
    }
    return lookups.map {
      guard case .done(let result) = $0 else { return .failure(ScanFailure(reason: "the file was not parsed")) }
      return result
    }
  }

  /// A file's bytes, or why they cannot be scanned.
  static func read(path: String, text: String?, maxBytes: Int) -> Result<InputBytes, ScanFailure> {
    if let text { return .success(InputBytes(Array(text.utf8))) }
    do {
      let source = try ConfigSource.read(path: path, maxBytes: maxBytes)
      guard source.fileSize <= maxBytes else {
        return .failure(
          ScanFailure(
            reason:
              "the file is \(ByteCountText.describe(source.fileSize)), over the \(ByteCountText.describe(maxBytes)) scanned per file; it was not read"
          ))
      }
      return .success(source.input)
    } catch {
      return .failure(ScanFailure(reason: "cannot read the file: \(error.reason)"))
    }
  }
}

/// Finds `.swift` files under the given paths, in a stable order, following symbolic links without
/// looping (each directory is entered once) and skipping hidden directories (`.build`, `.git`).
struct SwiftFileFinder {
  /// The files found, sorted, with their stamps (sizes among them).
  private(set) var files: [(path: String, stamp: FileStamp)] = []
  private(set) var problems: [SourceProblem] = []
  private var visitedDirectories = Set<FileIdentity>()
  private var seenFiles = Set<FileIdentity>()

  private struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  mutating func add(_ path: String) {
    let status: Stat
    do {
      status = try Stat(path)
    } catch {
      problems.append(
        SourceProblem("cannot read the sources at '\(path)': \(error)", at: SourceLocation(file: path, line: 1, column: 1)))
      return
    }
    if status.type == .directory {
      walk(path, status)
    } else if seenFiles.insert(identity(status)).inserted {
      files.append((path, FileStamp(status)))
    }
    files.sort { UTF8Order.less($0.path, $1.path) }
  }

  private func identity(_ status: Stat) -> FileIdentity {
    FileIdentity(device: UInt64(truncatingIfNeeded: status.deviceID.rawValue), inode: UInt64(truncatingIfNeeded: status.inode.rawValue))
  }

  private mutating func walk(_ directory: String, _ status: Stat) {
    guard visitedDirectories.insert(identity(status)).inserted,
      let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
    else { return }
    // Entries are looked up in the open directory, not by their whole path from the root each time.
    let handle = try? FileDescriptor.open(FilePath(directory), .readOnly, options: [.directory])
    defer { try? handle?.close() }
    for name in names.sorted(by: UTF8Order.less) where !name.hasPrefix(".") {
      let path = directory == "." ? name : (directory.hasSuffix("/") ? directory + name : directory + "/" + name)
      let found: Stat?
      if let handle { found = try? Stat(FilePath(name), relativeTo: handle, flags: []) } else { found = try? Stat(path) }
      guard let child = found else { continue }  // a dangling link
      if child.type == .directory {
        walk(path, child)
      } else if child.type == .regular, name.hasSuffix(".swift"), seenFiles.insert(identity(child)).inserted {
        files.append((path, FileStamp(child)))
      }
    }
  }
}

/// A stable 128-bit hash of a file's content (and its length), the key of its cached scan: two lanes of
/// xxHash64's round over 8-byte words, each with its own seed and finalisation. Not for security: only so
/// that a changed file is never taken for its old self (each lane is a bijection of its state per word,
/// so two contents of one length that differ in a single word never collide).
///
/// Hand-written because no package fits. The standard one in the mirror, swift-crypto's SHA256, measured
/// on the scan benchmark's 1,056 files (13.5 MB), release build, on the 2-core development machine (whose
/// CPU has SHA extensions): 7.1 ms a pass against 2.7 ms for this (1.9 against 5.0 GB/s), on a warm
/// lint that takes about 60 ms; slower still on CPUs without them. And it brings BoringSSL into every
/// Linux build of trackc (a release build of a one-file package using it: 2 min 23 s here).
enum ContentHash {
  static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    let (first, second) = digest(UnsafeRawBufferPointer(bytes))
    return hex(first) + hex(second) + hex(UInt64(bytes.count))
  }

  static func digest(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
    let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    var first: UInt64 = 0x6A09_E667_F3BC_C908 ^ UInt64(bytes.count)
    var second: UInt64 = 0xBB67_AE85_84CA_A73B &+ UInt64(bytes.count)
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      first = rotate(first &+ word &* prime2, 31) &* prime1
      second = rotate(second ^ (word &* prime1), 27) &* prime2 &+ prime3
      offset += 8
    }
    while offset < bytes.count {
      let byte = UInt64(bytes[offset])
      first = rotate(first ^ (byte &* prime3), 11) &* prime1
      second = rotate(second &+ (byte &* prime1), 23) &* prime2
      offset += 1
    }
    return (avalanche(first), avalanche(second ^ first))
  }

  private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
    (value << count) | (value >> (64 - count))
  }

  private static func avalanche(_ value: UInt64) -> UInt64 {
    var value = value
    value ^= value >> 33
    value &*= 0xC2B2_AE3D_27D4_EB4F
    value ^= value >> 29
    value &*= 0x1656_67B1_9E37_79F9
    value ^= value >> 32
    return value
  }

  static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
