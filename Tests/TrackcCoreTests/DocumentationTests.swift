import Foundation
import Testing
import TrackcCore
import TrackcTestSupport

/// The README documents what the code does: the rule table is the catalog's, the commands exist.
@Suite struct DocumentationTests {
  static let readme = (try? String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

  @Test func ruleTableMatchesTheCatalog() throws {
    let begin = try #require(Self.readme.range(of: "<!-- rules:begin -->\n"))
    let end = try #require(Self.readme.range(of: "<!-- rules:end -->"))
    #expect(String(Self.readme[begin.upperBound..<end.lowerBound]) == RuleCatalog.markdownTable)
  }

  @Test func theTwoCommandsAreThere() {
    #expect(Self.readme.contains("swift run trackc lint Examples/Shop/tracking.yaml"))
    #expect(Self.readme.contains("swift test"))
    #expect(FileManager.default.fileExists(atPath: Fixtures.repositoryRoot.appendingPathComponent("Examples/Shop/tracking.yaml").path))
  }

  @Test func ciRunsTheREADMECommands() throws {
    let ci = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(".ci/run"), encoding: .utf8)
    #expect(ci.contains("swift test"))
    #expect(ci.contains("swift run trackc lint"))
  }
}
