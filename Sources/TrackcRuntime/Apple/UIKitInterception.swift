#if canImport(UIKit) && canImport(ObjectiveC)
  import ObjectiveC
  import UIKit

  /// `interception: objc-runtime` on Apple platforms: replaces each mapped handler's implementation on
  /// its class (`ObjCHandlerHooks`, from the registry), so that every Objective-C dispatch of it reports,
  /// and hooks `UIViewController.viewDidAppear(_:)`/`viewDidDisappear(_:)` once for the page events,
  /// reported by the view controller's type; the registry resolves them (tested on Linux through
  /// `Tracker.trackPage(hostingControllerNamed:rootView:_:read:)`); bound properties are read by key path
  /// (`EventRule.keyPathBindings`).
  ///
  /// A hosting controller's appearance is its SwiftUI root view's when the config does not list the
  /// controller (`HostedRootView`).
  ///
  /// What Swift calls directly (a method that is not `dynamic`, called from Swift code; a `UIAction`
  /// closure's call) never passes through the Objective-C runtime: lint reports a handler with no other
  /// caller (`handler-called-directly`).
  public enum UIKitInterception {
    @MainActor private static var installedPages = false

    /// The handler hooks that could not be installed, each with why: a class the app does not have, a
    /// method no class declares, a method another registry hooked first. Empty when all were. The same as
    /// `Trackc.handlerHookProblems`; each is also printed as it is found, in a debug build.
    @MainActor public static var problems: [HandlerHookProblem] { Interception.hookProblems.all }

    /// Installs the hooks: `Trackc.start` does, when the registry says `objc-runtime`. An app that builds
    /// its own `Tracker` calls it once at launch, after `Interception.install(_:)`. A second call hooks
    /// nothing twice.
    @MainActor public static func install(_ registry: any TrackingRegistry) {
      ObjCHandlerHooks.install(registry)
      guard !installedPages else { return }
      installedPages = true
      exchange(UIViewController.self, #selector(UIViewController.viewDidAppear(_:)), #selector(UIViewController.trackc_viewDidAppear(_:)))
      exchange(
        UIViewController.self, #selector(UIViewController.viewDidDisappear(_:)), #selector(UIViewController.trackc_viewDidDisappear(_:)))
    }

    private static func exchange(_ type: AnyClass, _ original: Selector, _ replacement: Selector) {
      guard let originalMethod = class_getInstanceMethod(type, original),
        let replacementMethod = class_getInstanceMethod(type, replacement)
      else { return }
      method_exchangeImplementations(originalMethod, replacementMethod)
    }
  }

  extension UIViewController {
    // After the exchange, calling these names runs the original implementations.
    @objc dynamic func trackc_viewDidAppear(_ animated: Bool) {
      Interception.page(className: screenTypeName, rootView: hostedRootViewType, .enter) {
        $0.read(from: self, step: ObjCHandlerHooks.value(of:forKey:))
      }
      trackc_viewDidAppear(animated)
    }

    @objc dynamic func trackc_viewDidDisappear(_ animated: Bool) {
      Interception.page(className: screenTypeName, rootView: hostedRootViewType, .leave) {
        $0.read(from: self, step: ObjCHandlerHooks.value(of:forKey:))
      }
      trackc_viewDidDisappear(animated)
    }

    /// The view controller's type as `String(reflecting:)` writes it (`Shop.CartViewController`,
    /// `Shop.Outer.Inner`), as the registry and the handler hooks name screens.
    private var screenTypeName: String { String(reflecting: type(of: self)) }

    /// A hosting controller's root view type, as `String(reflecting:)` writes it; nil for other controllers.
    private var hostedRootViewType: String? {
      #if canImport(SwiftUI)
        (self as? any HostingRootView).map { String(reflecting: $0.rootViewType) }
      #else
        nil
      #endif
    }
  }

  #if canImport(SwiftUI)
    import SwiftUI

    /// What a hosting controller hosts, whatever its generic argument. Main-actor isolated, as
    /// `UIHostingController` is: a conformance of that class to a nonisolated protocol would cross into
    /// main-actor code (a Swift 6 error), and the appearance hooks that ask run on the main actor.
    @MainActor protocol HostingRootView {
      var rootViewType: Any.Type { get }
    }

    extension UIHostingController: HostingRootView {
      var rootViewType: Any.Type { Content.self }
    }
  #endif
#endif
