import Testing
import TrackcCore

/// `trackc adopt` adding to a plan that exists: the entries it lacks go in where they belong, every byte
/// of the plan stays, a call whose event the plan has is mapped to it, one whose slot holds another event
/// stays, and a mapping written in flow style takes nothing.
@Suite struct AdoptMergeTests {
  static let app: [(path: String, text: String)] = [
    (
      "Sources/App/Cart.swift",
      """
      import UIKit

      final class CartViewController: UIViewController {
        @objc var total = 0

        override func viewDidAppear(_ animated: Bool) {
          super.viewDidAppear(animated)
          analytics.track(name: "Cart Viewed")
        }

        @objc func onCheckout(_ sender: Any) {
          analytics.track(name: "Checkout Tapped", properties: ["total": total, "source": "cart"])
        }

        @objc func onClose(_ sender: Any) {
          dismiss(animated: true)
        }
      }

      final class ProfileViewController: UIViewController {
        @objc func onLogout(_ sender: Any) {
          analytics.track(name: "Logged Out")
        }
      }

      """
    )
  ]

  static func adopt(into plan: String) -> (result: Adopter.Result, existing: AdoptExistingPlan) {
    let existing = try! AdoptExistingPlan.read(ConfigSource(path: "tracking.yaml", text: plan)).get()
    var options = Adopter.Options()
    options.planSources = ["Sources"]
    options.scan = ScanOptions(useCache: false)
    options.existingPlan = existing
    options.interception = existing.interception
    return (Adopter.adopt(.files(app), options: options), existing)
  }

  static func lintErrors(_ plan: String) -> [Diagnostic] {
    var options = LintOptions()
    options.code = .sources(.files(app))
    options.scan = ScanOptions(useCache: false)
    return Linter.lint(ConfigSource(path: "tracking.yaml", text: plan), options: options).diagnostics.filter { $0.severity == .error }
  }

  /// The plan's own lines, in order, all in the merged text: it only gained lines.
  static func keepsEveryLine(of plan: String, in merged: String) -> Bool {
    var remaining = merged.split(separator: "\n", omittingEmptySubsequences: false)[...]
    for line in plan.split(separator: "\n", omittingEmptySubsequences: false) {
      guard let found = remaining.firstIndex(of: line) else { return false }
      remaining = remaining[(found + 1)...]
    }
    return true
  }

  static let written = """
    # The team's plan: reviewed in every pull request.
    version: 1
    sources: [Sources]   # the app
    screens:
      CartViewController:
        control_events:
          'onClose(_:)': CART_CLOSED   # the close button
      # Settings come later.
    destinations:
      segment: {}
    """ + "\n"

  @Test func addsWhatThePlanLacksAndKeepsEveryByte() throws {
    let (result, _) = Self.adopt(into: Self.written)
    let merged = result.plan
    #expect(Self.keepsEveryLine(of: Self.written, in: merged), "\(merged)")
    #expect(Self.lintErrors(merged) == [])
    // Into the screen's section, a new section of the screen, and a new screen, at their indentation.
    #expect(
      merged.contains(
        "      'onClose(_:)': CART_CLOSED   # the close button\n      # Sources/App/Cart.swift:12: analytics-swift\n      onCheckout(_:):\n        event: CHECKOUT_TAPPED\n"
      ))
    #expect(merged.contains("    page_events:\n      # Sources/App/Cart.swift:8: analytics-swift\n      enter:\n        event: CART_VIEWED\n"))
    #expect(merged.contains("  ProfileViewController:\n    control_events:\n"))
    // A new section goes after the screen's last line, before the comment that follows it.
    let section = try #require(merged.range(of: "    page_events:"))
    let comment = try #require(merged.range(of: "  # Settings come later."))
    #expect(section.lowerBound < comment.lowerBound)
    #expect(result.mappedCount == 3)
    #expect(result.alreadyPlannedCount == 0)
  }

  @Test func aSecondRunChangesNothing() {
    let first = Self.adopt(into: Self.written).result
    let second = Self.adopt(into: first.plan).result
    #expect(second.plan == first.plan)
    #expect(second.alreadyPlannedCount == 3)
    #expect(second.events.map(\.eventID).sorted() == first.events.map(\.eventID).sorted())
    #expect(second.summary.contains("3 mapped to events (3 already in the plan)"))
  }

  @Test func aSlotHoldingAnotherEventKeepsTheCall() throws {
    let plan = """
      version: 1
      screens:
        CartViewController:
          control_events:
            onCheckout(_:): CHECKOUT
          page_events:
            enter:
              event: CART_VIEWED
              wire_name: Cart Viewed
              call: track
        ProfileViewController:
          control_events:
            onLogout(_:):
              event: LOGGED_OUT
              wire_name: Logged Out
      """ + "\n"
    let result = Self.adopt(into: plan).result
    let left = try #require(result.diagnostics.first { $0.ruleID == AdoptReason.alreadyPlanned.rawValue })
    #expect(left.severity == .warning)
    #expect(left.location.line == 12)
    #expect(
      left.message
        == "the plan already has CHECKOUT for 'onCheckout(_:)' of 'CartViewController', which sends 'CHECKOUT'; this call sends 'Checkout Tapped'; the call stays"
    )
    // The same name and call: mapped to the plan's event, nothing written.
    #expect(result.plan == plan)
    #expect(result.events.map(\.eventID).sorted() == ["CART_VIEWED", "LOGGED_OUT"])
    #expect(result.events.allSatisfy { $0.alreadyPlanned })
  }

  @Test func aDifferentCallOrMissingPropertyKeepsTheCall() {
    let plan = """
      version: 1
      screens:
        CartViewController:
          page_events:
            enter: {event: CART_VIEWED, wire_name: Cart Viewed}
          control_events:
            onCheckout(_:):
              event: CHECKOUT_TAPPED
              wire_name: Checkout Tapped
              properties:
                total: {from: self.total}
      """ + "\n"
    let messages = Self.adopt(into: plan).result.diagnostics.filter { $0.ruleID == AdoptReason.alreadyPlanned.rawValue }.map(\.message)
    #expect(
      messages == [
        "the plan already has CART_VIEWED for 'enter' of 'CartViewController', which goes as a screen call; this call is a track call; the call stays",
        "the plan already has CHECKOUT_TAPPED for 'onCheckout(_:)' of 'CartViewController', which does not send the property 'source' this call sends; the call stays",
      ])
  }

  @Test func aFlowMappingTakesNoEntry() throws {
    let plan = """
      version: 1
      screens:
        CartViewController: {control_events: {onClose(_:): CART_CLOSED}}
      """ + "\n"
    let result = Self.adopt(into: plan).result
    let left = result.diagnostics.filter { $0.ruleID == AdoptReason.planLayout.rawValue }
    #expect(left.map(\.location.line) == [8, 12])
    #expect(
      left.first?.message
        == "the plan writes the screen 'CartViewController' in flow style; trackc adopt adds to mappings written a key per line")
    // The other screen still goes in.
    #expect(result.plan.hasPrefix(plan))
    #expect(result.plan.contains("  ProfileViewController:\n"))
    #expect(Self.lintErrors(result.plan) == [])
  }

  @Test func emptyMappingsAndNullsTakeEntries() {
    for plan in [
      "version: 1\nscreens: {}\n",
      "version: 1\nscreens:\n",
      "version: 1\n",
      "version: 1\nscreens:\n  CartViewController: {}\n",
      "version: 1\nscreens:\n  CartViewController:\n  ProfileViewController:\n",
      "version: 1\nscreens:\n  CartViewController:\n    control_events: {}\n    page_events: ~\n",
      "version: 1\r\nscreens:\r\n  CartViewController:\r\n    control_events:\r\n      onClose(_:): CART_CLOSED\r\n",
      "version: 1\nscreens:\n    CartViewController:\n        control_events:\n            onClose(_:): CART_CLOSED",
    ] {
      let result = Self.adopt(into: plan).result
      #expect(result.mappedCount == 3, "\(plan)")
      #expect(result.diagnostics.filter { $0.ruleID.hasPrefix("adopt-plan") || $0.ruleID == AdoptReason.lintRefused.rawValue } == [], "\(plan)")
      #expect(Self.lintErrors(result.plan) == [], "\(result.plan)")
      let readBack = try? AdoptExistingPlan.read(ConfigSource(path: "tracking.yaml", text: result.plan)).get()
      #expect(readBack.map { Set(result.events.map(\.eventID)).isSubset(of: $0.eventIDs) } == true, "\(result.plan)")
    }
  }

  @Test func theSourcesListGainsAdoptsSources() {
    for (plan, expected) in [
      ("version: 1\nsources: [Other]\nscreens: {}\n", "sources: [Other, Sources]\n"),
      ("version: 1\nsources: []\nscreens: {}\n", "sources: [Sources]\n"),
      ("version: 1\nsources:\n  - Other\nscreens: {}\n", "sources:\n  - Other\n  - Sources\n"),
      ("version: 1\nsources: [Sources]\nscreens: {}\n", "sources: [Sources]\n"),
    ] {
      let result = Self.adopt(into: plan).result
      #expect(result.plan.contains(expected), "\(result.plan)")
      #expect(result.sourcesNotAdded == [])
    }
    let single = Self.adopt(into: "version: 1\nsources: [\n  Other\n]\nscreens: {}\n").result
    #expect(single.sourcesNotAdded == ["Sources"])
  }

  @Test func aPlanThatDoesNotParseIsRefused() throws {
    let broken = try #require(AdoptExistingPlan.read(ConfigSource(path: "tracking.yaml", text: "version: 1\nscreens: [\n")).failure)
    #expect(broken.diagnostics.first?.severity == .error)
    #expect(broken.diagnostics.first?.location.file == "tracking.yaml")
    // Lint's own error when it has one; else that only a block mapping takes entries.
    let sequence = try #require(AdoptExistingPlan.read(ConfigSource(path: "tracking.yaml", text: "- version: 1\n")).failure)
    #expect(sequence.diagnostics.map(\.ruleID) == ["wrong-type"])
    let flow = try #require(AdoptExistingPlan.read(ConfigSource(path: "tracking.yaml", text: "{version: 1}\n")).failure)
    #expect(flow.diagnostics.map(\.ruleID) == ["adopt-plan-unreadable"])
    #expect(flow.diagnostics.first?.severity == .error)
    #expect(
      flow.diagnostics.first?.message
        == "the plan is not a mapping written a key per line, so trackc adopt cannot add to it; use --force to replace it")
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let failure) = self { return failure }
    return nil
  }
}
