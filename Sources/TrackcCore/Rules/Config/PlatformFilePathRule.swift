/// A platform file (`links.apple.site_association`, `links.android.manifest`, `privacy.manifest`) that
/// `trackc generate` would write outside the config's folder: an absolute path, `..`, `~`, a backslash or
/// a control character. A config from a pull request must not be able to make `generate` overwrite any
/// other file. A privacy manifest must also be named `PrivacyInfo.xcprivacy`, the one name Xcode reads.
public enum PlatformFilePathRule: PlanRule {
  public static let id = "platform-file-path"
  public static let summary =
    "A platform file's path is relative to the config and stays inside its folder (no '/' first, no '..', '~', '\\' or control characters)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      \(config)
        apple: {app_ids: [ABCDE12345.com.example.shop], site_association: 1️⃣../../web/apple-app-site-association}
        android: {activity: .MainActivity, manifest: 2️⃣/etc/AndroidManifest.xml}
      entry_points:
        page: {screen: Page, links: ["/page/{id:int}"]}
      privacy: {manifest: 3️⃣Generated/privacy.plist}
      """,
      expecting: [
        .error("'../../web/apple-app-site-association' leaves the config's folder ('..'); write a path relative to the config, inside its folder"),
        .error("'/etc/AndroidManifest.xml' is absolute; write a path relative to the config, inside its folder"),
        .error("'Generated/privacy.plist' is not named PrivacyInfo.xcprivacy; Xcode reads a privacy manifest by that name only"),
      ]),
    .passes(
      """
      \(config)
        apple: {app_ids: [ABCDE12345.com.example.shop], site_association: web/.well-known/apple-app-site-association}
        android: {activity: .MainActivity, manifest: app/src/main/AndroidManifest.xml}
      entry_points:
        page: {screen: Page, links: ["/page/{id:int}"]}
      privacy: {manifest: Sources/AppTracking/PrivacyInfo.xcprivacy, identity: {anonymous_id: {data: device_id}}}
      destinations: {firebase: {wire_name: Firebase, purposes: [analytics]}}
      """),
  ]

  /// The examples' screen and universal-link host.
  private static let config = """
    version: 1
    screens:
      Page: {page_events: {enter: PAGE_ENTER}}
    links:
      hosts: [shop.example.com]
    """

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    let manifest = plan.config.privacy?.manifest
    for path in [plan.config.links?.apple?.siteAssociation, plan.config.links?.android?.manifest, manifest].compactMap({ $0 }) {
      guard let problem = problem(with: path.value) else { continue }
      context.report(Self.self, "'\(path.value)' \(problem); write a path relative to the config, inside its folder", at: path.range)
    }
    if let manifest, problem(with: manifest.value) == nil, RelativePath.fileName(of: manifest.value) != "PrivacyInfo.xcprivacy" {
      context.report(
        Self.self, "'\(manifest.value)' is not named PrivacyInfo.xcprivacy; Xcode reads a privacy manifest by that name only",
        at: manifest.range)
    }
  }

  /// What makes `path` unsafe to write, in words; nil when it stays inside the config's folder.
  static func problem(with path: String) -> String? {
    if path.isEmpty { return "is empty" }
    if path.hasPrefix("/") { return "is absolute" }
    if path.hasPrefix("~") { return "starts with '~'" }
    if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" }) {
      return "holds a backslash or a control character"
    }
    let components = path.split(separator: "/", omittingEmptySubsequences: false)
    if components.contains("..") { return "leaves the config's folder ('..')" }
    if components.last?.isEmpty != false || components.last == "." { return "names a folder, not a file" }
    return nil
  }
}
