import Testing

@testable import TrackcCore

/// Lint links the types' properties and initializers only when its plan reads them (bindings, entry
/// points): they cost a tenth of a warm lint over a large tree and nothing else reads them.
@Suite struct ScanMembersTests {
  static let swift = """
    final class FeedViewController {
      var tab: String = ""
      init(tab: String) { self.tab = tab }
      func open(_ id: String) {}
    }
    """

  static func feed(_ code: MatchedPlan?) -> DeclaredType? {
    code?.index.registry.types.first { $0.name == "FeedViewController" }
  }

  static func lint(_ yaml: String) -> LintResult {
    var options = LintOptions()
    options.code = .sources(.files([("Sources/Feed/Feed.swift", swift)]))
    options.scan.useCache = false
    return Linter.lint(ConfigSource(path: "tracking.yaml", text: yaml), options: options)
  }

  @Test func aPlanWithoutBindingsOrEntryPointsLinksNoMembers() throws {
    let result = Self.lint("version: 1\nscreens:\n  FeedViewController:\n    control_events:\n      open(_:): FEED_OPEN\n")
    let feed = try #require(Self.feed(result.code))
    #expect(feed.methods.map(\.name) == ["open(_:)"])
    #expect(feed.properties == nil)
    #expect(feed.initializers == nil)
  }

  @Test func bindingsLinkThem() throws {
    let result = Self.lint(
      "version: 1\ninterception: dynamic-replacement\nscreens:\n  FeedViewController:\n    control_events:\n      open(_:): {event: FEED_OPEN, properties: {tab: {from: self.tab}}}\n"
    )
    #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics)")
    let feed = try #require(Self.feed(result.code))
    #expect(feed.properties?.map(\.name) == ["tab"])
    #expect(feed.initializers?.map(\.name) == ["init(tab:)"])
  }

  @Test func entryPointsLinkThem() throws {
    let result = Self.lint(
      """
      version: 1
      screens:
        FeedViewController: {control_events: {open(_:): FEED_OPEN}}
      links: {schemes: [shop]}
      entry_points:
        feed: {screen: FeedViewController, links: ["shop://feed/{tab:string}"]}
      """)
    #expect(Self.feed(result.code)?.initializers?.map(\.name) == ["init(tab:)"])
  }

  /// `trackc scan` (the registry JSON) records them whatever the plan.
  @Test func theScanRecordsThemByDefault() {
    let scanned = SourceScanner.scan(.files([("Sources/Feed/Feed.swift", Self.swift)]), options: ScanOptions(useCache: false))
    #expect(scanned.registry.types.first { $0.name == "FeedViewController" }?.properties?.map(\.name) == ["tab"])
  }
}
