import FuzzInvariants

/// The YAML front end and the whole config check, on any bytes: diagnostics, never a trap, each
/// pointing inside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLint(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  Invariants.fuzz(data, count, Invariants.lintViolations)
}
