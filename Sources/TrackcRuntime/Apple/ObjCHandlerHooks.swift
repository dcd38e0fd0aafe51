#if canImport(ObjectiveC)
  import Foundation
  import ObjectiveC

  /// The Objective-C side of `interception: objc-runtime`'s handler hooks: classes by name, their own
  /// method lists and superclasses, one implementation replaced by a generated block, and key-value coding
  /// for bound values. The only file that calls the Objective-C runtime's functions; what it does with
  /// them is decided in `HandlerHooks.swift` (plain Swift, tested on Linux) and type-checked here for iOS.
  @_spi(Generated) public enum ObjCHandlerHooks {
    /// One installer for the process: a class and selector hooked once, whichever registry or start asks.
    private static let installer = HandlerHookInstaller<ObjCRuntimeClasses>()

    /// Installs the registry's hooks (`TrackingRegistry.objcHandlerHooks`), and reports each one that could
    /// not be installed (printed in a debug build, kept for `Trackc.handlerHookProblems`); returns those.
    @discardableResult
    public static func install(_ registry: any TrackingRegistry) -> [HandlerHookProblem] {
      let outcomes = installer.install(
        registry.objcHandlerHooks, in: ObjCRuntimeClasses(registry: registry), registryModule: registry.moduleName,
        registry: String(reflecting: type(of: registry)))
      let problems = HandlerHookInstaller<ObjCRuntimeClasses>.problems(outcomes, of: registry)
      Interception.hookProblems.report(problems)
      return problems
    }

    /// A hooked handler begins (what each generated replacement calls before the original): reported as
    /// `Interception.beginControl(object:_:read:)` reports, its bound values read by key-value coding from
    /// `object` or from the handler's arguments (`argument(position)`, in their Objective-C forms).
    public static func begin(_ object: AnyObject, _ handler: HandlerID, argument: (Int) -> Any? = { _ in nil }) -> Interception.Scope {
      Interception.beginControl(object: object, handler) { binding in
        switch binding.root {
        case .screen: return binding.read(from: object, step: value(of:forKey:))
        case .argument(let position): return binding.read(from: argument(position), step: value(of:forKey:))
        }
      }
    }

    /// One key-value-coding step, asked only of an object that answers the getter: `value(forKey:)` on
    /// anything else raises an Objective-C exception, which Swift cannot catch.
    static func value(of object: Any, forKey key: String) -> Any? {
      guard let object = object as? NSObject, object.responds(to: NSSelectorFromString(key)) else { return nil }
      return object.value(forKey: key)
    }
  }

  /// The Objective-C runtime as `HookableClasses`.
  struct ObjCRuntimeClasses: HookableClasses {
    struct ClassReference: Hashable {
      let type: AnyClass

      static func == (lhs: ClassReference, rhs: ClassReference) -> Bool { lhs.type === rhs.type }
      func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(type)) }
    }

    /// Where the replacements come from.
    let registry: any TrackingRegistry

    func lookUp(_ name: String) -> ClassReference? {
      NSClassFromString(name).map(ClassReference.init)
    }

    func declares(_ selector: String, in type: ClassReference) -> Bool {
      var count: UInt32 = 0
      guard let methods = class_copyMethodList(type.type, &count) else { return false }
      defer { free(methods) }
      let wanted = NSSelectorFromString(selector)
      return (0..<Int(count)).contains { method_getName(methods[$0]) == wanted }
    }

    func superclass(of type: ClassReference) -> ClassReference? {
      class_getSuperclass(type.type).map(ClassReference.init)
    }

    /// The class declares the method (`declares`), so `class_getInstanceMethod` finds its own.
    func replace(_ hook: ObjCHandlerHook, in type: ClassReference) -> Bool {
      let selector = NSSelectorFromString(hook.selector)
      guard let method = class_getInstanceMethod(type.type, selector),
        let block = registry.objcReplacement(for: hook, original: method_getImplementation(method), selector: selector)
      else { return false }
      method_setImplementation(method, imp_implementationWithBlock(block))
      return true
    }
  }
#endif
