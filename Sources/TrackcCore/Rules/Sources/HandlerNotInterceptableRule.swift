/// A handler the chosen interception cannot reach: its events would never fire.
///
/// Under `objc-runtime` the runtime replaces the handler's Objective-C implementation on its class, so a
/// handler must be a method of a class exposed to Objective-C (`@objc`, `@IBAction`, an override of a
/// framework method, a requirement of a UIKit delegate or data-source protocol the class adopts; private
/// is fine), the class must be one the runtime finds by name (not private or fileprivate, not generic),
/// and the method's Objective-C signature must be one trackc can repeat (`ObjCSignature`: no result that
/// is an object, no parameter of a type whose Objective-C form the code cannot tell, not `async`). Under
/// `dynamic-replacement` it must be visible
/// to another module (not private or fileprivate), outside any generic context (`some P` parameters
/// included), not a protocol requirement, not `async` (in Swift 6.3 an async replacement that calls the
/// original calls itself), and without a variadic parameter (a replacement cannot pass one on).
public enum HandlerNotInterceptableRule: CodeRule {
  public static let id = "handler-not-interceptable"
  public static let summary =
    "Every handler must be reachable by the config's interception (objc-runtime: @objc, in a class found by name, of a known Objective-C signature; dynamic-replacement: not private, generic, async or variadic)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      "version: 1\nscreens:\n  HomeViewController:\n    control_events:\n      1️⃣onFav(_:): HOME_FAV\n      onShare(_:): HOME_SHARE\n",
      swift: [
        "Sources/Home/Home.swift": """
        class HomeViewController {
          func onFav(_ sender: Any) {}
          @IBAction private func onShare(_ sender: Any) {}
        }
        """
      ],
      expecting: [
        .error(
          "handler 'onFav(_:)' of 'HomeViewController' is not exposed to Objective-C, so target-action (interception: objc-runtime) cannot reach it; mark it '@objc' or '@IBAction'"
        )
      ]),
    .triggers(
      "version: 1\nscreens:\n  CartModel:\n    control_events:\n      1️⃣checkout(): CART_CHECKOUT\n",
      swift: ["Sources/Cart/CartModel.swift": "import Observation\n@Observable final class CartModel {\n  func checkout() {}\n}\n"],
      expecting: [
        .error(
          "handler 'checkout()' of 'CartModel' belongs to 'CartModel', a view model (an @Observable class) the Objective-C runtime cannot reach, so target-action (interception: objc-runtime) never calls it; intercept it with interception: dynamic-replacement"
        )
      ]),
    .triggers(
      """
      version: 1
      screens:
        FeedViewController:
          control_events:
            1️⃣onRotate(_:): FEED_ROTATE
            2️⃣selectedItem(): FEED_SELECTED
            3️⃣refresh(): FEED_REFRESH
            onItemTapped(_:forEvent:): FEED_ITEM
            tableView(_:didSelectRowAt:): FEED_ROW
        HistoryViewController:
          control_events:
            4️⃣onClear(_:): HISTORY_CLEAR
      """,
      swift: [
        "Sources/Feed/Feed.swift": """
        import UIKit
        class FeedViewController: UIViewController {
          @objc func onRotate(_ orientation: ARAnchorOrientation) {}
          @objc func selectedItem() -> UIView? { nil }
          @objc func refresh() async {}
          @objc func onItemTapped(_ sender: UIButton, forEvent event: UIEvent) {}
        }
        extension FeedViewController: UITableViewDelegate {
          func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}
        }
        private final class HistoryViewController: UIViewController {
          @objc func onClear(_ sender: Any) {}
        }
        """
      ],
      expecting: [
        .error(
          "handler 'onRotate(_:)' of 'FeedViewController' takes a 'ARAnchorOrientation', a type neither the sources nor Apple's SDK (as trackc's table of its types knows it) declare, so interception: objc-runtime cannot tell its Objective-C form to repeat its signature; take an object, a Bool, a number, or a struct, enum or option set of Apple's SDK, name a framework's class in conventions.framework_classes, or use interception: dynamic-replacement"
        ),
        .error(
          "handler 'selectedItem()' of 'FeedViewController' returns 'UIView?', an object, whose ownership a replaced Objective-C implementation cannot pass on, so interception: objc-runtime cannot replace it; track from a method that returns nothing, or use interception: dynamic-replacement"
        ),
        .error(
          "handler 'refresh()' of 'FeedViewController' is async, which Objective-C calls with a completion handler the runtime's replacement cannot pass on; track from a synchronous handler that starts the task"
        ),
        .error(
          "handler 'onClear(_:)' of 'HistoryViewController' belongs to 'HistoryViewController', a private class, whose Objective-C name carries a discriminator the runtime cannot look up, so interception: objc-runtime cannot replace its handlers; make it internal or wider, or name it with @objc(Name)"
        ),
      ]),
    .triggers(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        CartModel:
          control_events:
            1️⃣remove(at:): CART_REMOVE
            2️⃣apply(_:): CART_APPLY
            3️⃣refresh(): CART_REFRESH
            4️⃣add(_:): CART_ADD
            5️⃣share(_:): CART_SHARE
            checkout(): CART_CHECKOUT
      """,
      swift: [
        "Sources/Cart/CartModel.swift": """
        final class CartModel {
          private func remove(at index: Int) {}
          func apply<Coupon>(_ coupon: Coupon) {}
          func refresh() async {}
          func add(_ items: String...) {}
          func share(_ target: some Sharing) {}
          func checkout() {}
        }
        """
      ],
      expecting: [
        .error(
          "handler 'remove(at:)' of 'CartModel' is private, so a dynamic replacement in another module cannot name it; make it internal or wider"),
        .error(
          "handler 'apply(_:)' of 'CartModel' is in a generic context, which dynamic replacement (interception: dynamic-replacement) cannot reach; move it to a non-generic type"
        ),
        .error(
          "handler 'refresh()' of 'CartModel' is async; a dynamic replacement of an async method that calls the original calls itself (Swift 6.3), so it cannot be intercepted: track from a synchronous handler that starts the task"
        ), .error("handler 'add(_:)' of 'CartModel' has a variadic parameter, which a generated replacement cannot pass on; take an array instead"),
        .error(
          "handler 'share(_:)' of 'CartModel' is in a generic context, which dynamic replacement (interception: dynamic-replacement) cannot reach; move it to a non-generic type"
        ),
      ]),
    // Apple's structs, enums and option sets, by their kind in the SDK: each one's Objective-C form is known.
    .passes(
      """
      version: 1
      screens:
        MapViewController:
          control_events:
            onInsets(_:): MAP_INSETS
            onDirectional(_:): MAP_DIRECTIONAL
            onCoordinate(_:): MAP_COORDINATE
            onTime(_:): MAP_TIME
            onAuthorization(_:): MAP_AUTHORIZATION
            onModifiers(_:): MAP_MODIFIERS
            onControlEvents(_:): MAP_CONTROL_EVENTS
            onOrientation(_:): MAP_ORIENTATION
            onEditingStyle(_:): MAP_EDITING_STYLE
            onNotification(_:): MAP_NOTIFICATION
      """,
      swift: [
        "Sources/Map/MapViewController.swift": """
        import CoreLocation
        import CoreMedia
        import UIKit
        class MapViewController: UIViewController {
          @objc func onInsets(_ insets: UIEdgeInsets) {}
          @objc func onDirectional(_ insets: NSDirectionalEdgeInsets) {}
          @objc func onCoordinate(_ coordinate: CLLocationCoordinate2D) {}
          @objc func onTime(_ time: CMTime) {}
          @objc func onAuthorization(_ status: CLAuthorizationStatus) {}
          @objc func onModifiers(_ flags: UIKeyModifierFlags) {}
          @objc func onControlEvents(_ events: UIControl.Event) {}
          @objc func onOrientation(_ orientation: UIDeviceOrientation) {}
          @objc func onEditingStyle(_ style: UITableViewCell.EditingStyle) {}
          @objc func onNotification(_ name: NSNotification.Name) {}
        }
        """
      ]),
    .passes(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        CartModel:
          control_events:
            remove(at:): CART_REMOVE
      """,
      swift: ["Sources/Cart/CartModel.swift": "final class CartModel {\n  func remove(at index: Int) {}\n}\n"]),
    // Nested aliases have the Objective-C form of what they stand for.
    .passes(
      """
      version: 1
      interception: objc-runtime
      screens:
        BookingViewController:
          control_events:
            open(_:): BOOKING_OPEN
            count(_:): BOOKING_COUNT
            seat(_:): BOOKING_SEAT
      """,
      swift: [
        "Sources/Bookings/BookingViewController.swift": """
        import UIKit
        struct Booking {
          typealias ID = String
          typealias Count = Int
        }
        struct Seat: Identifiable { let id: Int }
        final class BookingViewController: UIViewController {
          @objc func open(_ id: Booking.ID) {}
          @objc func count(_ count: Booking.Count) {}
          @objc func seat(_ seat: Seat.ID) {}
        }
        """
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    let plan = code.plan
    for event in plan.events {
      guard let reference = code.method(of: event.id), let type = event.screen.flatMap(code.type(of:)), let control = plan.control(event) else {
        continue
      }
      let method = code.index[reference]
      let owner = code.index[reference.type]
      let declared = [Diagnostic.Note("'\(method.name)' is declared here", at: method.nameLocation)]
      let subject = "handler '\(control.key.value)' of '\(code.index[type].name)'"
      switch plan.interception {
      case .objcRuntime:
        if owner.kind != .class && owner.kind != .external {
          context.report(
            Self.self,
            "\(subject) belongs to \(article(owner.kind)) '\(owner.name)'; target-action (interception: objc-runtime) calls methods of classes only",
            at: control.key.range, notes: declared)
        } else if method.objcSelector == nil, let observation = code.index.swiftUI.observableClasses[reference.type],
          !code.index.isKnownObjCClass(reference.type)
        {
          let what = observation == .observable ? "an @Observable class" : "an ObservableObject"
          context.report(
            Self.self,
            "\(subject) belongs to '\(owner.name)', a view model (\(what)) the Objective-C runtime cannot reach, so target-action (interception: objc-runtime) never calls it; intercept it with interception: dynamic-replacement",
            at: control.key.range, notes: declared)
        } else if method.objcSelector == nil {
          context.report(
            Self.self,
            "\(subject) is not exposed to Objective-C, so target-action (interception: objc-runtime) cannot reach it; mark it '@objc' or '@IBAction'",
            at: control.key.range, notes: declared)
        } else if case .failure(let problem) = ObjCClassName.hookedClasses(for: type, in: code.index) {
          let screen = code.index[type]
          let classNotes = [Diagnostic.Note("'\(screen.name)' is declared here", at: screen.nameLocation)]
          let what: String
          switch problem {
          case .private(let access):
            what =
              "a \(access.rawValue) class, whose Objective-C name carries a discriminator the runtime cannot look up, so interception: objc-runtime cannot replace its handlers; make it internal or wider, or name it with @objc(Name)"
          case .generic:
            what =
              "a generic class, which the Objective-C runtime knows only by each specialization, and no class of the sources below it is not generic, so interception: objc-runtime cannot replace its handlers; declare a non-generic subclass, or use interception: dynamic-replacement"
          case .nested:
            what =
              "a nested class whose module the sources do not say, so interception: objc-runtime cannot name it to replace its handlers; name it with @objc(Name), or scan its sources with --module"
          }
          context.report(Self.self, "\(subject) belongs to '\(screen.name)', \(what)", at: control.key.range, notes: classNotes)
        } else if case .failure(let problem) = ObjCSignature.of(method, in: code.index, owner: reference.type) {
          let reason: String
          switch problem {
          case .noSignature: continue
          case .parameter(let type):
            reason =
              "takes a '\(type)', a type neither the sources nor Apple's SDK (as trackc's table of its types knows it) declare, so interception: objc-runtime cannot tell its Objective-C form to repeat its signature; take an object, a Bool, a number, or a struct, enum or option set of Apple's SDK, name a framework's class in conventions.framework_classes, or use interception: dynamic-replacement"
          case .result(let type):
            reason =
              "returns a '\(type)', whose Objective-C form trackc cannot tell from the code, so interception: objc-runtime cannot repeat its signature to replace it; track from a method that returns nothing, or use interception: dynamic-replacement"
          case .objectResult(let type):
            reason =
              "returns '\(type)', an object, whose ownership a replaced Objective-C implementation cannot pass on, so interception: objc-runtime cannot replace it; track from a method that returns nothing, or use interception: dynamic-replacement"
          case .async:
            reason =
              "is async, which Objective-C calls with a completion handler the runtime's replacement cannot pass on; track from a synchronous handler that starts the task"
          }
          context.report(Self.self, "\(subject) \(reason)", at: control.key.range, notes: declared)
        }
      case .dynamicReplacement:
        if owner.kind == .protocol {
          context.report(
            Self.self,
            "\(subject) is a requirement of protocol '\(owner.name)'; dynamic replacement needs a method with a body: map the conforming type's method",
            at: control.key.range, notes: declared)
        } else if method.access <= .fileprivate {
          context.report(
            Self.self,
            "\(subject) is \(method.access.rawValue), so a dynamic replacement in another module cannot name it; make it internal or wider",
            at: control.key.range, notes: declared)
        } else if method.inGenericContext || method.signature?.parameters.contains(where: { $0.type.hasPrefix("some ") }) == true {
          context.report(
            Self.self,
            "\(subject) is in a generic context, which dynamic replacement (interception: dynamic-replacement) cannot reach; move it to a non-generic type",
            at: control.key.range, notes: declared)
        } else if method.isAsync {
          context.report(
            Self.self,
            "\(subject) is async; a dynamic replacement of an async method that calls the original calls itself (Swift 6.3), so it cannot be intercepted: track from a synchronous handler that starts the task",
            at: control.key.range, notes: declared)
        } else if method.signature?.parameters.contains(where: \.isVariadic) == true {
          context.report(
            Self.self, "\(subject) has a variadic parameter, which a generated replacement cannot pass on; take an array instead",
            at: control.key.range, notes: declared)
        }
      }
    }
  }

  static func article(_ kind: DeclaredType.Kind) -> String {
    switch kind {
    case .enum, .actor: return "an \(kind.rawValue)"
    default: return "a \(kind.rawValue)"
    }
  }
}
