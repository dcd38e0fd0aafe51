import FuzzInvariants

/// A Swift file through `trackc adopt`: the calls it finds are all mapped or reported, the plan it writes
/// lints clean and reads back as the calls (names, keys and values), its generated Swift keeps the
/// `generate` laws, and the rewrite takes out only the mapped statements.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdopt(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  Invariants.fuzz(data, count, Invariants.adoptViolations)
}
