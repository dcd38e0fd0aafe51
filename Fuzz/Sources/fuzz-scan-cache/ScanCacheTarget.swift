import FuzzInvariants

@testable import TrackcCore

/// The cache readers (the scans, and the last link with its registry): a damaged cache yields nothing,
/// never garbage.
///
/// Each input is read as a scan cache file: a fuzzer cannot forge the checksum, so whatever is read must
/// be exactly what trackc writes. Then as a scan cache body and as a link cache body under valid headers,
/// to reach the decoders behind the checksum: whatever they read must survive being written and read
/// again, the linked registry included.
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
    if let link = sealed(body: bytes, magic: LinkCache.magic).withUnsafeBytes(LinkCache.decode) {
      let written = link.encoded()
      if written.withUnsafeBytes(LinkCache.decode)?.encoded() != written {
        violations.append("a link cache read from a fuzzed body does not survive being written and read again")
      }
      if let registry = link.registry() {
        let again = registry.binaryEncoded().withUnsafeBytes { HandlerRegistry.decodeBinary($0) }
        if again != registry { violations.append("a linked registry read from a fuzzed body does not survive being written and read again") }
      }
    }
    return violations
  }
}

/// A cache file around `body`, with the header `ScanCache.encoded()` (or, with its magic,
/// `LinkCache.encoded()`) writes.
func sealed(body: [UInt8], magic: [UInt8] = ScanCache.magic) -> [UInt8] {
  var header = BinaryWriter(bytes: magic)
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
  cache.entries["hash"]!.encodeBinary(into: &body)
  return sealed(body: body.bytes) == written
}()
