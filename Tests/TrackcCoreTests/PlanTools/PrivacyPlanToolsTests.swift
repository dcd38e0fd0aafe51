import Foundation
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// The plan tools on the plan's privacy: `trackc diff` reports what changes what the app must declare
/// (a data type, a purpose, a use for tracking, a link to the person) as breaking and the reverse as
/// changes; `trackc export --format privacy` writes the App Store answers (golden files of the Shop's),
/// with config strings inert in Markdown.
@Suite struct PrivacyPlanToolsTests {
  static let folder = Fixtures.directory.appendingPathComponent("plantools")

  static let base = """
    version: 1
    privacy:
      identity: {anonymous_id: {data: device_id}}
    destinations:
      firebase: {purposes: [analytics]}
      ads: {purposes: [third_party_advertising], tracking_domains: [ads.example.com]}
    properties:
      total: {type: double, data: purchase_history, linked: false}
    screens:
      Cart:
        control_events:
          onCheckout(total:): {event: CART_CHECKOUT, destinations: [firebase], properties: {total: {from: total}}}
    """

  func diff(_ old: String, _ new: String) throws -> PlanDiff {
    let outcome = PlanDiffSession.compare(old: ConfigSource(path: "old.yaml", text: old), new: ConfigSource(path: "new.yaml", text: new))
    guard case .compared(let diff) = outcome else {
      Issue.record("not compared: \(outcome)")
      throw CancellationError()
    }
    return diff
  }

  /// The fixture pair shows every kind of privacy change, breaking as it should be, in every format.
  @Test(arguments: PlanDiffFormat.allCases)
  func fixtureDiffMatchesGolden(format: PlanDiffFormat) throws {
    let old = try Fixtures.lint(Self.folder.appendingPathComponent("privacy-diff-old.yaml"))
    let new = try Fixtures.lint(Self.folder.appendingPathComponent("privacy-diff-new.yaml"))
    #expect(old.diagnostics.isEmpty && new.diagnostics.isEmpty, "\(TextDiagnosticRenderer.render(old.diagnostics + new.diagnostics))")
    let diff = PlanDiff(old: try #require(PlanOutline(old)), new: try #require(PlanOutline(new)))
    let privacy = diff.changes.filter(\.kind.isAboutPrivacy)
    #expect(Set(privacy.map(\.kind)) == Set(PlanDiff.Kind.allCases.filter(\.isAboutPrivacy)))
    #expect(privacy.allSatisfy { $0.isBreaking == [.dataTypeAdded, .purposeAdded, .trackingAdded, .dataLinked].contains($0.kind) })
    let suffix = ["text": "txt", "markdown": "md", "json": "json", "github": "github"][format.rawValue]!
    Golden.check(format.render(diff), matches: Self.folder.appendingPathComponent("privacy-diff.\(suffix)"))
  }

  @Test func declaringMoreIsBreaking() throws {
    let new =
      Self.base.replacingOccurrences(of: "firebase: {purposes: [analytics]}", with: "firebase: {purposes: [analytics, product_personalization]}")
      .replacingOccurrences(of: "data: purchase_history, linked: false}", with: "data: purchase_history}")
      .replacingOccurrences(of: "tracking_domains: [ads.example.com]", with: "tracking_domains: [ads.example.com, track.example.com]")
      + "\n      onSignIn(email:): {event: SIGN_IN, destinations: [firebase], properties: {email: {from: email, data: email_address}}}\n"
    let diff = try diff(Self.base, new)
    let changes = diff.changes.filter(\.kind.isAboutPrivacy)
    #expect(changes.count == 7 && changes.allSatisfy { $0.isBreaking }, "\(PlanDiffRenderer.text(diff))")
    let text = PlanDiffRenderer.text(diff)
    for line in [
      "new.yaml:6:3: breaking: tracking domain 'track.example.com' added (destination 'ads') [tracking-added]",
      "new.yaml:8:31: breaking: data type 'purchase_history' now linked to the person [data-linked]",
      "new.yaml:8:31: breaking: data type 'purchase_history' now also used for product_personalization [purpose-added]",
      "new.yaml:13:108: breaking: data type 'email_address' now collected (linked; for analytics, product_personalization) [data-type-added]",
      "new.yaml:2:1: breaking: data type 'product_interaction' now also used for product_personalization [purpose-added]",
    ] {
      #expect(text.contains(line), "\(line)\n\(text)")
    }
  }

  @Test func declaringLessIsAChangeNotABreak() throws {
    let old =
      Self.base + "\n      onSignIn(email:): {event: SIGN_IN, destinations: [firebase], properties: {email: {from: email, data: email_address}}}\n"
    let new = Self.base.replacingOccurrences(of: "tracking_domains: [ads.example.com]", with: "tracking_domains: []")
    let diff = try diff(old, new)
    let changes = diff.changes.filter { !$0.kind.rawValue.hasPrefix("event-") }
    #expect(changes.map(\.kind) == [.trackingRemoved, .dataTypeRemoved], "\(PlanDiffRenderer.text(diff))")
    #expect(!changes.contains { $0.isBreaking })
    // A data type no longer collected is located in OLD, and annotated in NEW where privacy is declared.
    let removed = try #require(changes.last)
    #expect(removed.location.file == "old.yaml" && removed.anchorInNew?.file == "new.yaml" && removed.anchorInNew?.line == 2)
  }

  @Test func markingDataAsTrackingIsBreaking() throws {
    let new = Self.base.replacingOccurrences(of: "anonymous_id: {data: device_id}", with: "anonymous_id: {data: device_id, tracking: true}")
    let changes = try diff(Self.base, new).changes
    #expect(changes.map(\.kind) == [.trackingAdded])
    #expect(changes[0].isBreaking && changes[0].message == "data type 'device_id' now used to track")
  }

  /// A plan without privacy already declares what the runtime sends (for analytics): saying so in
  /// `privacy` changes nothing, and what the plan adds (the user ID) is new.
  @Test func adoptingPrivacyDeclaresWhatItAdds() throws {
    let plain = "version: 1\ndestinations: {firebase: {wire_name: Firebase}}\nscreens: {Home: {page_events: {enter: HOME}}}\n"
    let same =
      "version: 1\nprivacy: {identity: {anonymous_id: {data: device_id}}}\ndestinations: {firebase: {wire_name: Firebase, purposes: [analytics]}}\nscreens: {Home: {page_events: {enter: HOME}}}\n"
    let more = same.replacingOccurrences(of: "{data: device_id}}", with: "{data: device_id}, user_id: {data: user_id}}")
    #expect(try diff(plain, plain).isEmpty)
    #expect(try diff(plain, same).changes.filter(\.kind.isAboutPrivacy).isEmpty)
    #expect(try diff(plain, more).changes.map(\.kind) == [.dataTypeAdded])
  }

  @Test func shopExportMatchesGolden() throws {
    let config = Fixtures.repositoryRoot.appendingPathComponent("Examples/Shop/tracking.yaml")
    var outline = try #require(PlanOutline(try Fixtures.lint(config)))
    outline.file = "tracking.yaml"
    let files = PlanExport.privacy(outline)
    #expect(files.map(\.name) == ["privacy.json", "privacy.md"])
    Golden.check(files[0].contents, matches: Self.folder.appendingPathComponent("privacy-shop.json"))
    Golden.check(files[1].contents, matches: Self.folder.appendingPathComponent("privacy-shop.md"))
    let json = try JSONSerialization.jsonObject(with: Data(files[0].contents.utf8)) as? [String: Any]
    #expect((json?["dataTypes"] as? [Any])?.count == 5)
  }

  /// A plan that says nothing about privacy is exported as what the runtime sends, and says so.
  @Test func exportOfAPlanWithoutPrivacySaysSo() throws {
    let outline = try #require(PlanOutline(Linter.lint(ConfigSource(path: "plain.yaml", text: "version: 1\nscreens: {}\n"))))
    let files = PlanExport.privacy(outline)
    #expect(files[0].contents.contains("\"declared\" : false"))
    #expect(files[0].contents.contains("\"dataType\" : \"device_id\""))
    #expect(files[1].contents.contains("The plan says nothing about privacy: these answers cover what trackc's runtime sends"))
  }

  @Test func configStringsAreInertInTheMarkdown() throws {
    let hostile = "x](https://evil.example) <img src=x onerror=alert(1)> | cell"
    let config = """
      version: 1
      privacy:
        consent: {"\(hostile)": {description: "\(hostile)"}}
        identity: {anonymous_id: {data: device_id}}
      destinations:
        "\(hostile)": {purposes: [analytics], consent: "\(hostile)"}
      screens: {}
      """
    let outline = try #require(PlanOutline(Linter.lint(ConfigSource(path: "hostile.yaml", text: config))))
    let markdown = PlanExport.privacy(outline)[1].contents
    #expect(!markdown.contains("](https"))
    // Every '<' is escaped, so none starts HTML.
    #expect(markdown.components(separatedBy: "<").count == markdown.components(separatedBy: "\\<").count)
    #expect(markdown.contains(TextEscaping.markdown(hostile)))
    // Every table row keeps its five cells (an escaped '|' is not a cell boundary).
    for row in markdown.split(separator: "\n") where row.hasPrefix("| ") && row.contains("evil") {
      #expect(row.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count == 6 || row.hasPrefix("| x"), "\(row)")
    }
  }
}
