/// Page events on a type that cannot have the lifecycle the interception watches: they would never fire.
///
/// Under `objc-runtime` page events come from `UIViewController`'s appearance methods, so the screen must
/// be a view controller: a struct or enum never is, and neither is a view model, a class whose
/// superclass chain ends in a framework class that is not one (`NSObject`, `UIView`), or a Swift root
/// class (no superclass at all; its `@objc` methods are still the Objective-C runtime's, but nothing
/// calls a view controller's appearance methods on it). Under `dynamic-replacement` they come from replacing the
/// screen's lifecycle methods (`conventions.lifecycle`, by default `viewDidAppear(_:)` or `onAppear()`,
/// and `viewDidDisappear(_:)` or `onDisappear()`), which the type or a superclass in the sources must
/// declare. SwiftUI views are `unreached-screen`'s: their page events come from `.tracked(_:)`.
public enum ScreenLifecycleRule: CodeRule {
  public static let id = "screen-lifecycle"
  public static let summary = "A screen with page events must have the lifecycle its interception watches (a class; or the lifecycle methods)."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      "version: 1\nscreens:\n  HomeView:\n    page_events: {1️⃣enter: HOME_ENTER}\n",
      swift: ["Sources/Home/HomeView.swift": "struct HomeView {}\n"],
      expecting: [
        .warning(
          "'HomeView' is a struct, so it has no view controller lifecycle: its enter event (interception: objc-runtime, which watches view controllers' appearance) would never fire"
        )
      ]),
    .triggers(
      "version: 1\ninterception: dynamic-replacement\nscreens:\n  HomeModel:\n    page_events: {enter: HOME_ENTER, 1️⃣leave: HOME_LEAVE}\n",
      swift: ["Sources/Home/HomeModel.swift": "class HomeModel {\n  func viewDidAppear(_ animated: Bool) {}\n}\n"],
      expecting: [
        .warning(
          "'HomeModel' declares no 'viewDidDisappear(_:)' or 'onDisappear()' (nor does a superclass in the sources), so its leave event cannot be intercepted; declare it, or name another method in conventions.lifecycle"
        )
      ]),
    .triggers(
      "version: 1\nscreens:\n  CartModel:\n    page_events: {1️⃣enter: CART_ENTER}\n",
      swift: ["Sources/Cart/CartModel.swift": "import Observation\n@Observable final class CartModel {\n  func onAppear() {}\n}\n"],
      expecting: [
        .warning(
          "'CartModel' is a view model (an @Observable class), not a view controller: its enter event (interception: objc-runtime, which watches view controllers' appearance) would never fire"
        )
      ]),
    .triggers(
      """
      version: 1
      interception: dynamic-replacement
      conventions: {lifecycle: {enter: [task(), onAppear()]}}
      screens:
        OrdersModel: {page_events: {1️⃣enter: ORDERS_ENTER}}
      """,
      swift: ["Sources/Orders/OrdersModel.swift": "@Observable final class OrdersModel {\n  func task() async {}\n}\n"],
      expecting: [
        .warning(
          "'OrdersModel'.task() is async: a dynamic replacement of an async method that calls the original calls itself (Swift 6.3); carry the page event on a synchronous method, such as the one that starts the task; its enter event cannot be intercepted"
        )
      ]),
    .passes(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        CartModel: {page_events: {enter: CART_ENTER, leave: CART_LEAVE}}
        CartViewController: {page_events: {enter: CART_VC_ENTER}}
      """,
      swift: [
        "Sources/Cart/CartModel.swift": "@Observable final class CartModel {\n  func onAppear() {}\n  func onDisappear() {}\n}\n",
        "Sources/Cart/CartViewController.swift":
          "class CartViewController: UITableViewController {\n  override func viewDidAppear(_ animated: Bool) {}\n}\n",
      ]),
    .passes(
      """
      version: 1
      interception: dynamic-replacement
      conventions: {lifecycle: {enter: start(), leave: [stop(), onDisappear()]}}
      screens:
        HomeModel: {page_events: {enter: HOME_ENTER, leave: HOME_LEAVE}}
      """,
      swift: ["Sources/Home/HomeModel.swift": "class HomeModel {\n  func start() {}\n  func onDisappear() {}\n}\n"]),
    .triggers(
      "version: 1\nscreens:\n  CheckoutCoordinator:\n    page_events: {1️⃣enter: CHECKOUT_ENTER}\n",
      swift: ["Sources/Checkout/CheckoutCoordinator.swift": "final class CheckoutCoordinator {\n  func start() {}\n}\n"],
      expecting: [
        .warning(
          "'CheckoutCoordinator' is not a view controller (it has no superclass): its enter event (interception: objc-runtime, which watches view controllers' appearance) would never fire"
        )
      ]),
    .passes(
      "version: 1\nscreens:\n  SettingsViewController:\n    page_events: {enter: SETTINGS_ENTER}\n",
      swift: ["Sources/Settings/Settings.swift": "class SettingsViewController: UITableViewController {}\n"]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    let plan = code.plan
    for screen in plan.screens {
      let written = plan.written(screen.id)
      guard let type = code.type(of: screen.id), !written.pageEvents.isEmpty, !code.index.swiftUI.views.contains(type) else { continue }
      let declared = code.index[type]
      let at = [Diagnostic.Note("'\(declared.name)' is declared here", at: declared.nameLocation)]
      switch plan.interception {
      case .objcRuntime:
        let what: String
        if declared.kind != .class {
          what = "is \(HandlerNotInterceptableRule.article(declared.kind)), so it has no view controller lifecycle"
        } else if let observation = code.index.swiftUI.observableClasses[type] {
          what = "is a view model (\(observation == .observable ? "an @Observable class" : "an ObservableObject")), not a view controller"
        } else if code.index.isRootClass(type) {
          let superclasses = code.index.ancestry(of: type).dropFirst()
          what =
            "is not a view controller ("
            + (superclasses.isEmpty ? "it has no superclass" : "its superclasses: " + superclasses.joined(separator: ", ") + "; the last has none")
            + ")"
        } else if let base = code.index.externalBase(of: type), code.index.frameworkClasses.contains(base), !code.index.isViewController(type) {
          let superclasses = code.index.ancestry(of: type).dropFirst()
          what =
            "is not a view controller ("
            + (superclasses.isEmpty ? "it has no superclass" : "its superclasses: " + superclasses.joined(separator: ", ")) + ")"
        } else {
          continue
        }
        for page in written.pageEvents {
          context.report(
            Self.self,
            "'\(declared.name)' \(what): its \(page.phase.value.rawValue) event (interception: objc-runtime, which watches view controllers' appearance) would never fire",
            at: page.phase.range, notes: at)
        }
      case .dynamicReplacement:
        for page in written.pageEvents where code.lifecycleMethod(for: page.phase.value, of: type) == nil {
          // One it has that no replacement can reach: an `async func task()`, a private `onAppear()`.
          let unreachable = plan.config.conventions.lifecycle.methods(for: page.phase.value).lazy
            .compactMap { code.index.instanceMethod(named: $0, on: type) }.first
          if let unreachable {
            let method = code.index[unreachable]
            let why =
              method.isAsync
              ? "is async: a dynamic replacement of an async method that calls the original calls itself (Swift 6.3); carry the page event on a synchronous method, such as the one that starts the task"
              : "is \(method.access <= .fileprivate ? method.access.rawValue : "in a generic context"), so a dynamic replacement in another module cannot reach it"
            context.report(
              Self.self, "'\(declared.name)'.\(method.name) \(why); its \(page.phase.value.rawValue) event cannot be intercepted",
              at: page.phase.range,
              notes: [Diagnostic.Note("'\(method.name)' is declared here", at: method.nameLocation)])
            continue
          }
          let lifecycle = plan.config.conventions.lifecycle.methods(for: page.phase.value).map { "'\($0)'" }
          let names = lifecycle.count == 1 ? lifecycle[0] : lifecycle.dropLast().joined(separator: ", ") + " or " + lifecycle.last!
          context.report(
            Self.self,
            "'\(declared.name)' declares no \(names) (nor does a superclass in the sources), so its \(page.phase.value.rawValue) event cannot be intercepted; declare it, or name another method in conventions.lifecycle",
            at: page.phase.range, notes: at)
        }
      }
    }
  }
}
