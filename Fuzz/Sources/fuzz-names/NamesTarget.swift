import FuzzInvariants

/// Handler names (Swift names, selectors), screen type names and event ID patterns, one per line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNames(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  Invariants.fuzz(data, count) { Invariants.namesViolations(String(decoding: $0, as: UTF8.self)) }
}
