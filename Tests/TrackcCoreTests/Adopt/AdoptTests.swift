import Foundation
import Testing
import TrackcCore
import TrackcTestSupport

/// `trackc adopt` on the fixtures: each call shape found, each mapping, each reason a call is left (a
/// warning with its rule ID, at the call), and a plan that lints clean.
@Suite struct AdoptTests {
  static func adopt(
    _ files: [(path: String, text: String)] = AdoptFixtures.all, wrappers: [String] = [], nameCase: EventNameTable.NameCase = .asWritten
  ) -> Adopter.Result {
    var options = Adopter.Options()
    options.patterns = wrappers.map { try! CallPattern.wrapper($0).get() } + CallPattern.sdks
    options.nameCase = nameCase
    options.planSources = ["Sources"]
    options.scan = ScanOptions(useCache: false)
    return Adopter.adopt(.files(files), options: options)
  }

  static let result = adopt(
    wrappers: ["Analytics.track(_:properties:)", "Pixel.fire(pixel:withAdditionalParameters:)"], nameCase: .snakeCase)

  func left(_ rule: AdoptReason, line: Int, file: String = "Sources/App/Cart.swift") -> Diagnostic? {
    Self.result.diagnostics.first { $0.ruleID == rule.rawValue && $0.location.file == file && $0.location.line == line }
  }

  func event(_ screen: String, _ slot: AdoptedEvent.Slot) -> AdoptedEvent? {
    Self.result.events.first { $0.screen == screen && $0.slot == slot }
  }

  @Test func findsEveryCallShape() {
    let found = Dictionary(grouping: Self.result.calls, by: \.origin).mapValues(\.count)
    #expect(found["analytics-swift"] == 18)
    #expect(found["Amplitude-Swift"] == 2)
    #expect(found["Firebase"] == 1)
    #expect(found["Mixpanel"] == 1)
    #expect(found["Analytics.track(_:properties:)"] == 6)
    #expect(found["Pixel.fire(pixel:withAdditionalParameters:)"] == 4)
  }

  @Test func readsEventNames() {
    let names = Self.result.calls.map(\.name)
    // A literal, a constant, a raw value in snake_case (as the wrapper sends it), a name from the
    // enum's `switch` (of a case with associated values too).
    #expect(names.contains(.known("Cart Viewed", how: "a string literal")))
    #expect(names.contains(.known("Coupon Applied", how: "the constant Events.couponApplied")))
    #expect(names.contains(.known("episode_shared", how: "the raw value of AnalyticsEvent.episodeShared, in snake_case")))
    #expect(names.contains(.known("m_settings_opened", how: "Pixel.Event.name of .settingsOpened")))
    #expect(names.contains(.known("m_tab_closed", how: "Pixel.Event.name of .tabClosed")))
  }

  @Test func mapsHandlersAndPageEvents() throws {
    let viewed = try #require(event("CartViewController", .page(.enter)))
    #expect(viewed.wireName == "Cart Viewed")
    #expect(viewed.eventID == "CART_VIEWED")
    #expect(viewed.properties.map(\.key) == ["items"])
    #expect(viewed.properties.first?.value == .binding("self.itemCount"))
    // A track call in viewDidAppear(_:) stays a track call; a screen call there is the enter event's own.
    #expect(viewed.sendsTrackCall)
    let profile = try #require(event("ProfileViewController", .page(.enter)))
    #expect(profile.wireName == "Profile")
    #expect(!profile.sendsTrackCall)
    #expect(event("CartViewController", .page(.leave))?.wireName == "Cart Left")

    let checkout = try #require(event("CartViewController", .control("onCheckout(_:)")))
    #expect(checkout.wireName == "Checkout Tapped")
    #expect(checkout.properties.map(\.key) == ["total", "source", "express", "count"])
    #expect(checkout.properties.map(\.value) == [.binding("self.total"), .string("cart"), .bool(true), .number("2")])
    #expect(event("CartViewController", .control("onCoupon(_:)"))?.wireName == "Coupon Applied")

    #expect(event("PlayerViewController", .page(.enter))?.wireName == "player_opened")
    #expect(event("PlayerViewController", .control("shareTapped(_:)"))?.properties.map(\.key) == ["episode_uuid", "source"])
    #expect(event("PlayerViewController", .control("customTapped(_:)"))?.wireName == "custom name")
    // The handler's unconditional call is its event; the conditional one stays.
    #expect(event("PlayerViewController", .control("rateTapped(_:)"))?.wireName == "rating_shown")
    #expect(left(.callInCondition, line: 38, file: "Sources/App/Player.swift") != nil)
    #expect(event("SettingsViewController", .page(.enter))?.wireName == "m_settings_opened")
    #expect(event("SettingsViewController", .control("closeTab(_:)"))?.properties.first?.value == .string("settings"))
    #expect(event("ProfileViewController", .control("onSave(_:)"))?.properties.first?.value == .binding("self.plan"))
    #expect(event("ProfileViewController", .control("onUpgrade(_:)"))?.wireName == "Upgrade Tapped")
    #expect(event("ProfileViewController", .control("onLogout(_:)"))?.wireName == "logout_tapped")
    #expect(event("ProfileViewController", .control("onInvite(_:)"))?.properties.first?.value == .number("1"))
  }

  @Test(arguments: [
    (
      AdoptReason.callInClosure, 33, "this analytics-swift call is inside a closure (line 33); trackc reports a handler's call or a page's appearance"
    ),
    (.callInLoop, 37, "this analytics-swift call is inside a loop (line 37); trackc reports a handler's call or a page's appearance"),
    (.callInCondition, 41, "this analytics-swift call is inside an if (line 41); trackc reports a handler's call or a page's appearance"),
    (.callInCondition, 46, "this analytics-swift call is after an early exit (line 45); trackc reports a handler's call or a page's appearance"),
    (
      .dynamicEventName, 51,
      "the event name 'name' of this analytics-swift call is not readable from the code: the name is a value computed at run time"
    ),
    (
      .computedPropertyValue, 56,
      "the value of 'amount' ('amount') of this analytics-swift call is computed; trackc binds a handler's parameter, the screen's state or a literal"
    ),
    (.severalCalls, 60, "this call is one of 2 in 'onBoth(_:)' that trackc could map; a handler or page phase has one event"),
    (.dynamicProperties, 65, "the properties of this analytics-swift call ('filterProperties()') are not a dictionary literal"),
    (
      .screenCall, 69,
      "this analytics-swift call is a screen call outside viewDidAppear(_:); trackc sends a screen call for a page's enter event alone"
    ),
    (.notAStatement, 73, "this analytics-swift call is part of an expression whose value is used"),
    (
      .notAHandler, 77,
      "this analytics-swift call is in 'notExposed()', which the objc-runtime interception cannot report: it is not exposed to Objective-C (@objc, @IBAction)"
    ),
    (
      .notAScreen, 87, "this analytics-swift call is in 'CartStore', which is not a screen (a view controller or a SwiftUI view model of the sources)"
    ),
  ])
  func leavesCallsWithAReason(_ reason: AdoptReason, _ line: Int, _ message: String) throws {
    let diagnostic = try #require(left(reason, line: line))
    #expect(diagnostic.severity == .warning)
    #expect(diagnostic.message == message)
  }

  @Test func leavesWrapperCallsItCannotRead() throws {
    let extra = try #require(left(.extraArguments, line: 33, file: "Sources/App/Player.swift"))
    #expect(
      extra.message
        == "this call of Analytics.track(_:properties:) passes story:, which Analytics.track(_:properties:) does not say how it sends; name it in a wrapper of its own"
    )
    let dynamic = try #require(left(.dynamicEventName, line: 32, file: "Sources/App/Settings.swift"))
    #expect(dynamic.message.hasSuffix("Pixel.Event.name does not return a string literal for .dynamicOne"))
    let trailing = try #require(left(.extraArguments, line: 36, file: "Sources/App/Settings.swift"))
    #expect(trailing.message.contains("a trailing closure"))
  }

  @Test func passingCasesAreMappedNotReported() {
    // The calls mapped above have no warning of their own.
    for event in Self.result.events {
      #expect(!Self.result.diagnostics.contains { $0.location == event.call.location })
    }
    #expect(Self.result.mappedCount + Self.result.diagnostics.count(where: { $0.ruleID.hasPrefix("adopt-") }) == Self.result.calls.count)
  }

  @Test func writesAPlanThatLintsClean() {
    var options = LintOptions()
    options.code = .sources(.files(AdoptFixtures.all))
    options.scan = ScanOptions(useCache: false)
    let lint = Linter.lint(ConfigSource(path: "tracking.yaml", text: Self.result.plan), options: options)
    #expect(lint.diagnostics.filter { $0.severity == .error } == [])
    #expect(Self.result.plan.contains("        wire_name: \"Checkout Tapped\"\n"))
    #expect(Self.result.plan.contains("        event: CART_VIEWED\n        wire_name: \"Cart Viewed\"\n        call: track\n"))
    #expect(Self.result.plan.contains("        event: PROFILE\n        wire_name: Profile\n        properties:\n          tab: main\n"))
    #expect(!Self.result.diagnostics.contains { $0.ruleID == AdoptReason.lintRefused.rawValue })
  }

  /// A SwiftUI view model is a screen under dynamic-replacement: `onAppear()` its enter event, its methods
  /// handlers; under objc-runtime its calls stay. A closure in a view's body is no method: it stays.
  @Test func mapsAViewModelUnderDynamicReplacement() throws {
    let files: [(path: String, text: String)] = [
      (
        "Sources/App/Wishlist.swift",
        """
        import Observation
        import SwiftUI

        @Observable final class WishlistModel {
          var items: [String] = []
          var count: Int { items.count }

          func onAppear() {
            analytics.track(name: "Wishlist Viewed", properties: ["count": count])
          }

          func add(_ id: String) {
            items.append(id)
            analytics.track(name: "Wishlist Added", properties: ["product_id": id])
          }
        }

        struct WishlistView: View {
          @State var model = WishlistModel()

          var body: some View {
            List(model.items, id: \\.self) { Text($0) }
              .onAppear { analytics.track(name: "Wishlist Shown") }
          }
        }

        """
      )
    ]
    func adopt(_ interception: TrackingConfig.Interception) -> Adopter.Result {
      var options = Adopter.Options()
      options.interception = interception
      options.planSources = ["Sources"]
      options.scan = ScanOptions(useCache: false)
      return Adopter.adopt(.files(files), options: options)
    }
    let replaced = adopt(.dynamicReplacement)
    #expect(replaced.events.map(\.wireName).sorted() == ["Wishlist Added", "Wishlist Viewed"])
    let added = try #require(replaced.events.first { $0.slot == .control("add(_:)") })
    #expect(added.screen == "WishlistModel")
    #expect(added.properties.first?.value == .binding("id"))
    #expect(replaced.events.first { $0.slot == .page(.enter) }?.sendsTrackCall == true)
    #expect(replaced.events.first { $0.slot == .page(.enter) }?.properties.first?.value == .binding("self.count"))
    // The view's closure stays.
    let closure = replaced.diagnostics.filter { $0.ruleID.hasPrefix("adopt-") }
    #expect(closure.map(\.location.line) == [23])
    #expect(closure.map(\.ruleID) == [AdoptReason.notAScreen.rawValue])
    #expect(!replaced.diagnostics.contains { $0.ruleID == AdoptReason.lintRefused.rawValue })

    let runtime = adopt(.objcRuntime)
    #expect(runtime.events.isEmpty)
    let left = try #require(runtime.diagnostics.first { $0.location.line == 14 })
    #expect(left.ruleID == AdoptReason.notAScreen.rawValue)
    #expect(
      left.message
        == "this analytics-swift call is in 'WishlistModel', a SwiftUI view model, which trackc intercepts under interception: dynamic-replacement only"
    )
  }

  /// A file swift-syntax cannot parse whole (here a screen recovered inside a declaration without a name,
  /// `enum? AnalyticsEvent {` never closed) keeps its calls: taking one out could change how the rest
  /// reads. The plan lints clean.
  @Test func aFileThatIsNotValidSwiftKeepsItsCalls() throws {
    let url = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/fuzz/adopt/screen-nested-in-a-nameless-type-had-no-type-name.swift")
    let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    let result = Self.adopt([("Sources/App/Fuzzed.swift", text)], wrappers: ["Analytics.track(_:properties:)", "Analytics.track(_:story:)"])
    #expect(result.events.isEmpty)
    let left = result.diagnostics.filter { $0.ruleID.hasPrefix("adopt-") }
    #expect(left.count == result.calls.count)
    #expect(left.allSatisfy { $0.ruleID == AdoptReason.invalidSwift.rawValue && $0.severity == .warning })
    #expect(
      left.first?.message == "this call is in a file that is not valid Swift to swift-syntax; trackc adopt takes no call out of it")
    #expect(!result.plan.contains(".PlayerViewController"))
  }

  @Test func everyReasonIsInTheGuidesTable() throws {
    let guide = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/adopt.md"), encoding: .utf8)
    for reason in AdoptReason.allCases {
      #expect(guide.contains("| `\(reason.rawValue)` |"), "docs/adopt.md has no row for \(reason.rawValue)")
    }
  }

  @Test func summaryCountsFoundMappedAndLeft() {
    #expect(Self.result.summary.hasPrefix("found 32 calls in 4 files: \(Self.result.mappedCount) mapped to events, "))
  }
}
