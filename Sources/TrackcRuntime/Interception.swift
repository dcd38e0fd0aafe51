import Foundation

/// The entry points that generated interceptors (and platform adapters) call, and the tracker they
/// report to. Until a tracker is installed, intercepted calls cost a check and track nothing.
public enum Interception {
  private static let slot = TrackerSlot()

  /// Installs the tracker that intercepted calls report to (nil to stop tracking).
  public static func install(_ tracker: Tracker?) {
    slot.set(tracker)
  }

  public static var tracker: Tracker? { slot.get() }

  /// A lifecycle method carrying page events was called on `screen`.
  public static func page<Screen>(_ screen: Screen, _ phase: PagePhase) {
    slot.get()?.trackPage(of: type(of: screen), phase)
  }

  /// A mapped handler was called on `screen`.
  public static func control<Screen>(_ screen: Screen, _ handler: HandlerID) {
    slot.get()?.trackControl(of: type(of: screen), handler: handler)
  }

  /// A handler reached through the Objective-C runtime: the target's class name and the selector.
  public static func control(className: String, selector: String) {
    slot.get()?.trackControl(screenNamed: className, handlerNamed: selector)
  }

  /// A view controller's lifecycle, through the Objective-C runtime.
  public static func page(className: String, _ phase: PagePhase) {
    slot.get()?.trackPage(screenNamed: className, phase)
  }
}

private final class TrackerSlot: @unchecked Sendable {
  private let lock = NSLock()
  private var tracker: Tracker?

  func get() -> Tracker? {
    lock.lock()
    defer { lock.unlock() }
    return tracker
  }

  func set(_ newValue: Tracker?) {
    lock.lock()
    tracker = newValue
    lock.unlock()
  }
}
