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

  /// A mapped handler is called on `screen`: reports it, then runs the original.
  ///
  /// An override that calls `super` runs two replacements, one inside the other, for the same object and
  /// handler; only the outer one reports, so a call is one event.
  @inlinable
  public static func control<Screen, Result, Failure: Error>(
    _ screen: Screen, _ handler: HandlerID, _ original: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try intercepted(screen, code: Int(handler.rawValue), report: { $0.trackControl(of: type(of: screen), handler: handler) }, original)
  }

  /// A lifecycle method carrying page events is called on `screen`: reports the page event, then runs
  /// the original (once per call, as for handlers).
  @inlinable
  public static func page<Screen, Result, Failure: Error>(
    _ screen: Screen, _ phase: PagePhase, _ original: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try intercepted(screen, code: phase == .enter ? -1 : -2, report: { $0.trackPage(of: type(of: screen), phase) }, original)
  }

  /// A mapped handler was called on `screen` (without running anything).
  public static func control<Screen>(_ screen: Screen, _ handler: HandlerID) {
    slot.get()?.trackControl(of: type(of: screen), handler: handler)
  }

  /// A lifecycle method carrying page events was called on `screen` (without running anything).
  public static func page<Screen>(_ screen: Screen, _ phase: PagePhase) {
    slot.get()?.trackPage(of: type(of: screen), phase)
  }

  /// A handler reached through the Objective-C runtime: the target's class name and the selector.
  public static func control(className: String, selector: String) {
    slot.get()?.trackControl(screenNamed: className, handlerNamed: selector)
  }

  /// A view controller's lifecycle, through the Objective-C runtime.
  public static func page(className: String, _ phase: PagePhase) {
    slot.get()?.trackPage(screenNamed: className, phase)
  }

  @usableFromInline
  static func intercepted<Screen, Result, Failure: Error>(
    _ screen: Screen, code: Int, report: (Tracker) -> Void, _ original: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    guard let tracker = slot.get() else { return try original() }
    // Value types cannot override, so only objects can nest.
    guard Screen.self is AnyObject.Type else {
      report(tracker)
      return try original()
    }
    let object = ObjectIdentifier(unsafeBitCast(screen, to: AnyObject.self))
    let nesting = ActiveInterceptions.current
    if nesting.contains(object, code) { return try original() }
    report(tracker)
    nesting.push(object, code)
    defer { nesting.pop() }
    return try original()
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
  private var objects: [ObjectIdentifier] = []
  private var codes: [Int] = []

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

  func contains(_ object: ObjectIdentifier, _ code: Int) -> Bool {
    var index = objects.count - 1
    while index >= 0 {
      if objects[index] == object && codes[index] == code { return true }
      index -= 1
    }
    return false
  }

  func push(_ object: ObjectIdentifier, _ code: Int) {
    objects.append(object)
    codes.append(code)
  }

  func pop() {
    objects.removeLast()
    codes.removeLast()
  }
}
