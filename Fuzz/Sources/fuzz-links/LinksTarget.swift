import FuzzInvariants

/// Links as apps are opened with them, on any bytes: refused or read within the bounds, read the same
/// as the `URL` Foundation makes of them, and printed back they read as the same segments and query
/// values, never a trap. After a first `!`, link patterns and links instead: every pattern that parses
/// is matched by a link built from it, every overlap's example matches both patterns, and no link
/// matches two patterns not reported as overlapping (`Invariants.linkPatternViolations`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLinks(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  Invariants.fuzz(data, count, Invariants.linksTargetViolations)
}
