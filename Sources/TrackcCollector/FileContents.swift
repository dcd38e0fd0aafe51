import SystemPackage

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Small files read whole, up to a limit (the remote configuration document).
enum FileContents {
  enum Outcome {
    case success([UInt8])
    case failure(String)
  }

  static func read(path: String, maxBytes: Int) -> Outcome {
    // Only regular files: a FIFO or a device could block the event loop forever.
    let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    guard let type else { return .failure("it does not exist or cannot be read") }
    guard type == .typeRegular else { return .failure("it is not a regular file") }
    do {
      let file = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
      defer { try? file.close() }
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 64 << 10)
      while bytes.count <= maxBytes {
        let count = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
        if count == 0 { break }
        bytes += chunk[..<count]
      }
      guard bytes.count <= maxBytes else { return .failure("it is larger than \(maxBytes) bytes") }
      return .success(bytes)
    } catch {
      return .failure("\(error)")
    }
  }

  /// FNV-1a, 64 bits: a stable tag for a document's content (its ETag).
  static func fingerprint(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    return hash
  }
}
