import SystemPackage

/// The worker side of `ParseIsolation.workerProcesses`: parses the files it is asked for, in order, one
/// frame per request on standard input and one per answer on standard output, until its input ends.
/// A frame is a 4-byte little-endian length and a payload in the binary form of `BinaryForm.swift`: the smallest
/// framing that carries binary payloads over a byte stream (swift-subprocess moves bytes, not messages).
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
        scan.encodeBinary(into: &writer)
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
          let scan = try FileScan.decodeBinary(from: &reader)
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
    Platform.limitAddressSpace(toBytes: addressSpaceLimit)
    var frames = FrameReader(descriptor: FileDescriptor(rawValue: input))
    let output = FileDescriptor(rawValue: output)
    while true {
      switch frames.next() {
      case .frame(let payload):
        guard let request = payload.withUnsafeBytes({ Request.decode($0) }) else { return 65 }
        do {
          _ = try output.writeAll(Frame.encode(handle(request).encoded()))
        } catch {
          return 74
        }
      case .ended: return 0
      case .failed: return 74
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

/// Length-prefixed frames.
enum Frame {
  /// Frames are answers about one file of at most 8 MiB, or requests naming one; anything larger is not
  /// a frame of ours.
  static let maxBytes = 256 << 20

  /// The payload behind its 4-byte little-endian length.
  static func encode(_ payload: [UInt8]) -> [UInt8] {
    var frame = withUnsafeBytes(of: UInt32(payload.count).littleEndian) { Array($0) }
    frame += payload
    return frame
  }
}

/// Bytes as they arrive, cut into frames.
struct FrameBuffer {
  struct Malformed: Error {}

  private var bytes: [UInt8] = []
  private var start = 0

  var isEmpty: Bool { start == bytes.count }

  mutating func append(_ chunk: UnsafeRawBufferPointer) {
    if start > 0 {
      bytes.removeFirst(start)
      start = 0
    }
    bytes.append(contentsOf: chunk)
  }

  /// The next whole frame's payload; nil until its bytes have all arrived.
  mutating func next() throws(Malformed) -> [UInt8]? {
    let available = bytes.count - start
    guard available >= 4 else { return nil }
    let length = bytes.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: start, as: UInt32.self))) }
    guard length <= Frame.maxBytes else { throw Malformed() }
    guard available >= 4 + length else { return nil }
    let payload = Array(bytes[start + 4..<start + 4 + length])
    start += 4 + length
    if start == bytes.count {
      bytes.removeAll(keepingCapacity: true)
      start = 0
    }
    return payload
  }
}

/// What reading the next frame gave.
enum FrameOutcome {
  case frame([UInt8])
  /// The other end closed between frames.
  case ended
  /// The other end closed mid-frame, an error, or a frame that cannot be one of ours.
  case failed
}

/// Reads frames from a descriptor, blocking (the worker's side: it has nothing else to do).
struct FrameReader {
  let descriptor: FileDescriptor
  private var buffer = FrameBuffer()

  init(descriptor: FileDescriptor) {
    self.descriptor = descriptor
  }

  mutating func next() -> FrameOutcome {
    while true {
      do {
        if let payload = try buffer.next() { return .frame(payload) }
      } catch {
        return .failed
      }
      let read: Int
      do {
        read = try withUnsafeTemporaryAllocation(byteCount: 256 << 10, alignment: 1) { chunk in
          let count = try descriptor.read(into: chunk)
          buffer.append(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
          return count
        }
      } catch {
        return .failed
      }
      if read == 0 { return buffer.isEmpty ? .ended : .failed }
    }
  }
}
