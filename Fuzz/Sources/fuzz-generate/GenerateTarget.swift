import FuzzInvariants

/// The generator, on any config that lints clean: Swift that parses without an error, whose string
/// literals read back as the config's strings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGenerate(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  Invariants.fuzz(data, count, Invariants.generateViolations)
}
