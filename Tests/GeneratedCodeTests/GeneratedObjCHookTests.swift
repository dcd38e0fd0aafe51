import FeedApp
import Foundation
@_spi(Generated) import GenerateFixtureTracking
import Testing

@_spi(Generated) @testable import TrackcRuntime

/// `interception: objc-runtime`'s handler hooks, through the registry generated from
/// `Tests/GenerateFixtures/objc-runtime.yaml` (`ObjCTracking`): which class and selector each hook names,
/// where the runtime installs it (the class that declares the method: an override apart, an inherited
/// handler on its superclass), that nothing is hooked twice, and what a hooked call reports. The
/// Objective-C runtime is a table here (`ObjCRuntimeTable`) whose replacements do what each generated
/// block does (report through `Interception.beginControl(object:_:read:)`, then call the original); the
/// blocks themselves, and the runtime's calls of Objective-C, are type-checked for iOS by
/// `Scripts/typecheck-ios.sh`, not run here.
@Suite struct GeneratedObjCHookTests {
  static let registry = ObjCTracking.registry

  /// The fixture's classes as the Objective-C runtime holds them: each one's own methods.
  static func runtime() -> ObjCRuntimeTable {
    let table = ObjCRuntimeTable()
    table.add("UIViewController", superclass: nil, methods: ["viewDidAppear:"])
    table.add("UITableViewController", superclass: "UIViewController", methods: ["numberOfSectionsInTableView:"])
    table.add("FeedApp.FeedViewController", superclass: "UIViewController", methods: ["onItemTapped:"])
    // The override calls `super` (an Objective-C `super` send, as `super.onItemTapped(sender)` makes one
    // when the method is `dynamic`; a Swift `super` call would go straight to the Swift implementation).
    table.add("FeedApp.PromoFeedViewController", superclass: "FeedApp.FeedViewController", methods: ["onItemTapped:"], callsSuper: true)
    table.add("FeedApp.ArchiveFeedViewController", superclass: "FeedApp.FeedViewController", methods: [])
    table.add("FeedApp.StoriesViewController", superclass: "UITableViewController", methods: ["tableView:didSelectRowAtIndexPath:"])
    return table
  }

  func received(_ calls: (Tracker) -> Void) -> [TrackingEvent] {
    let destination = InMemoryDestination(id: "firebase")
    let tracker = Tracker(registry: Self.registry, destinations: [destination])
    Interception.withTracker(tracker) { calls(tracker) }
    tracker.flush()
    return destination.events
  }

  @Test func theRegistryNamesEachHandlersClassesAndSelector() {
    let hooks = Self.registry.objcHandlerHooks.map { "\($0.className) \($0.selector) \(Self.registry.name(of: $0.handler))" }
    #expect(
      hooks == [
        #"objc("FeedApp.FeedViewController") onItemTapped: onItemTapped(_:)"#,
        // The subclass that overrides the handler; the one that inherits it is not named.
        #"objc("FeedApp.PromoFeedViewController") onItemTapped: onItemTapped(_:)"#,
        // A delegate method, by the selector UIKit calls.
        #"objc("FeedApp.StoriesViewController") tableView:didSelectRowAtIndexPath: tableView(_:didSelectRowAt:)"#,
      ])
    #expect(Self.registry.hooksUIKit)
  }

  @Test func eachHookGoesWhereItsMethodIsDeclared() {
    let runtime = Self.runtime()
    let outcomes = HandlerHookInstaller<ObjCRuntimeTable>().install(Self.registry.objcHandlerHooks, in: runtime, registryModule: nil)
    #expect(
      outcomes.map(\.outcome) == [
        .installed(declaredBy: "FeedApp.FeedViewController"), .installed(declaredBy: "FeedApp.PromoFeedViewController"),
        .installed(declaredBy: "FeedApp.StoriesViewController"),
      ])
    #expect(
      runtime.replaced == [
        "FeedApp.FeedViewController onItemTapped:", "FeedApp.PromoFeedViewController onItemTapped:",
        "FeedApp.StoriesViewController tableView:didSelectRowAtIndexPath:",
      ])
  }

  /// Whatever sends the selector (a control's action, a gesture recognizer, UIKit calling a delegate), the
  /// call reports once, with its bound values read from the arguments and the screen.
  @Test func hookedCallsReportOnceWhateverTheClass() throws {
    let runtime = Self.runtime()
    _ = HandlerHookInstaller<ObjCRuntimeTable>().install(Self.registry.objcHandlerHooks, in: runtime, registryModule: nil)
    let feed = FeedViewController()
    runtime.state[ObjectIdentifier(feed)] = ["screenTitle": "Feed", "cart": ["cartTotal": NSNumber(value: 12.5)]]
    let events = received { _ in
      runtime.send("onItemTapped:", to: feed, ["tag": NSNumber(value: 3)])
      // Inherited: the superclass's replacement reports it, for the subclass's screen.
      runtime.send("onItemTapped:", to: ArchiveFeedViewController(), ["tag": NSNumber(value: 4)])
      // Overridden, calling super: two replacements run, one event.
      runtime.send("onItemTapped:", to: PromoFeedViewController(), ["tag": NSNumber(value: 5)])
      // A delegate method: the row from the index path, the second argument.
      runtime.send("tableView:didSelectRowAtIndexPath:", to: StoriesViewController(), "a table view", ["row": NSNumber(value: 7)])
    }
    #expect(events.map(\.id) == ["CTRL_FEED_ITEM", "CTRL_FEED_ITEM", "CTRL_FEED_ITEM", "CTRL_STORY_SELECT"])
    #expect(events.map(\.screen) == ["FeedViewController", "FeedViewController", "FeedViewController", "StoriesViewController"])
    #expect(events.map { $0.properties["position"] } == [.int(3), .int(4), .int(5), nil])
    #expect(events[0].properties["title"] == .string("Feed") && events[0].properties["total"] == .double(12.5))
    #expect(events[3].properties == ["row": .int(7)])
    #expect(runtime.originalCalls == 5, "every original ran: three handlers, the override's super, the delegate")
  }

  /// `Trackc.start` called twice, or two registries naming the same method: nothing is hooked twice, and a
  /// call still reports once.
  @Test func aSecondInstallHooksNothingTwice() {
    let runtime = Self.runtime()
    let installer = HandlerHookInstaller<ObjCRuntimeTable>()
    _ = installer.install(Self.registry.objcHandlerHooks, in: runtime, registryModule: nil)
    let again = installer.install(Self.registry.objcHandlerHooks, in: runtime, registryModule: nil)
    #expect(
      again.map(\.outcome) == [
        .alreadyInstalled(declaredBy: "FeedApp.FeedViewController"), .alreadyInstalled(declaredBy: "FeedApp.PromoFeedViewController"),
        .alreadyInstalled(declaredBy: "FeedApp.StoriesViewController"),
      ])
    #expect(runtime.replaced.count == 3)
    let events = received { _ in runtime.send("onItemTapped:", to: FeedViewController(), ["tag": NSNumber(value: 1)]) }
    #expect(events.map(\.id) == ["CTRL_FEED_ITEM"])
  }

  /// A hook naming a class that only inherits the method is installed on the superclass that declares
  /// it, once, whichever subclass asks first.
  @Test func anInheritedHandlerIsHookedOnceOnItsDeclaringClass() {
    let runtime = Self.runtime()
    let installer = HandlerHookInstaller<ObjCRuntimeTable>()
    let handler = ObjCTracking.Handler.onItemTapped_
    let outcomes = installer.install(
      [
        ObjCHandlerHook(className: .objc("FeedApp.ArchiveFeedViewController"), selector: "onItemTapped:", handler: handler, shape: 0),
        ObjCHandlerHook(className: .objc("FeedApp.FeedViewController"), selector: "onItemTapped:", handler: handler, shape: 0),
      ], in: runtime, registryModule: nil)
    #expect(
      outcomes.map(\.outcome) == [.installed(declaredBy: "FeedApp.FeedViewController"), .alreadyInstalled(declaredBy: "FeedApp.FeedViewController")])
    #expect(runtime.replaced == ["FeedApp.FeedViewController onItemTapped:"])
  }

  /// What cannot be hooked is said, hook by hook; a class the sources did not qualify is looked up in the
  /// registry's module.
  @Test func whatCannotBeHookedIsSaid() {
    let runtime = Self.runtime()
    runtime.add("App.LocalViewController", superclass: "UIViewController", methods: ["onLocal"])
    let handler = ObjCTracking.Handler.onItemTapped_
    let outcomes = HandlerHookInstaller<ObjCRuntimeTable>().install(
      [
        ObjCHandlerHook(className: .objc("FeedApp.Gone"), selector: "onItemTapped:", handler: handler, shape: 0),
        ObjCHandlerHook(className: .objc("FeedApp.FeedViewController"), selector: "onMissing:", handler: handler, shape: 0),
        ObjCHandlerHook(className: .objc("FeedApp.FeedViewController"), selector: "onItemTapped:", handler: handler, shape: 99),
        ObjCHandlerHook(className: .inRegistryModule("LocalViewController"), selector: "onLocal", handler: handler, shape: 0),
      ], in: runtime, registryModule: "App")
    #expect(
      outcomes.map(\.outcome) == [.classNotFound("FeedApp.Gone"), .methodNotFound, .noReplacement, .installed(declaredBy: "App.LocalViewController")])
    #expect(Self.registry.moduleName == "GenerateFixtureTracking")
  }
}

/// What a hook that cannot be installed tells the app's developer: a line naming the handler, the plan's
/// line, the class and why (printed as found in a debug build), the same as values to read, and a second
/// registry's hooks on methods another registry hooked refused. Serialized: the tests replace where the
/// lines are printed.
@Suite(.serialized) struct HandlerHookProblemTests {
  static let registry = ObjCTracking.registry

  /// A registry of another type, with the same hooks: an app that links two.
  struct SecondRegistry: TrackingRegistry {
    let base = ObjCTracking.registry
    func screen(named name: String) -> ScreenID? { base.screen(named: name) }
    func handler(named name: String) -> HandlerID? { base.handler(named: name) }
    func pageRule(screen: ScreenID, phase: PagePhase) -> EventRule? { base.pageRule(screen: screen, phase: phase) }
    func controlRule(screen: ScreenID, handler: HandlerID) -> EventRule? { base.controlRule(screen: screen, handler: handler) }
    func rule(eventID: String) -> EventRule? { base.rule(eventID: eventID) }
    func name(of screen: ScreenID) -> String { base.name(of: screen) }
    func name(of handler: HandlerID) -> String { base.name(of: handler) }
    var objcHandlerHooks: [ObjCHandlerHook] { base.objcHandlerHooks }
  }

  @Test func eachHookSaysWhereThePlanMapsIt() {
    // The lines of objc-runtime.yaml that map onItemTapped(_:) (for the class and its override) and the
    // delegate method.
    #expect(Self.registry.objcHandlerHooks.map(\.planLine) == [23, 23, 35])
  }

  @Test func aProblemIsOneLineNamingTheHandlerThePlanLineTheClassAndWhy() throws {
    let runtime = GeneratedObjCHookTests.runtime()
    let handler = ObjCTracking.Handler.onItemTapped_
    let outcomes = HandlerHookInstaller<ObjCRuntimeTable>().install(
      [
        ObjCHandlerHook(className: .objc("FeedApp.Gone"), selector: "onItemTapped:", handler: handler, shape: 0, planLine: 25),
        ObjCHandlerHook(
          className: .objc("FeedApp.FeedViewController"), selector: "onMissing:", handler: handler, shape: 0, planLine: 26),
        ObjCHandlerHook(className: .objc("FeedApp.FeedViewController"), selector: "onItemTapped:", handler: handler, shape: 0),
      ], in: runtime, registryModule: nil)
    let problems = HandlerHookInstaller<ObjCRuntimeTable>.problems(outcomes, of: Self.registry)
    #expect(problems.map(\.reason) == [.classNotFound, .methodNotFound])
    #expect(problems.map(\.className) == ["FeedApp.Gone", "FeedApp.FeedViewController"])
    #expect(problems.allSatisfy { $0.handler == "onItemTapped(_:)" && $0.registry.hasSuffix("ObjCTracking.Registry") })
    #expect(
      problems.map(\.description) == [
        "trackc: handler onItemTapped(_:) (the plan's line 25) of FeedApp.Gone is not hooked, so its events are not tracked: the app has no class FeedApp.Gone",
        "trackc: handler onItemTapped(_:) (the plan's line 26) of FeedApp.FeedViewController is not hooked, so its events are not tracked: neither FeedApp.FeedViewController nor a superclass has the method onMissing:",
      ])

    // Reported: printed at once, one line each, and readable from the public property.
    let printed = Lines()
    Interception.hookProblems.printing(to: { printed.append($0) }) { Interception.hookProblems.report(problems) }
    #expect(printed.all == problems.map(\.description))
    #expect(Trackc.handlerHookProblems.suffix(2) == problems[...])
  }

  /// Two registries naming the same methods: the first one's hooks stay, the second one's are refused
  /// and said, so that no call is reported under the other registry's handler numbers.
  @Test func aSecondRegistrysCollisionsAreRefused() {
    let runtime = GeneratedObjCHookTests.runtime()
    let installer = HandlerHookInstaller<ObjCRuntimeTable>()
    let first = String(reflecting: type(of: Self.registry))
    _ = installer.install(Self.registry.objcHandlerHooks, in: runtime, registryModule: nil, registry: first)
    let second = SecondRegistry()
    let outcomes = installer.install(second.objcHandlerHooks, in: runtime, registryModule: nil, registry: String(reflecting: SecondRegistry.self))
    #expect(outcomes.map(\.outcome) == Array(repeating: .hookedByAnotherRegistry(first), count: 3))
    #expect(runtime.replaced.count == 3, "nothing hooked twice")
    let problems = HandlerHookInstaller<ObjCRuntimeTable>.problems(outcomes, of: second)
    #expect(problems.map(\.reason) == Array(repeating: .hookedByAnotherRegistry(first), count: 3))
    #expect(problems[0].description.contains("\(first) hooked FeedApp.FeedViewController onItemTapped: first"), "\(problems[0])")
    // The first registry installing again is no collision.
    let again = installer.install(Self.registry.objcHandlerHooks, in: runtime, registryModule: nil, registry: first)
    #expect(again.allSatisfy { if case .alreadyInstalled = $0.outcome { true } else { false } })
  }

  /// Off the main thread, the hooks go in later, on the main actor (the closure's isolation), and a line
  /// says so first.
  @Test func installingOffTheMainThreadIsSaid() async {
    let printed = Lines()
    let printedBeforeInstall: [String] = await Interception.hookProblems.printing(to: { printed.append($0) }) {
      await withCheckedContinuation { continuation in
        Thread.detachNewThread {
          Interception.installOnMainThread { continuation.resume(returning: printed.all) }
        }
      }
    }
    #expect(printedBeforeInstall == [Interception.hooksLateMessage])
    #expect(printed.all == [Interception.hooksLateMessage])
  }
}

/// Lines printed, from any thread.
final class Lines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func append(_ line: String) { lock.withLock { lines.append(line) } }
  var all: [String] { lock.withLock { lines } }
}

/// The Objective-C runtime as `HandlerHookInstaller` sees it, with message sends: classes by name, each
/// with its superclass and the implementations of its own method list. A replacement does what a
/// generated block does: it reports the call through `Interception.beginControl(object:_:read:)` (bound
/// values read by key path from the arguments, or from the object's state, through dictionaries standing
/// for key-value coding), then calls the original implementation with the same arguments.
final class ObjCRuntimeTable: HookableClasses, @unchecked Sendable {
  typealias Implementation = (AnyObject, [Any?]) -> Void

  private struct Class {
    var superclass: String?
    var methods: [String: Implementation]
  }

  private var classes: [String: Class] = [:]
  /// The key-value state of each object (its `@objc` properties).
  var state: [ObjectIdentifier: [String: Any]] = [:]
  private(set) var replaced: [String] = []
  private(set) var originalCalls = 0

  /// A class whose own methods are `methods`; each original implementation counts its calls, and with
  /// `callsSuper`, sends the same message to the superclass's implementation.
  func add(_ name: String, superclass: String?, methods: [String], callsSuper: Bool = false) {
    var implementations: [String: Implementation] = [:]
    for selector in methods {
      implementations[selector] = { [unowned self] object, arguments in
        originalCalls += 1
        if callsSuper, let superclass { send(selector, to: object, in: superclass, arguments) }
      }
    }
    classes[name] = Class(superclass: superclass, methods: implementations)
  }

  func lookUp(_ name: String) -> String? { classes[name] == nil ? nil : name }
  func declares(_ selector: String, in type: String) -> Bool { classes[type]?.methods[selector] != nil }
  func superclass(of type: String) -> String? { classes[type]?.superclass }

  func replace(_ hook: ObjCHandlerHook, in type: String) -> Bool {
    guard hook.shape < 2, let original = classes[type]?.methods[hook.selector] else { return false }
    replaced.append("\(type) \(hook.selector)")
    classes[type]!.methods[hook.selector] = { [unowned self] object, arguments in
      let scope = Interception.beginControl(object: object, hook.handler) { binding in
        switch binding.root {
        case .screen: return binding.read(from: state[ObjectIdentifier(object)] ?? [:], step: Self.step)
        case .argument(let position): return binding.read(from: position < arguments.count ? arguments[position] : nil, step: Self.step)
        }
      }
      defer { scope.end() }
      original(object, arguments)
    }
    return true
  }

  /// `objc_msgSend`: the implementation of the object's class, else of the nearest superclass.
  func send(_ selector: String, to object: AnyObject, _ arguments: Any?...) {
    send(selector, to: object, in: String(reflecting: type(of: object)), arguments)
  }

  private func send(_ selector: String, to object: AnyObject, in className: String, _ arguments: [Any?]) {
    var current: String? = className
    while let name = current, let type = classes[name] {
      if let implementation = type.methods[selector] { return implementation(object, arguments) }
      current = type.superclass
    }
    Issue.record("\(className) does not respond to \(selector)")
  }

  /// `value(forKey:)`, on dictionaries.
  static func step(_ object: Any, _ key: String) -> Any? {
    (object as? [String: Any])?[key]
  }
}
