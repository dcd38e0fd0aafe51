import Foundation

/// `interception: objc-runtime`'s handlers: at start, the runtime replaces each mapped handler's
/// implementation on its class (the generated registry lists them, `TrackingRegistry.objcHandlerHooks`),
/// so that whatever Objective-C dispatch calls it reports the call: a control's or a bar button item's
/// action, a gesture recognizer's, a selector UIKit calls on a delegate or a data source, `perform(_:)`, a
/// notification observed by selector, an action sent to the first responder.
///
/// Which class gets which replacement is decided here, in plain Swift, over `HookableClasses` (the
/// Objective-C runtime on Apple platforms, `Apple/ObjCHandlerHooks.swift`; a table in the tests): a class
/// whose own method list has the selector gets a replacement of its own (a subclass's override is hooked
/// apart from its superclass's method), a class that inherits it leads to the class that declares it
/// (hooked once, whichever of its subclasses asked), and a class and selector are never hooked twice, so
/// starting twice changes nothing. The replacements themselves are generated (one per shape of Objective-C
/// signature, `TrackingRegistry.objcReplacement(for:original:selector:)`): each reports through
/// `Interception.beginControl(object:_:read:)` and calls the original implementation.
@_spi(Generated) public struct ObjCHandlerHook: Sendable, Hashable {
  /// How the generated code names the class.
  public enum ClassName: Sendable, Hashable {
    /// The name the Objective-C runtime knows it by: `Shop.CartViewController` (module and class), a
    /// nested class's mangled name (`_TtCC4Shop5Outer5Inner`), its `@objc(Name)`, a framework class's.
    case objc(String)
    /// A top-level class of the module the registry is compiled into, whose name the sources did not
    /// qualify (an Xcode app target scanned without `--module`): the registry's module is added at start.
    case inRegistryModule(String)
  }

  public let className: ClassName
  /// The handler's Objective-C selector: `onCheckout:`, `tableView:didSelectRowAtIndexPath:`.
  public let selector: String
  public let handler: HandlerID
  /// Which generated replacement fits the method's Objective-C signature.
  public let shape: Int
  /// The line of the plan that maps the handler, for what is said when the hook cannot be installed (0
  /// when the registry does not say).
  public let planLine: Int

  public init(className: ClassName, selector: String, handler: HandlerID, shape: Int, planLine: Int = 0) {
    self.className = className
    self.selector = selector
    self.handler = handler
    self.shape = shape
    self.planLine = planLine
  }

  /// The name to look the class up by, given the module the registry is compiled into.
  func runtimeClassName(registryModule: String?) -> String? {
    switch className {
    case .objc(let name): return name
    case .inRegistryModule(let name): return registryModule.map { "\($0).\(name)" }
    }
  }
}

/// The classes hooks are installed on: lookup by name, own methods, superclasses, and the replacement.
protocol HookableClasses {
  associatedtype ClassReference: Hashable
  func lookUp(_ name: String) -> ClassReference?
  /// Whether the class's own method list (not a superclass's) has the selector.
  func declares(_ selector: String, in type: ClassReference) -> Bool
  func superclass(of type: ClassReference) -> ClassReference?
  /// Replaces the implementation the class declares for the hook's selector with the hook's; false when
  /// no replacement fits (the registry has none of the hook's shape).
  func replace(_ hook: ObjCHandlerHook, in type: ClassReference) -> Bool
}

/// Installs hooks once per class and selector, and says what it did with each.
final class HandlerHookInstaller<Classes: HookableClasses>: @unchecked Sendable {
  /// What became of a hook.
  enum Outcome: Equatable {
    /// Its class's (or a superclass's) method now reports; `declaredBy` is the class hooked.
    case installed(declaredBy: Classes.ClassReference)
    /// The class that declares the method was hooked before (by another hook, or an earlier start).
    case alreadyInstalled(declaredBy: Classes.ClassReference)
    /// No class of that name: not linked into the app, or named otherwise than the sources said.
    case classNotFound(String)
    /// Neither the class nor a superclass has the selector.
    case methodNotFound
    /// The registry has no replacement for the method's shape.
    case noReplacement
    /// Another registry (named) hooked the method first: refused, or this registry's calls would be
    /// reported under the other one's handler numbers.
    case hookedByAnotherRegistry(String)
  }

  private struct Key: Hashable {
    var type: Classes.ClassReference
    var selector: String
  }

  private let lock = NSLock()
  /// Each hooked method, with the registry whose hook it is.
  private var installed: [Key: String] = [:]

  init() {}

  /// Installs each hook's replacement where its method is declared, skipping what `registry` (a name that
  /// tells registries apart: its type's) installed already, and refusing what another registry did.
  func install(
    _ hooks: [ObjCHandlerHook], in classes: Classes, registryModule: String?, registry: String = ""
  ) -> [(hook: ObjCHandlerHook, outcome: Outcome)] {
    lock.lock()
    defer { lock.unlock() }
    return hooks.map { hook in (hook, install(hook, in: classes, registryModule: registryModule, registry: registry)) }
  }

  private func install(_ hook: ObjCHandlerHook, in classes: Classes, registryModule: String?, registry: String) -> Outcome {
    guard let name = hook.runtimeClassName(registryModule: registryModule), let named = classes.lookUp(name) else {
      return .classNotFound(hook.runtimeClassName(registryModule: registryModule) ?? "\(hook.className)")
    }
    // The class itself when its own method list has the selector (an override is hooked apart), else
    // the nearest superclass that declares it.
    var candidate: Classes.ClassReference? = named
    var seen: Set<Classes.ClassReference> = []
    while let type = candidate, seen.insert(type).inserted {
      if classes.declares(hook.selector, in: type) {
        let key = Key(type: type, selector: hook.selector)
        if let owner = installed[key] {
          return owner == registry ? .alreadyInstalled(declaredBy: type) : .hookedByAnotherRegistry(owner)
        }
        guard classes.replace(hook, in: type) else { return .noReplacement }
        installed[key] = registry
        return .installed(declaredBy: type)
      }
      candidate = classes.superclass(of: type)
    }
    return .methodNotFound
  }
}

/// A handler hook the runtime could not install (`interception: objc-runtime`): the handler's calls are
/// not tracked. Each one is printed when found in a debug build (`description`, one line naming the class,
/// the handler and the plan's line) and kept for an app's test or debug screen to read
/// (`Trackc.handlerHookProblems`).
public struct HandlerHookProblem: Sendable, Hashable, CustomStringConvertible {
  public enum Reason: Sendable, Hashable {
    /// No class of this name: not linked into the app, or named otherwise than the sources said.
    case classNotFound
    /// Neither the class nor a superclass has the selector.
    case methodNotFound
    /// The registry has no replacement for the method's shape of signature (a registry generated by
    /// another version of trackc than the runtime's).
    case noReplacement
    /// Another registry (named by its type) hooked the method first; this registry's hook is refused, so
    /// that one registry's calls are never reported under the other's handlers.
    case hookedByAnotherRegistry(String)
  }

  /// The class as the runtime looked it up (`Shop.FeedViewController`).
  public let className: String
  /// The handler's Objective-C selector.
  public let selector: String
  /// The handler's Swift name, as the plan maps it (`onItemTapped(_:)`).
  public let handler: String
  /// The line of the plan that maps it; 0 for a registry generated without it.
  public let planLine: Int
  /// The registry whose hook it is, by its type (`Shop.Tracking.Registry`).
  public let registry: String
  public let reason: Reason

  public var description: String {
    let why: String
    switch reason {
    case .classNotFound: why = "the app has no class \(className)"
    case .methodNotFound: why = "neither \(className) nor a superclass has the method \(selector)"
    case .noReplacement: why = "the registry has no replacement of its signature (regenerate it with this runtime's trackc)"
    case .hookedByAnotherRegistry(let other):
      why = "\(other) hooked \(className) \(selector) first, and one method reports to one registry (give the app one registry)"
    }
    let location = planLine > 0 ? " (the plan's line \(planLine))" : ""
    return "trackc: handler \(handler)\(location) of \(className) is not hooked, so its events are not tracked: \(why)"
  }
}

extension HandlerHookInstaller {
  /// The problems among the outcomes of a registry's hooks, in their order.
  static func problems(_ outcomes: [(hook: ObjCHandlerHook, outcome: Outcome)], of registry: any TrackingRegistry) -> [HandlerHookProblem] {
    let registryName = String(reflecting: type(of: registry))
    return outcomes.compactMap { hook, outcome in
      let reason: HandlerHookProblem.Reason
      switch outcome {
      case .installed, .alreadyInstalled: return nil
      case .classNotFound: reason = .classNotFound
      case .methodNotFound: reason = .methodNotFound
      case .noReplacement: reason = .noReplacement
      case .hookedByAnotherRegistry(let other): reason = .hookedByAnotherRegistry(other)
      }
      return HandlerHookProblem(
        className: hook.runtimeClassName(registryModule: registry.moduleName) ?? "\(hook.className)", selector: hook.selector,
        handler: registry.name(of: hook.handler), planLine: hook.planLine, registry: registryName, reason: reason)
    }
  }
}

extension Interception {
  /// The hook problems found so far, and where each is printed as it is found.
  final class HookProblems: @unchecked Sendable {
    private let lock = NSLock()
    private var found: [HandlerHookProblem] = []
    private var printer: @Sendable (String) -> Void = HookProblems.standardError

    /// Standard error in a debug build (Xcode's console), nothing in a release build.
    static let standardError: @Sendable (String) -> Void = { line in
      #if DEBUG
        FileHandle.standardError.write(Data((line + "\n").utf8))
      #endif
    }

    var all: [HandlerHookProblem] { lock.withLock { found } }

    /// Prints a line as problems are printed.
    func say(_ line: String) {
      lock.withLock { printer }(line)
    }

    func report(_ problems: [HandlerHookProblem]) {
      let printer = lock.withLock {
        found += problems
        return self.printer
      }
      for problem in problems { printer(problem.description) }
    }

    /// Prints with `printer` while `body` runs (the tests read what is printed).
    func printing<T>(to printer: @escaping @Sendable (String) -> Void, _ body: () throws -> T) rethrows -> T {
      let previous = swapPrinter(printer)
      defer { _ = swapPrinter(previous) }
      return try body()
    }

    func printing<T>(to printer: @escaping @Sendable (String) -> Void, _ body: () async throws -> T) async rethrows -> T {
      let previous = swapPrinter(printer)
      defer { _ = swapPrinter(previous) }
      return try await body()
    }

    private func swapPrinter(_ new: @escaping @Sendable (String) -> Void) -> @Sendable (String) -> Void {
      lock.withLock {
        let old = printer
        printer = new
        return old
      }
    }
  }

  static let hookProblems = HookProblems()

  /// Said (in a debug build) when `Trackc.start` runs off the main thread under `objc-runtime`.
  static let hooksLateMessage =
    "trackc: Trackc.start was called off the main thread, so the UIKit hooks are installed when the main thread next runs, and a handler called or a screen shown before then is not tracked; call Trackc.start on the main thread (in application(_:didFinishLaunchingWithOptions:) or the App's init)"

  /// Runs `install` (the UIKit hooks, which the main thread alone may install) at once on the main
  /// thread; from another thread, on the main actor as soon as it is free, saying so first: a handler
  /// called before then is not tracked, and the app's developer sees why.
  static func installOnMainThread(_ install: @escaping @MainActor @Sendable () -> Void) {
    if Thread.isMainThread {
      MainActor.assumeIsolated { install() }
    } else {
      hookProblems.say(hooksLateMessage)
      Task { @MainActor in install() }
    }
  }
}

extension TrackingRegistry {
  /// The module the registry's type is compiled into (`Shop` of `Shop.Tracking.Registry`): where the
  /// classes of `ObjCHandlerHook.ClassName.inRegistryModule` are.
  var moduleName: String? {
    let name = String(reflecting: type(of: self))
    return name.firstIndex(of: ".").map { String(name[..<$0]) }
  }
}

extension Interception {
  /// A hooked handler (`ObjCHandlerHook`) begins on `object`: reports the call (by the object's class and
  /// the handler, as a generated dynamic replacement does), unless it runs inside another hooked call of
  /// the same object and handler (an override calling `super`), so that one call is one event. `read`
  /// returns a bound property's value (`EventRule.keyPathBindings`) from the handler's arguments or the
  /// object; it runs only when the call is reported and the rule binds something.
  @_spi(Generated) public static func beginControl(object: AnyObject, _ handler: HandlerID, read: (KeyPathBinding) -> Any?) -> Scope {
    begin(object: object, code: Int(handler.rawValue)) { tracker in
      tracker.trackControl(of: type(of: object), handler: handler, read: read)
    }
  }
}
