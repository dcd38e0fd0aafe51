import FuzzInvariants

@testable import TrackcCore

/// The scan cache reader: a damaged cache yields nothing, never garbage.
///
/// Each input is read twice. As a cache file: a fuzzer cannot forge the checksum, so whatever is read
/// must be exactly what trackc writes. And as a cache body under a valid header, to reach the decoder
/// behind the checksum: whatever it reads must survive being written and read again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScanCache(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  precondition(sealingMatchesTheWriter, "the fuzz target's cache header no longer matches ScanCache.encoded()")
  return Invariants.fuzz(data, count) { bytes in
    var violations: [String] = []
    if let cache = bytes.withUnsafeBytes(ScanCache.decode), cache.encoded() != bytes {
      violations.append("a cache file that trackc would not write was read")
    }
    if let cache = sealed(body: bytes).withUnsafeBytes(ScanCache.decode) {
      let written = cache.encoded()
      if written.withUnsafeBytes(ScanCache.decode)?.encoded() != written {
        violations.append("a cache read from a fuzzed body does not survive being written and read again")
      }
    }
    return violations
  }
}

/// A cache file around `body`, with the header `ScanCache.encoded()` writes.
func sealed(body: [UInt8]) -> [UInt8] {
  var header = BinaryWriter(bytes: ScanCache.magic)
  header.string(TrackcVersion.current)
  header.int(ScanCache.scannerVersion)
  header.int(body.count)
  let checksum = body.withUnsafeBytes { ContentHash.digest($0) }
  header.int(Int(Int64(bitPattern: checksum.0)))
  header.int(Int(Int64(bitPattern: checksum.1)))
  return header.bytes + body
}

/// Whether `sealed(body:)` writes what `ScanCache.encoded()` does, checked once, so that a change of
/// format stops the target rather than leaving the body unreached.
let sealingMatchesTheWriter: Bool = {
  let cache = ScanCache(entries: ["hash": FileScan(declarations: [], imports: ["Foundation"], problems: [])])
  let written = cache.encoded()
  var body = BinaryWriter()
  body.int(1)
  body.string("hash")
  ScanCodec.encode(cache.entries["hash"]!, into: &body)
  return sealed(body: body.bytes) == written
}()
