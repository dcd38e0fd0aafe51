import Foundation
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// The files other platforms read say what the plan's link rules say.
@Suite struct PlatformFilesTests {
  static func plan(pathCase: String) throws -> ResolvedPlan {
    let source = ConfigSource(
      path: "tracking.yaml",
      text: """
        version: 1
        screens:
          Product: {page_events: {enter: PRODUCT_ENTER}}
        links:
          schemes: [shop]
          hosts: [shop.example.com]
          path_case: \(pathCase)
          apple: {app_ids: [ABCDE12345.com.example.shop], site_association: Generated/aasa, exclude: ["/account/*"]}
          android: {activity: .MainActivity, manifest: Generated/AndroidManifest.xml}
        entry_points:
          product: {screen: Product, links: ["/product/{id:int}"]}
        """)
    return try #require(Linter.lint(source).plan)
  }

  /// Under `path_case: insensitive`, every component of the site association says so (Apple compares
  /// with case otherwise), and the Android manifest says that its filters do not fold case.
  @Test func caseInsensitivePathsAreSaidInThePlatformFiles() throws {
    let insensitive = try Self.plan(pathCase: "insensitive")
    let association = try JSONSerialization.jsonObject(with: Data(PlatformFiles.siteAssociation(insensitive).utf8)) as? [String: Any]
    let details = ((association?["applinks"] as? [String: Any])?["details"] as? [[String: Any]])?.first
    let components = try #require(details?["components"] as? [[String: Any]])
    #expect(components.count == 2)  // the exclusion, the path
    #expect(components.allSatisfy { $0["caseSensitive"] as? Bool == false })
    #expect(PlatformFiles.androidManifest(insensitive, configFileName: "tracking.yaml").contains("Android compares these paths with their case"))

    let sensitive = try Self.plan(pathCase: "sensitive")
    #expect(!PlatformFiles.siteAssociation(sensitive).contains("caseSensitive"))
    #expect(!PlatformFiles.androidManifest(sensitive, configFileName: "tracking.yaml").contains("with their case"))
  }
}
