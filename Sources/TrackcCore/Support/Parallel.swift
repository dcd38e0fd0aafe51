import Dispatch

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Runs independent pieces of work on all cores and collects their results in order.
enum Parallel {
  static func map<Result: Sendable>(_ count: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
    guard count > 1 else { return (0..<count).map(body) }
    let slots = Slots<Result>(count: count)
    DispatchQueue.concurrentPerform(iterations: count) { index in
      slots.store(body(index), at: index)
    }
    return slots.values
  }

  /// Splits `count` items into about `4 x cores` ranges (so that uneven ranges still balance), none
  /// smaller than `minimumSize`.
  static var coreCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

  static func ranges(count: Int, minimumSize: Int) -> [Range<Int>] {
    let cores = coreCount
    let pieces = max(1, min(cores * 4, count / max(1, minimumSize)))
    let size = (count + pieces - 1) / max(1, pieces)
    return stride(from: 0, to: count, by: max(1, size)).map { $0..<min($0 + size, count) }
  }

  /// One slot per piece of work, written once by its own iteration and read after all have ended
  /// (`concurrentPerform` returns only then): distinct memory per thread, so no lock.
  private final class Slots<Value>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Value?>

    init(count: Int) {
      storage = .allocate(capacity: count)
      storage.initialize(repeating: nil)
    }

    deinit {
      storage.deinitialize()
      storage.deallocate()
    }

    func store(_ value: Value, at index: Int) {
      storage[index] = value
    }

    var values: [Value] { storage.map { $0! } }
  }
}
