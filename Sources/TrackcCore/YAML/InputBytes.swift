/// The bytes of a config (or a registry, or a Swift source), at an address that stays put for as long as
/// this object lives, so that the parsers can read them through a buffer pointer.
public final class InputBytes: @unchecked Sendable {
  public let buffer: UnsafeBufferPointer<UInt8>

  public init(_ bytes: [UInt8]) {
    let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
    _ = UnsafeMutableBufferPointer(start: memory, count: bytes.count).initialize(from: bytes)
    buffer = UnsafeBufferPointer(start: memory, count: bytes.count)
  }

  deinit {
    buffer.baseAddress.map { UnsafeMutablePointer(mutating: $0).deallocate() }
  }
}
