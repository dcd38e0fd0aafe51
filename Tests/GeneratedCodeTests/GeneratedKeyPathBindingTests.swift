import FeedApp
import Foundation
@_spi(Generated) import GenerateFixtureTracking
import Testing
@_spi(Generated) import TrackcRuntime

/// The registry generated from `Tests/GenerateFixtures/objc-runtime.yaml`: under `interception:
/// objc-runtime` the rules carry their bindings as key paths, and the tracker reads them through the
/// adapter's reader when a hooked handler is called (`Interception.beginControl(object:_:read:)`, what
/// each generated replacement calls) or a page appears. Key-value coding itself exists only on Apple
/// platforms; here a stand-in walks dictionaries by the same names, which is all the adapter's
/// `KeyPathBinding.read(from:step:)` asks of it, and the objects are Linux stand-ins of the fixture's
/// view controllers (`FeedApp`).
@Suite struct GeneratedKeyPathBindingTests {
  /// `value(forKey:)` on a dictionary: nil for a key the object does not have, as the adapter's
  /// `responds(to:)` check gives.
  static func step(_ object: Any, _ key: String) -> Any? {
    (object as? [String: Any])?[key]
  }

  func received(_ report: (Tracker) -> Void) -> (events: [TrackingEvent], missing: Int) {
    let destination = InMemoryDestination(id: "firebase")
    let tracker = Tracker(registry: ObjCTracking.registry, destinations: [destination])
    report(tracker)
    tracker.flush()
    return (destination.events, tracker.missingBoundValues)
  }

  @Test func anActionCarriesTheSendersAndTheScreensValues() {
    let screen: [String: Any] = ["selectedTab": "deals", "screenTitle": NSString(string: "Feed"), "cart": ["cartTotal": NSNumber(value: 42.5)]]
    let sender: [String: Any] = ["tag": NSNumber(value: 3)]
    let result = received { tracker in
      Interception.withTracker(tracker) {
        Interception.beginControl(object: FeedViewController(), ObjCTracking.Handler.onItemTapped_) { binding in
          binding.read(from: binding.root == .screen ? screen : sender, step: Self.step)
        }.end()
      }
    }
    #expect(result.events.map(\.id) == ["CTRL_FEED_ITEM"])
    #expect(result.events.first?.properties == ["origin": .string("feed"), "position": .int(3), "title": .string("Feed"), "total": .double(42.5)])
    #expect(result.missing == 0)
  }

  /// The Objective-C names are used: `total` is `@objc(cartTotal)`.
  @Test func theGeneratedKeyPathsUseTheObjectiveCNames() throws {
    let feed = try #require(ObjCTracking.registry.screen(named: "FeedApp.FeedViewController"))
    let onItemTapped = try #require(ObjCTracking.registry.handler(named: "onItemTapped:"))
    let rule = try #require(ObjCTracking.registry.controlRule(screen: feed, handler: onItemTapped))
    #expect(rule.keyPathBindings.map(\.steps) == [["tag"], ["screenTitle"], ["cart", "cartTotal"]])
    #expect(rule.keyPathBindings.map(\.root) == [.argument(0), .screen, .screen])
  }

  /// A nil, an `NSNull`, a missing step or a value of another type is left out; counted unless the
  /// binding is `optional: true` (`title`), never a crash.
  @Test func missingAndMistypedValuesAreLeftOutAndCounted() {
    let screen: [String: Any] = ["screenTitle": NSNull(), "cart": ["cartTotal": "not a number"]]
    let result = received { tracker in
      tracker.trackControl(of: FeedViewController.self, handler: ObjCTracking.Handler.onItemTapped_) { binding in
        binding.read(from: binding.root == .screen ? screen : nil, step: Self.step)
      }
      tracker.trackPage(screenNamed: "FeedApp.FeedViewController", .enter) { binding in
        binding.read(from: [String: Any](), step: Self.step)
      }
    }
    #expect(result.events.map(\.id) == ["CTRL_FEED_ITEM", "PAGE_FEED_ENTER"])
    #expect(result.events.first?.properties == ["origin": .string("feed")])
    #expect(result.events.last?.properties == [:])
    #expect(result.missing == 3, "position and total of the action, tab of the page")
  }

  /// A caller without a reader (the names alone) still tracks the event; the bound values are counted
  /// missing.
  @Test func withoutAReaderTheEventGoesOutWithoutItsValues() {
    let result = received { tracker in
      tracker.trackPage(screenNamed: "FeedApp.FeedViewController", .enter)
    }
    #expect(result.events.map(\.id) == ["PAGE_FEED_ENTER"])
    #expect(result.missing == 1)
  }

  @Test func pageBindingsReadTheScreen() {
    let result = received { tracker in
      tracker.trackPage(screenNamed: "FeedApp.FeedViewController", .enter) { binding in
        binding.read(from: ["selectedTab": "for-you"] as [String: Any], step: Self.step)
      }
    }
    #expect(result.events.first?.properties == ["tab": .string("for-you")])
  }
}

/// What key-value coding returns, converted to the declared type without reflection.
@Suite struct KeyPathValueConversionTests {
  func captured(_ value: Any?, as type: KeyPathBinding.ValueType) -> PropertyValue? {
    var properties = CapturedProperties()
    properties.add(KeyPathBinding(key: "k", root: .screen, steps: [], type: type, isRequired: true), value: value)
    return properties.values["k"]
  }

  @Test func conversions() {
    #expect(captured("text", as: .string) == .string("text"))
    #expect(captured(NSString(string: "ns"), as: .string) == .string("ns"))
    #expect(captured(7, as: .string) == .string("7"), "a describable value when the plan says string")
    #expect(captured(NSNumber(value: 7), as: .int) == .int(7))
    #expect(captured(Int32(7), as: .int) == .int(7))
    #expect(captured(7, as: .int) == .int(7))
    #expect(captured(NSNumber(value: 2.5), as: .double) == .double(2.5))
    #expect(captured(Float(2.5), as: .double) == .double(2.5))
    #expect(captured(3, as: .double) == .double(3))
    #expect(captured(true, as: .bool) == .bool(true))
    #expect(captured(NSNumber(value: true), as: .bool) == .bool(true))
  }

  @Test func refusals() {
    #expect(captured(nil, as: .string) == nil)
    #expect(captured(NSNull(), as: .int) == nil)
    #expect(captured("7", as: .int) == nil)
    #expect(captured([1, 2], as: .double) == nil)
    #expect(captured("yes", as: .bool) == nil)
  }
}
