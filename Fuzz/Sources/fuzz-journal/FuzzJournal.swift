import FuzzInvariants

/// The delivery journal's recovery reader: the input is the segment (and cursor) an earlier process
/// left, which a tracker opens and drains (`JournalFuzzing`, shared with `JournalFuzzingTests`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournal(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  Invariants.fuzz(data, count, JournalFuzzing.violations)
}
