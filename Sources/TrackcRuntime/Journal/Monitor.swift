import Foundation

/// A mutex with any number of condition variables on it (`NSCondition` has one): the journal's lock,
/// on which each delivery lane, the flushers and the group committer wait for their own condition, so
/// that waking one wakes nobody else.
final class Monitor: @unchecked Sendable {
  fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    #if os(Linux)
      // Adaptive: a thread that finds it held spins a little before it sleeps. `track()` and the delivery
      // lanes hold it for well under a microsecond; a plain mutex puts the one that finds it held to
      // sleep (a futex wait) and has the holder wake it (a futex wake), system calls that cost the
      // tracking thread several microseconds each (docs/development/benchmarks.md). Linux only: where it was measured.
      var attributes = pthread_mutexattr_t()
      pthread_mutexattr_init(&attributes)
      pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
      pthread_mutex_init(mutex, &attributes)
      pthread_mutexattr_destroy(&attributes)
    #else
      pthread_mutex_init(mutex, nil)
    #endif
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }

  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }

  final class Condition: @unchecked Sendable {
    private let monitor: Monitor
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init(_ monitor: Monitor) {
      self.monitor = monitor
      condition = .allocate(capacity: 1)
      pthread_cond_init(condition, nil)
    }

    deinit {
      pthread_cond_destroy(condition)
      condition.deallocate()
    }

    /// Caller holds the monitor. False when the deadline passed.
    @discardableResult
    func wait(until deadline: Date? = nil) -> Bool {
      guard let deadline else {
        pthread_cond_wait(condition, monitor.mutex)
        return true
      }
      let seconds = deadline.timeIntervalSince1970
      guard seconds > Date().timeIntervalSince1970 else { return false }
      var time = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1_000_000_000))
      return pthread_cond_timedwait(condition, monitor.mutex, &time) == 0
    }

    func signal() { pthread_cond_signal(condition) }
    func broadcast() { pthread_cond_broadcast(condition) }
  }
}
