import FuzzInvariants

/// Links as apps are opened with them, on any bytes: refused or read within the bounds, and printed
/// back they read as the same segments and query values, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLinks(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  Invariants.fuzz(data, count, Invariants.linkViolations)
}
