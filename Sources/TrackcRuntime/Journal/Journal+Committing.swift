import Foundation

extension Journal {
  // MARK: Power-loss settings

  /// Flushes what was appended to the disk: every `interval` (periodic), or `groupCommitInterval`
  /// after the first `track()` starts waiting (power loss), waking every waiter at once.
  func commitLoop() {
    let interval: TimeInterval
    switch configuration.durability {
    case .processDeath: return
    case .periodicSync(let every): interval = max(0.0001, every)
    case .powerLoss(let window): interval = max(0, window)
    }
    while true {
      monitor.lock()
      while !stopped && syncedSequence == sequence {
        committerWaiting = true
        commitNeeded.wait(until: Date(timeIntervalSinceNow: 1))
        committerWaiting = false
      }
      if stopped {
        monitor.unlock()
        return
      }
      monitor.unlock()
      if interval > 0 { Thread.sleep(forTimeInterval: interval) }
      monitor.lock()
      let target = sequence
      let dirty = segments.filter { !$0.isInMemory && $0.syncedEnd < $0.end }.map { ($0, $0.syncedEnd, $0.end) }
      monitor.unlock()
      for (segment, from, to) in dirty { segment.sync(from: from, to: to) }
      monitor.lock()
      for (segment, _, to) in dirty where segment.syncedEnd < to { segment.syncedEnd = to }
      syncedSequence = target
      committed.broadcast()
      monitor.unlock()
    }
  }
}
