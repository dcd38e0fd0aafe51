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

  public init(className: ClassName, selector: String, handler: HandlerID, shape: Int) {
    self.className = className
    self.selector = selector
    self.handler = handler
    self.shape = shape
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
  }

  private struct Key: Hashable {
    var type: Classes.ClassReference
    var selector: String
  }

  private let lock = NSLock()
  private var installed: Set<Key> = []

  init() {}

  /// Installs each hook's replacement where its method is declared, skipping what is installed already.
  func install(_ hooks: [ObjCHandlerHook], in classes: Classes, registryModule: String?) -> [(hook: ObjCHandlerHook, outcome: Outcome)] {
    lock.lock()
    defer { lock.unlock() }
    return hooks.map { hook in (hook, install(hook, in: classes, registryModule: registryModule)) }
  }

  private func install(_ hook: ObjCHandlerHook, in classes: Classes, registryModule: String?) -> Outcome {
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
        guard !installed.contains(key) else { return .alreadyInstalled(declaredBy: type) }
        guard classes.replace(hook, in: type) else { return .noReplacement }
        installed.insert(key)
        return .installed(declaredBy: type)
      }
      candidate = classes.superclass(of: type)
    }
    return .methodNotFound
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
