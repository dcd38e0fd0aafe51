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

/// The worker side of `ParseIsolation.workerProcesses`: parses the files it is asked for, one request
/// per line of standard input (JSON: small), one answer per frame on standard output (a 4-byte length,
/// then `ScanCodec`'s binary form: large), until its input ends.
public enum ScanWorker {
  /// The hidden subcommand that runs a worker.
  public static let commandName = "_scan-worker"
  /// A worker's address space is capped, so that a runaway allocation ends the worker, not the machine.
  static let addressSpaceLimit: UInt64 = 4 << 30

  struct Request: Codable {
    /// The file to read, or nil when `text` is given.
    var path: String?
    var text: String?
    var maxBytes: Int
  }

  struct Response {
    /// The scan and the content hash of what was read (the cache key).
    var scan: FileScan?
    var hash: String?
    var failure: String?

    /// The frame's payload: 0, the hash and the scan; or 1 and the failure.
    func encoded() -> [UInt8] {
      var writer = BinaryWriter()
      if let scan, let hash {
        writer.byte(0)
        writer.string(hash)
        ScanCodec.encode(scan, into: &writer)
      } else {
        writer.byte(1)
        writer.string(failure ?? "the file was not parsed")
      }
      return writer.bytes
    }

    static func decode(_ payload: UnsafeRawBufferPointer) -> Response? {
      var reader = BinaryReader(payload)
      do {
        switch try reader.byte() {
        case 0:
          let hash = try reader.string()
          let scan = try ScanCodec.decode(from: &reader)
          return reader.isAtEnd ? Response(scan: scan, hash: hash) : nil
        case 1: return Response(failure: try reader.string())
        default: return nil
        }
      } catch {
        return nil
      }
    }
  }

  /// Serves requests until standard input ends; returns the exit status.
  public static func serve(input: Int32 = 0, output: Int32 = 1) -> Int32 {
    #if canImport(Glibc)
      var limit = rlimit(rlim_cur: rlim_t(addressSpaceLimit), rlim_max: rlim_t(addressSpaceLimit))
      _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
    #endif
    var reader = LineReader(descriptor: input)
    let decoder = JSONDecoder()
    while let line = reader.next() {
      guard let request = try? decoder.decode(Request.self, from: Data(line)) else { return 65 }
      let payload = handle(request).encoded()
      var frame = withUnsafeBytes(of: UInt32(payload.count).littleEndian) { Array($0) }
      frame += payload
      guard frame.withUnsafeBytes({ FileDescriptorIO.writeAll(output, $0) }) else { return 74 }
    }
    return 0
  }

  static func handle(_ request: Request) -> Response {
    switch SourceScanner.read(path: request.path ?? "", text: request.text, maxBytes: request.maxBytes) {
    case .failure(let error): return Response(failure: error.reason)
    case .success(let bytes):
      return Response(scan: SwiftFileScanner.scan(bytes.buffer), hash: ContentHash.of(bytes.buffer))
    }
  }
}

/// Lines from a file descriptor, without Foundation's streams.
struct LineReader {
  let descriptor: Int32
  private var buffer: [UInt8] = []
  private var start = 0
  private var ended = false

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// The next line without its newline; nil at the end of input (a last line without a newline counts).
  mutating func next() -> ArraySlice<UInt8>? {
    var searchFrom = start
    while true {
      if let newline = buffer[searchFrom...].firstIndex(of: 0x0A) {
        let line = buffer[start..<newline]
        start = newline + 1
        return line
      }
      if ended {
        guard start < buffer.count else { return nil }
        let line = buffer[start...]
        start = buffer.count
        return line
      }
      if start > 0 && start >= buffer.count / 2 {
        buffer.removeFirst(start)
        start = 0
      }
      searchFrom = buffer.count
      let read = FileDescriptorIO.readChunk(descriptor, into: &buffer)
      if read <= 0 { ended = true }
    }
  }
}

/// Reading and writing whole buffers on descriptors, retrying on interruption.
enum FileDescriptorIO {
  /// Appends what one `read` returns; the count, 0 at the end, -1 on error.
  static func readChunk(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256 << 10) { chunk in
      var result = 0
      repeat {
        result = read(descriptor, chunk.baseAddress!, chunk.count)
      } while result < 0 && errno == EINTR
      if result > 0 { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[..<result])) }
      return result
    }
  }

  /// Writes everything; false if the other end is gone. Sockets are written with MSG_NOSIGNAL, so a
  /// dead reader is an error here rather than a SIGPIPE for the whole process.
  static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, socket: Bool = false) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written: Int
      #if canImport(Glibc)
        written = socket
          ? send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
          : write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      #else
        written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      #endif
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return false }
      offset += written
    }
    return true
  }
}
