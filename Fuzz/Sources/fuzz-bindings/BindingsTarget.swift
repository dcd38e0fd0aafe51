import FuzzInvariants

/// Configs of bindings against the cross-module fixture (a base module whose lifecycle methods and
/// handler carry the events of another module's screens): when they lint clean, the generated Swift
/// parses, its literals read back, and every interceptor file imports the modules its captures cast to
/// and read, `@testable` where what they read is not public.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBindings(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  Invariants.fuzz(data, count, Invariants.bindingViolations)
}
