import Foundation

/// Keeps every event it receives, for tests and previews.
public final class InMemoryDestination: TrackingDestination, @unchecked Sendable {
  public let id: String
  private let lock = NSLock()
  private var received: [TrackingEvent] = []

  public init(id: String) {
    self.id = id
  }

  public func receive(_ event: TrackingEvent) {
    lock.lock()
    received.append(event)
    lock.unlock()
  }

  /// What it has received so far, in order.
  public var events: [TrackingEvent] {
    lock.lock()
    defer { lock.unlock() }
    return received
  }

  public func removeAll() {
    lock.lock()
    received.removeAll()
    lock.unlock()
  }
}
