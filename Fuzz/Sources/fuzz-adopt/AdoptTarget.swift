import FuzzInvariants

/// A Swift file through `trackc adopt`: the calls it finds are all mapped or reported, the plan it writes
/// lints clean and reads back as the calls (names, keys and values), its generated Swift keeps the
/// `generate` laws, and the rewrite takes out only the mapped statements.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdopt(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  Invariants.fuzz(data, count) { bytes in
    // swift-syntax's exponential time on deeply nested brackets is not trackc's (see the limit).
    Invariants.nestsBracketsTooDeeply(bytes) ? [] : Invariants.adoptViolations(bytes)
  }
}
