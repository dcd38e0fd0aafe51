import CZlib
import Foundation

/// gzip (RFC 1952) through zlib's deflate, for upload bodies (`Content-Encoding: gzip`).
enum Gzip {
  /// Level 1: JSON of repeated keys still shrinks several times, at a fraction of the default level's CPU.
  static func compress(_ input: [UInt8], level: Int32 = 1) -> [UInt8]? {
    var stream = z_stream()
    // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
    guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { return nil }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
    let status = input.withUnsafeBufferPointer { source -> Int32 in
      output.withUnsafeMutableBufferPointer { target -> Int32 in
        stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
        stream.avail_in = uInt(source.count)
        stream.next_out = target.baseAddress
        stream.avail_out = uInt(target.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else { return nil }
    output.removeSubrange(Int(stream.total_out)...)
    return output
  }

  /// For tests: inflates a gzip body.
  static func decompress(_ input: [UInt8]) -> [UInt8]? {
    var stream = z_stream()
    guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
    defer { inflateEnd(&stream) }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    return input.withUnsafeBufferPointer { source -> [UInt8]? in
      stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
      stream.avail_in = uInt(source.count)
      while true {
        let status = chunk.withUnsafeMutableBufferPointer { target -> Int32 in
          stream.next_out = target.baseAddress
          stream.avail_out = uInt(target.count)
          return inflate(&stream, Z_NO_FLUSH)
        }
        output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
        if status == Z_STREAM_END { return output }
        guard status == Z_OK else { return nil }
      }
    }
  }
}
