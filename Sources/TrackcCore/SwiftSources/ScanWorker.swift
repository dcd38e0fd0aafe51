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
/// per line of standard input (JSON), one answer per line of standard output, until its input ends.
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

  struct Response: Codable {
    /// The scan and the content hash of what was read (the cache key).
    var scan: FileScan?
    var hash: String?
    var failure: String?
  }

  /// Serves requests until standard input ends; returns the exit status.
  public static func serve(input: Int32 = 0, output: Int32 = 1) -> Int32 {
    #if canImport(Glibc)
      var limit = rlimit(rlim_cur: rlim_t(addressSpaceLimit), rlim_max: rlim_t(addressSpaceLimit))
      _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
    #endif
    var reader = LineReader(descriptor: input)
    let decoder = JSONDecoder()
    let encoder = JSONEncoder()
    while let line = reader.next() {
      guard let request = try? decoder.decode(Request.self, from: Data(line)) else { return 65 }
      let response = handle(request)
      guard var answer = try? encoder.encode(response) else { return 70 }
      answer.append(0x0A)
      guard answer.withUnsafeBytes({ FileDescriptorIO.writeAll(output, $0) }) else { return 74 }
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
  static func readChunk(_ descriptor: Int32, into buffer: inout [UInt8], size: Int = 64 << 10) -> Int {
    let old = buffer.count
    var result = 0
    buffer.append(contentsOf: repeatElement(0, count: size))
    buffer.withUnsafeMutableBufferPointer { memory in
      repeat {
        result = read(descriptor, memory.baseAddress! + old, size)
      } while result < 0 && errno == EINTR
    }
    buffer.removeLast(size - max(0, result))
    return result
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
