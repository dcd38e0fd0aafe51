#if canImport(UIKit) && canImport(ObjectiveC)
  import ObjectiveC
  import UIKit

  /// `interception: objc-runtime` on Apple platforms: hooks `UIApplication.sendAction(_:to:from:for:)`
  /// and `UIViewController.viewDidAppear(_:)`/`viewDidDisappear(_:)` once, and reports each to
  /// `Interception` by class name and selector; the registry resolves them (tested on Linux through
  /// `Tracker.trackControl(screenNamed:handlerNamed:read:)`); bound properties are read by key path
  /// (`EventRule.keyPathBindings`). Kept minimal because it cannot be built here.
  ///
  /// A hosting controller's appearance is its SwiftUI root view's when the config does not list the
  /// controller (`HostedRootView`, `Tracker.trackPage(hostingControllerNamed:rootView:_:read:)`).
  ///
  /// Not reached: actions sent to a nil target (resolved along the responder chain).
  public enum UIKitInterception {
    @MainActor private static var installed = false

    /// Call once at launch, after `Interception.install(_:)`.
    @MainActor public static func install() {
      guard !installed else { return }
      installed = true
      exchange(
        UIApplication.self, #selector(UIApplication.sendAction(_:to:from:for:)),
        #selector(UIApplication.trackc_sendAction(_:to:from:for:)))
      exchange(UIViewController.self, #selector(UIViewController.viewDidAppear(_:)), #selector(UIViewController.trackc_viewDidAppear(_:)))
      exchange(
        UIViewController.self, #selector(UIViewController.viewDidDisappear(_:)), #selector(UIViewController.trackc_viewDidDisappear(_:)))
    }

    /// One key-value-coding step, asked only of an object that answers the getter: `value(forKey:)` on
    /// anything else raises an Objective-C exception, which Swift cannot catch.
    static func value(of object: Any, forKey key: String) -> Any? {
      guard let object = object as? NSObject, object.responds(to: NSSelectorFromString(key)) else { return nil }
      return object.value(forKey: key)
    }

    private static func exchange(_ type: AnyClass, _ original: Selector, _ replacement: Selector) {
      guard let originalMethod = class_getInstanceMethod(type, original),
        let replacementMethod = class_getInstanceMethod(type, replacement)
      else { return }
      method_exchangeImplementations(originalMethod, replacementMethod)
    }
  }

  extension UIApplication {
    // After the exchange, calling this name runs the original implementation.
    @objc dynamic func trackc_sendAction(_ action: Selector, to target: Any?, from sender: Any?, for event: UIEvent?) -> Bool {
      if let target = target as AnyObject? {
        Interception.control(className: NSStringFromClass(type(of: target)), selector: NSStringFromSelector(action)) { binding in
          binding.read(from: binding.root == .screen ? target : sender, step: UIKitInterception.value(of:forKey:))
        }
      }
      return trackc_sendAction(action, to: target, from: sender, for: event)
    }
  }

  extension UIViewController {
    @objc dynamic func trackc_viewDidAppear(_ animated: Bool) {
      Interception.page(className: NSStringFromClass(type(of: self)), rootView: hostedRootViewType, .enter) {
        $0.read(from: self, step: UIKitInterception.value(of:forKey:))
      }
      trackc_viewDidAppear(animated)
    }

    @objc dynamic func trackc_viewDidDisappear(_ animated: Bool) {
      Interception.page(className: NSStringFromClass(type(of: self)), rootView: hostedRootViewType, .leave) {
        $0.read(from: self, step: UIKitInterception.value(of:forKey:))
      }
      trackc_viewDidDisappear(animated)
    }

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
