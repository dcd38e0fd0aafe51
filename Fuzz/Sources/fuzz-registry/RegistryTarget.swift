import FuzzInvariants

/// The handler registry JSON that `trackc lint --handlers` reads, and the config checked and generated
/// against what it yields.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRegistry(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  Invariants.fuzz(data, count, Invariants.registryViolations)
}
