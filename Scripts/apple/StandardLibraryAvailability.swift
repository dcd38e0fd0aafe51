// Standard-library API newer than the macOS 13.3 SDK's standard library (Swift 5.8) that TrackcCore and
// TrackcRuntime call, declared here with the availability the toolchain's own interface gives it
// (lib/swift/linux/Swift.swiftmodule/*.swiftinterface): Scripts/typecheck-macos.sh compiles this file into
// each module it checks, so that a call outside a matching `if #available` is an error there as it is in
// Xcode. Declarations only; never part of trackc. A call the check reports as "cannot find" is API to add
// here, with its availability as the interface writes it (docs/platforms.md).

/// `struct Span<Element>`: back-deployed to every macOS Swift 6 targets.
@available(macOS 10.14.4, iOS 12.2, watchOS 5.2, tvOS 12.2, visionOS 1.0, *)
struct Span<Element> {}

@available(macOS 10.14.4, iOS 12.2, watchOS 5.2, tvOS 12.2, visionOS 1.0, *)
extension UnsafeBufferPointer {
  var span: Span<Element> { fatalError("a declaration for the macOS check") }
}

extension Unicode.UTF8 {
  @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
  struct ValidationError: Error {
    var byteOffsets: Range<Int> { fatalError("a declaration for the macOS check") }
  }
}

@available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
struct UTF8Span {
  init(validating codeUnits: Span<UInt8>) throws(Unicode.UTF8.ValidationError) { fatalError("a declaration for the macOS check") }
}

extension String {
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  init?<Encoding: Unicode.Encoding>(validating codeUnits: some Sequence<Encoding.CodeUnit>, as encoding: Encoding.Type) {
    fatalError("a declaration for the macOS check")
  }
}

/// `MainActor.assumeIsolated` (Swift 5.9): emitted into the client (`@_alwaysEmitIntoClient`), so available
/// wherever `MainActor` is (macOS 10.15), though the 13.3 SDK's Swift 5.8 library does not declare it.
extension MainActor {
  @_unavailableFromAsync
  static func assumeIsolated<T: Sendable>(
    _ operation: @MainActor () throws -> T, file: StaticString = #fileID, line: UInt = #line
  ) rethrows -> T {
    fatalError("a declaration for the macOS check")
  }
}
