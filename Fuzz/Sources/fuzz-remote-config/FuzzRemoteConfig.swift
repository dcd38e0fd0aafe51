import FuzzInvariants

/// The remote configuration document, fetched after a good one and read back from the cache
/// (`RemoteConfigurationFuzzing`, shared with `RemoteConfigurationFuzzingTests`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRemoteConfig(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  Invariants.fuzz(data, count, RemoteConfigurationFuzzing.violations)
}
