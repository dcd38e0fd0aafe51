#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A growable buffer of plain values that owns its memory: the storage of the YAML arena.
///
/// Unlike an array, its elements can be read through a raw pointer for as long as the buffer lives, so
/// that readers on several threads touch no reference counts. Large buffers ask the kernel for huge pages
/// where it offers them, which turns thousands of page faults into a handful.
final class ArenaBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private var capacity: Int

  /// Called just before the elements move to a larger allocation: readers holding the old address must
  /// stop first. (A buffer reserved large enough never moves.)
  var willMove: (() -> Void)?

  init(minimumCapacity: Int) {
    capacity = max(16, minimumCapacity)
    base = Self.allocate(capacity)
  }

  deinit {
    free(base)
  }

  @inline(__always)
  subscript(index: Int) -> Element {
    precondition(index >= 0 && index < count, "arena index out of range")
    return base[index]
  }

  func append(_ element: Element) {
    if count == capacity { grow(to: count + 1) }
    (base + count).initialize(to: element)
    count += 1
  }

  func append(contentsOf elements: UnsafeBufferPointer<Element>) {
    guard let source = elements.baseAddress, !elements.isEmpty else { return }
    if count + elements.count > capacity { grow(to: count + elements.count) }
    (base + count).initialize(from: source, count: elements.count)
    count += elements.count
  }

  private func grow(to needed: Int) {
    willMove?()
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let newBase = Self.allocate(newCapacity)
    newBase.initialize(from: base, count: count)
    free(base)
    base = newBase
    capacity = newCapacity
  }

  private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Element> {
    let bytes = max(1, capacity * MemoryLayout<Element>.stride)
    var memory: UnsafeMutableRawPointer?
    let hugePage = 2 << 20
    if bytes >= 2 * hugePage {
      guard posix_memalign(&memory, hugePage, bytes) == 0, let memory else { fatalError("out of memory") }
      #if os(Linux)
        _ = madvise(memory, bytes, MADV_HUGEPAGE)
      #endif
    } else {
      guard let allocated = malloc(bytes) else { fatalError("out of memory") }
      memory = allocated
    }
    return memory!.bindMemory(to: Element.self, capacity: capacity)
  }
}
