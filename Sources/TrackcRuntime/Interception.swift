import Foundation

/// The tracker that intercepted calls report to, and the entry points that generated interceptors (and
/// platform adapters) call, which only generated code sees (`@_spi(Generated)`). Until a tracker is
/// installed, intercepted calls cost a check and track nothing.
public enum Interception {
  private static let slot = TrackerSlot()

  /// Installs the tracker that intercepted calls report to (nil to stop tracking). Waits for a
  /// `withTracker` running on another thread to end.
  public static func install(_ tracker: Tracker?) {
    turns.lock()
    defer { turns.unlock() }
    slot.set(tracker)
  }

  public static var tracker: Tracker? { slot.get() }

  private static let turns = NSRecursiveLock()

  /// Installs `tracker` (or none) for the duration of `body`, then puts back what was installed. Callers on other
  /// threads wait their turn, so tests that run in parallel in one process each see their own tracker.
  public static func withTracker<Result>(_ tracker: Tracker?, _ body: () throws -> Result) rethrows -> Result {
    turns.lock()
    defer { turns.unlock() }
    let previous = slot.get()
    slot.set(tracker)
    defer { slot.set(previous) }
    return try body()
  }

  /// A generated replacement of a mapped handler begins: reports the call, unless it runs inside a
  /// replacement for the same object and handler (an override calling `super`), so a call is one event.
  /// The replacement then calls the original directly (from inside a closure, the call would reach the
  /// replacement again) and ends the scope with `defer`.
  @_spi(Generated) public static func beginControl<Screen>(_ screen: Screen, _ handler: HandlerID) -> Scope {
    begin(screen, code: Int(handler.rawValue)) { $0.trackControl(of: type(of: screen), handler: handler) }
  }

  /// The same, for a handler whose events bind properties: `capture` reads them, and runs only when
  /// the call is reported.
  @_spi(Generated) public static func beginControl<Screen>(_ screen: Screen, _ handler: HandlerID, capture: (inout CapturedProperties) -> Void)
    -> Scope
  {
    begin(screen, code: Int(handler.rawValue)) { $0.trackControl(of: type(of: screen), handler: handler, capture: capture) }
  }

  /// A generated replacement of a lifecycle method carrying page events begins (see `beginControl`).
  @_spi(Generated) public static func beginPage<Screen>(_ screen: Screen, _ phase: PagePhase) -> Scope {
    begin(screen, code: phase == .enter ? -1 : -2) { $0.trackPage(of: type(of: screen), phase) }
  }

  /// The same, for a page event that binds the screen's state.
  @_spi(Generated) public static func beginPage<Screen>(_ screen: Screen, _ phase: PagePhase, capture: (inout CapturedProperties) -> Void) -> Scope {
    begin(screen, code: phase == .enter ? -1 : -2) { $0.trackPage(of: type(of: screen), phase, capture: capture) }
  }

  /// An intercepted call in progress on this thread.
  @_spi(Generated) public struct Scope: Sendable {
    fileprivate let pushed: Bool

    /// Call when the original has returned (or thrown): with `defer`.
    public func end() {
      if pushed { ActiveInterceptions.current.pop() }
    }
  }

  private static func begin<Screen>(_ screen: Screen, code: Int, report: (Tracker) -> Void) -> Scope {
    // Value types cannot override, so only objects can nest.
    guard Screen.self is AnyObject.Type else {
      guard let tracker = slot.get() else { return Scope(pushed: false) }
      report(tracker)
      return Scope(pushed: false)
    }
    return begin(object: unsafeBitCast(screen, to: AnyObject.self), code: code, report: report)
  }

  /// The same for an object: reported unless the same object and handler (or page phase) are running on
  /// this thread already.
  static func begin(object: AnyObject, code: Int, report: (Tracker) -> Void) -> Scope {
    guard let tracker = slot.get() else { return Scope(pushed: false) }
    guard ActiveInterceptions.current.enter(ObjectIdentifier(object), code) else { return Scope(pushed: false) }
    report(tracker)
    return Scope(pushed: true)
  }

  /// A view controller's lifecycle, through the Objective-C runtime; also a SwiftUI screen's, reported
  /// by the generated `.tracked(_:)` modifier by its type's name.
  @_spi(Generated) public static func page(className: String, _ phase: PagePhase, read: ((KeyPathBinding) -> Any?)? = nil) {
    slot.get()?.trackPage(screenNamed: className, phase, read: read)
  }

  /// A view controller's lifecycle that may be a hosting controller's, reported for its root view's type
  /// (`String(reflecting:)`) when the config does not list the controller itself.
  @_spi(Generated) public static func page(className: String, rootView: String?, _ phase: PagePhase, read: ((KeyPathBinding) -> Any?)? = nil) {
    slot.get()?.trackPage(hostingControllerNamed: className, rootView: rootView, phase, read: read)
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

/// The interceptions running on this thread (object and handler, or page phase), innermost last.
final class ActiveInterceptions {
  private var entries: [(object: ObjectIdentifier, code: Int)] = []

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in
      #if canImport(Darwin)
        Unmanaged<ActiveInterceptions>.fromOpaque(pointer).release()
      #else
        if let pointer { Unmanaged<ActiveInterceptions>.fromOpaque(pointer).release() }
      #endif
    }
    return key
  }()

  static var current: ActiveInterceptions {
    if let pointer = pthread_getspecific(key) {
      return Unmanaged<ActiveInterceptions>.fromOpaque(pointer).takeUnretainedValue()
    }
    let created = ActiveInterceptions()
    pthread_setspecific(key, Unmanaged.passRetained(created).toOpaque())
    return created
  }

  /// Records that the call begins, unless the same object and handler are already running on this
  /// thread (then false, and nothing is recorded): one pass over what is running, and one append.
  func enter(_ object: ObjectIdentifier, _ code: Int) -> Bool {
    Self.enter(object, code, into: &entries)
  }

  /// The same on the stack itself: one access to it, not one to read and another to append.
  private static func enter(_ object: ObjectIdentifier, _ code: Int, into entries: inout [(object: ObjectIdentifier, code: Int)]) -> Bool {
    if entries.contains(where: { $0.object == object && $0.code == code }) { return false }
    entries.append((object, code))
    return true
  }

  func pop() {
    entries.removeLast()
  }
}
