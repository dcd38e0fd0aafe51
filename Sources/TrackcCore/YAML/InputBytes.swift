/// The bytes of a config, at an address that stays put for as long as this object lives.
///
/// A file on disk is mapped read-only rather than read: no copy, and no freshly zeroed memory to fault in,
/// which on a large config is a measurable share of the whole run. Other inputs are copied in once.
/// (As with any mapped input, as compilers map their sources, a file truncated by another process while
/// it is being linted would fault; configs are not rewritten in place by the tools that write them.)
public final class InputBytes: @unchecked Sendable {
  public let buffer: UnsafeBufferPointer<UInt8>
  private let release: (@Sendable (UnsafeMutableRawPointer) -> Void)?

  public convenience init(_ bytes: [UInt8]) {
    let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
    _ = UnsafeMutableBufferPointer(start: memory, count: bytes.count).initialize(from: bytes)
    self.init(UnsafeBufferPointer(start: memory, count: bytes.count)) { $0.deallocate() }
  }

  /// Takes ownership of `buffer`; `release` frees it.
  init(_ buffer: UnsafeBufferPointer<UInt8>, release: (@Sendable (UnsafeMutableRawPointer) -> Void)?) {
    self.buffer = buffer
    self.release = release
  }

  deinit {
    if let base = buffer.baseAddress { release?(UnsafeMutableRawPointer(mutating: base)) }
  }

  /// Maps `count` bytes of an open regular file; nil when the system will not map it.
  static func map(descriptor: Int32, count: Int) -> InputBytes? {
    guard count > 0 else { return nil }
    guard let address = Platform.mapReadOnly(descriptor: descriptor, count: count) else { return nil }
    return InputBytes(UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: count)) {
      Platform.unmap($0, count: count)
    }
  }
}
