import FuzzInvariants

/// The collector's request body: its JSON reader against Foundation's, and a batch through the function
/// the HTTP handler calls (`CollectorRequestFuzzing`, shared with `CollectorRequestFuzzingTests`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCollectorRequest(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  Invariants.fuzz(data, count, CollectorRequestFuzzing.violations)
}
