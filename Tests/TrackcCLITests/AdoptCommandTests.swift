import Foundation
import Testing
import TrackcTestSupport

/// `trackc adopt` as a team runs it: the plan written and linted, the report in lint's formats, the
/// mapped calls taken out with `--fix`, and the command line's mistakes.
@Suite struct AdoptCommandTests {
  static let cart = """
    import UIKit

    enum AnalyticsEvent: String {
      case cartShown
      case promoTapped
    }

    enum Tracker {
      static func track(_ event: AnalyticsEvent, properties: [String: Any]? = nil) {}
    }

    final class CartViewController: UIViewController {
      @objc var total: Double = 0
      let analytics = Analytics(configuration: Configuration(writeKey: "key"))

      override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        Tracker.track(.cartShown)
      }

      @objc func onCheckout(_ sender: Any) {
        analytics.track(name: "Checkout Tapped", properties: ["total": total, "source": "cart"])
      }

      @objc func onPromo(_ sender: Any) {
        DispatchQueue.main.async { Tracker.track(.promoTapped) }
      }
    }

    """

  func scratchApp() throws -> ScratchDirectory {
    let scratch = try ScratchDirectory("cli-adopt")
    try scratch.write("Sources/App/Cart.swift", Self.cart)
    return scratch
  }

  @Test func writesAPlanThatPassesLintAndReportsWhatItLeaves() throws {
    let scratch = try scratchApp()
    defer { scratch.remove() }
    let adopt = try TrackcBinary.run(
      "adopt", "--sources", "Sources", "--wrapper", "Tracker.track(_:properties:)", "--name-case", "snake_case", "--output", "config/tracking.yaml",
      "--no-cache", in: scratch.url)
    #expect(adopt.status == 0, "\(adopt.standardError)")
    #expect(
      adopt.standardOutput
        == "Sources/App/Cart.swift:26:32: warning: this call of Tracker.track(_:properties:) is inside a closure (line 26); trackc reports a handler's call or a page's appearance [adopt-call-in-closure]\n"
    )
    #expect(adopt.standardError.contains("Sources/App/Cart.swift: 3 found, 2 mapped, 1 left\n"))
    #expect(adopt.standardError.contains("trackc: found 3 calls in 1 file: 2 mapped to events, 1 left (1 adopt-call-in-closure), in 1 Swift files ("))
    let plan = try scratch.read("config/tracking.yaml")
    #expect(plan.contains("sources: ['../Sources']"))
    #expect(plan.contains("      enter:\n        event: CART_SHOWN\n        wire_name: cart_shown\n        call: track\n"))
    #expect(
      plan.contains("        wire_name: \"Checkout Tapped\"\n        properties:\n          total: {from: self.total}\n          source: cart\n"))
    let lint = try TrackcBinary.run("lint", "config/tracking.yaml", "--no-cache", in: scratch.url)
    #expect(lint.status == 0, "\(lint.standardOutput)")

    // The report in lint's formats.
    let json = try TrackcBinary.run(
      "adopt", "--sources", "Sources", "--wrapper", "Tracker.track(_:properties:)", "-o", "config/tracking.yaml", "--force", "--format", "json",
      "--no-cache", in: scratch.url)
    #expect(json.status == 0)
    #expect(json.standardOutput.hasPrefix("{"))
    #expect(json.standardOutput.contains("\"adopt-call-in-closure\""))
    // With the counts a team tracks adoption by.
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let adoption = try #require(document["adoption"] as? [String: Any])
    #expect(adoption["found"] as? Int == 3)
    #expect(adoption["mapped"] as? Int == 2)
    #expect(adoption["left"] as? Int == 1)
    #expect(adoption["alreadyPlanned"] as? Int == 0)
    #expect(adoption["leftByReason"] as? [String: Int] == ["adopt-call-in-closure": 1])
    let files = try #require(adoption["files"] as? [[String: Any]])
    #expect(files.map { $0["file"] as? String } == ["Sources/App/Cart.swift"])
    #expect(files.map { $0["left"] as? Int } == [1])
    let sarif = try TrackcBinary.run(
      "adopt", "--sources", "Sources", "-o", "config/tracking.yaml", "--force", "--format", "sarif", "--no-cache", in: scratch.url)
    #expect(sarif.status == 0)
    #expect(sarif.standardOutput.contains("\"version\""))
    // The counts in the run's properties, each reason a rule of the log.
    let withWrapper = try TrackcBinary.run(
      "adopt", "--sources", "Sources", "--wrapper", "Tracker.track(_:properties:)", "-o", "config/other.yaml", "--format", "sarif", "--no-cache",
      in: scratch.url)
    let log = try #require(try JSONSerialization.jsonObject(with: Data(withWrapper.standardOutput.utf8)) as? [String: Any])
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    #expect(((run["properties"] as? [String: Any])?["adoption"] as? [String: Any])?["found"] as? Int == 3)
    let rules = try #require((((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]]))
    let result = try #require((run["results"] as? [[String: Any]])?.first)
    #expect(result["ruleId"] as? String == "adopt-call-in-closure")
    let index = try #require(result["ruleIndex"] as? Int)
    #expect(rules[index]["id"] as? String == "adopt-call-in-closure")

    // A plan that exists is added to: the wrapper's events go in beside the SDK call's, the rest stays.
    let sdkOnly = try scratch.read("config/tracking.yaml")
    let added = try TrackcBinary.run(
      "adopt", "--sources", "Sources", "--wrapper", "Tracker.track(_:properties:)", "--name-case", "snake_case", "-o", "config/tracking.yaml",
      "--no-cache", in: scratch.url)
    #expect(added.status == 0, "\(added.standardError)")
    #expect(added.standardError.contains("2 mapped to events (1 already in the plan), 1 left (1 adopt-call-in-closure)"))
    #expect(added.standardError.contains("; added to config/tracking.yaml\n"))
    let merged = try scratch.read("config/tracking.yaml")
    #expect(merged.hasPrefix(sdkOnly.prefix { $0 != "\n" }))
    #expect(merged.contains("wire_name: cart_shown"))
    #expect(try TrackcBinary.run("lint", "config/tracking.yaml", "--no-cache", in: scratch.url).status == 0)
    let again = try TrackcBinary.run(
      "adopt", "--sources", "Sources", "--wrapper", "Tracker.track(_:properties:)", "--name-case", "snake_case", "-o", "config/tracking.yaml",
      "--no-cache", in: scratch.url)
    #expect(again.standardError.contains("2 mapped to events (2 already in the plan)"))
    #expect(try scratch.read("config/tracking.yaml") == merged)

    // A plan it cannot read is left as it is.
    try scratch.write("config/tracking.yaml", "version: 1\nscreens: [\n")
    let broken = try TrackcBinary.run("adopt", "--sources", "Sources", "-o", "config/tracking.yaml", "--no-cache", in: scratch.url)
    #expect(broken.status == 65)
    #expect(broken.standardError.contains("config/tracking.yaml:3:1: error: "))
    #expect(
      broken.standardError.hasSuffix(
        "trackc: error: cannot add to 'config/tracking.yaml' (nothing was written); fix it, or replace it with --force\n"))
    #expect(try scratch.read("config/tracking.yaml") == "version: 1\nscreens: [\n")
  }

  @Test func fixTakesTheMappedCallsOut() throws {
    let scratch = try scratchApp()
    defer { scratch.remove() }
    let adopt = try TrackcBinary.run(
      "adopt", "--sources", "Sources", "--wrapper", "Tracker.track(_:properties:)", "--name-case", "snake_case", "--fix", "--no-cache",
      in: scratch.url)
    #expect(adopt.status == 0, "\(adopt.standardError)")
    #expect(adopt.standardError.hasSuffix("trackc: took 2 mapped calls out of 1 files\n"))
    let expected = Self.cart.replacingOccurrences(of: "    Tracker.track(.cartShown)\n", with: "")
      .replacingOccurrences(of: "    analytics.track(name: \"Checkout Tapped\", properties: [\"total\": total, \"source\": \"cart\"])\n", with: "")
    #expect(try scratch.read("Sources/App/Cart.swift") == expected)
  }

  /// A file swift-syntax's parser takes exponential time on (nested brackets in a type) is given up after
  /// the time limit and reported, as lint does; the other files are adopted.
  @Test func aFileTheParserHangsOnIsReportedAndLeftOut() throws {
    let scratch = try scratchApp()
    defer { scratch.remove() }
    try scratch.write("Sources/App/Hostile.swift", "let x: " + String(repeating: "[", count: 40) + "ry: Int\n")
    let run = try MeasuredRun.run(
      TrackcBinary.path,
      [
        "adopt", "--sources", "\(scratch.path)/Sources", "--wrapper", "Tracker.track(_:properties:)", "--output", "\(scratch.path)/tracking.yaml",
        "--file-time-limit", "2", "--no-cache",
      ],
      timeout: TimeLimits.seconds(120))
    #expect(!run.timedOut)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("Hostile.swift:1:1: warning: parsing this file took longer than 2 s; it was not read [swift-source]"))
    #expect(run.standardError.contains("found 3 calls in 1 file: 2 mapped to events"), "\(run.standardError)")
  }

  @Test func commandLineMistakesAreUsageErrors() throws {
    let scratch = try scratchApp()
    defer { scratch.remove() }
    let wrapper = try TrackcBinary.run("adopt", "--sources", "Sources", "--wrapper", "Tracker.track", in: scratch.url)
    #expect(wrapper.status == 64)
    #expect(
      wrapper.standardError.contains(
        "cannot read the wrapper 'Tracker.track': write it as a Swift name with its labels, like 'Analytics.track(_:properties:)'"))
    let nameCase = try TrackcBinary.run("adopt", "--sources", "Sources", "--name-case", "snake_cas", in: scratch.url)
    #expect(nameCase.status == 64)
    #expect(nameCase.standardError.contains("--name-case must be as-written or snake_case, not 'snake_cas'; did you mean 'snake_case'?"))
    let interception = try TrackcBinary.run("adopt", "--sources", "Sources", "--interception", "dynamic-replace", in: scratch.url)
    #expect(interception.status == 64)
    #expect(
      interception.standardError.contains(
        "--interception must be objc-runtime or dynamic-replacement, not 'dynamic-replace'; did you mean 'dynamic-replacement'?"))
    let missing = try TrackcBinary.run("adopt", "--sources", "Nowhere", in: scratch.url)
    #expect(missing.status == 66)
  }
}
