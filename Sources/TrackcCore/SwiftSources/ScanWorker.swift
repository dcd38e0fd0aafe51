#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The worker side of `ParseIsolation.workerProcesses`: parses the files it is asked for, in order, one
/// frame per request on standard input and one per answer on standard output, until its input ends.
/// A frame is a 4-byte little-endian length and a payload in `ScanCodec`'s binary form.
public enum ScanWorker {
  /// The hidden subcommand that runs a worker.
  public static let commandName = "_scan-worker"
  /// A worker's address space is capped, so that a runaway allocation ends the worker, not the machine.
  static let addressSpaceLimit: UInt64 = 4 << 30

  struct Request {
    /// The file to read, or nil when `text` is given.
    var path: String?
    var text: String?
    var maxBytes: Int

    func encoded() -> [UInt8] {
      var writer = BinaryWriter()
      writer.optionalString(path)
      writer.optionalString(text)
      writer.int(maxBytes)
      return writer.bytes
    }

    static func decode(_ payload: UnsafeRawBufferPointer) -> Request? {
      var reader = BinaryReader(payload)
      do {
        let request = Request(path: try reader.optionalString(), text: try reader.optionalString(), maxBytes: try reader.int())
        return reader.isAtEnd ? request : nil
      } catch {
        return nil
      }
    }
  }

  struct Response {
    /// The scan and the content hash of what was read (the cache key).
    var scan: FileScan?
    var hash: String?
    var failure: String?

    /// 0, the hash and the scan; or 1 and the failure.
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
      // Not under a sanitizer, which has reserved terabytes of address space for its shadow memory: a cap
      // would make the worker's every allocation fail (found running the tests under AddressSanitizer).
      if dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") == nil && dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") == nil {
        var limit = rlimit(rlim_cur: rlim_t(addressSpaceLimit), rlim_max: rlim_t(addressSpaceLimit))
        _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
      }
    #endif
    var frames = FrameReader(descriptor: input)
    while true {
      switch frames.next(deadline: nil) {
      case .frame(let payload):
        guard let request = payload.withUnsafeBytes({ Request.decode($0) }) else { return 65 }
        guard Frame.write(handle(request).encoded(), to: output) else { return 74 }
      case .ended: return 0
      case .failed, .timedOut: return 74
      }
    }
  }

  static func handle(_ request: Request) -> Response {
    switch SourceScanner.read(path: request.path ?? "", text: request.text, maxBytes: request.maxBytes) {
    case .failure(let error): return Response(failure: error.reason)
    case .success(let bytes):
      return Response(scan: SwiftFileScanner.scan(bytes.buffer), hash: ContentHash.of(bytes.buffer))
    }
  }
}

/// Length-prefixed frames over a descriptor.
enum Frame {
  /// Frames are answers about one file of at most 8 MiB, or requests naming one; anything larger is not
  /// a frame of ours.
  static let maxBytes = 256 << 20

  static func write(_ payload: [UInt8], to descriptor: Int32, socket: Bool = false) -> Bool {
    var frame = withUnsafeBytes(of: UInt32(payload.count).littleEndian) { Array($0) }
    frame += payload
    return frame.withUnsafeBytes { FileDescriptorIO.writeAll(descriptor, $0, socket: socket) }
  }
}

/// Reads frames, waiting at most until a deadline for each.
struct FrameReader {
  enum Outcome {
    case frame([UInt8])
    /// The other end closed between frames.
    case ended
    /// The other end closed mid-frame, an error, or a frame that cannot be one of ours.
    case failed
    case timedOut
  }

  let descriptor: Int32
  private var buffer: [UInt8] = []
  private var start = 0

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  mutating func next(deadline: ContinuousClock.Instant?) -> Outcome {
    while true {
      let available = buffer.count - start
      if available >= 4 {
        let length = buffer.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: start, as: UInt32.self))) }
        guard length <= Frame.maxBytes else { return .failed }
        if available >= 4 + length {
          let payload = Array(buffer[start + 4..<start + 4 + length])
          start += 4 + length
          if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
          }
          return .frame(payload)
        }
      }
      if let deadline {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return .timedOut }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
        let ready = poll(&poller, 1, milliseconds)
        if ready <= 0 { continue }
      }
      if start > 0 {
        buffer.removeFirst(start)
        start = 0
      }
      let read = FileDescriptorIO.readChunk(descriptor, into: &buffer)
      if read == 0 { return buffer.isEmpty ? .ended : .failed }
      if read < 0 { return .failed }
    }
  }
}

/// Reading and writing whole buffers on descriptors, retrying on interruption.
public enum FileDescriptorIO {
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
  @discardableResult
  public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, socket: Bool = false) -> Bool {
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
