import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Wakes `Collector.waitUntil` at each change of what the collector reports (a request recorded, a
/// connection opened, refused or closed, an answer pending or written). A wait is a promise on an event
/// loop, fulfilled by the next change or failed by a timer on that loop at its deadline: nothing polls,
/// and the deadline needs no second look at the clock (the timer's firing is the timeout).
final class Changes: Sendable {
  private struct Waiters {
    var next = 0
    var promises: [Int: EventLoopPromise<Void>] = [:]
  }

  private struct TimedOut: Error {}

  private let waiters = NIOLockedValueBox(Waiters())

  /// Wakes every wait (a lock, and nothing more while nobody waits).
  func announce() {
    let promises = waiters.withLockedValue { waiters in
      defer { waiters.promises = [:] }
      return waiters.promises
    }
    for promise in promises.values { promise.succeed() }
  }

  /// Waits until `condition` holds, asking it at once and after each change; false once `timeout` passed
  /// with it still false.
  func wait(timeout: Duration, _ condition: () -> Bool) async -> Bool {
    // A loop of the shared group, not the collector's: a test may wait after `stop()` ended those.
    let loop = MultiThreadedEventLoopGroup.singleton.any()
    let deadline = NIODeadline.now() + TimeAmount(timeout)
    while true {
      let promise = loop.makePromise(of: Void.self)
      let key = waiters.withLockedValue { waiters in
        defer { waiters.next += 1 }
        waiters.promises[waiters.next] = promise
        return waiters.next
      }
      // Registered before the look, so that a change after it ends the wait.
      if condition() {
        // (Unless a change took it already, and fulfils it.)
        waiters.withLockedValue { $0.promises.removeValue(forKey: key) }?.succeed()
        return true
      }
      let timer = loop.scheduleTask(deadline: deadline) { [waiters] in
        waiters.withLockedValue { $0.promises.removeValue(forKey: key) }?.fail(TimedOut())
      }
      defer { timer.cancel() }
      do {
        try await promise.futureResult.get()
      } catch {
        return condition()
      }
    }
  }
}
