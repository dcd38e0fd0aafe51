/// `path_case: insensitive` with an Android manifest: the app's routes and Apple's site association
/// fold the case of paths, but Android's intent filters (`android:pathPattern`) compare with it, so a
/// link written in another case opens the browser on Android, not the app.
public enum AndroidPathCaseRule: PlanRule {
  public static let id = "android-path-case"
  public static let summary =
    "With 'links.path_case: insensitive' and an Android manifest, a warning: Android's intent filters compare paths with their case."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      config(pathCase: "1️⃣insensitive", android),
      expecting: [
        .warning(
          "'links.path_case' is insensitive, but Android's intent filters compare paths with their case: on Android, '/Product/1' opens the browser, not the app (write links in the patterns' case)"
        )
      ]
    ),
    .passes(config(pathCase: "sensitive", android)),
    .passes(
      config(pathCase: "insensitive", "apple: {app_ids: [ABCDE12345.com.example.shop], site_association: Generated/apple-app-site-association}")),
  ]

  /// The Android platform file of the first two examples.
  private static let android = "android: {activity: .MainActivity, manifest: Generated/AndroidManifest.xml}"

  /// The examples' config, which differs only in the path case and the platform whose file it writes.
  private static func config(pathCase: String, _ platform: String) -> String {
    """
    version: 1
    screens:
      Product: {page_events: {enter: PRODUCT_ENTER}}
    links:
      hosts: [shop.example.com]
      path_case: \(pathCase)
      \(platform)
    entry_points:
      product: {screen: Product, links: ["/product/{id:int}"]}
    """
  }

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    guard let links = plan.config.links, let pathCase = links.pathCase, pathCase.value == .insensitive, links.android?.manifest != nil,
      !plan.entryPoints.links.isEmpty
    else { return }
    // A universal link's path as an example (a custom scheme's first segment is its host).
    let example = plan.entryPoints.links.lazy.filter { if case .scheme = $0.pattern.origin { return false } else { return true } }
      .compactMap(\.pattern.capitalizedLiteralPath).first
    context.report(
      Self.self,
      "'links.path_case' is insensitive, but Android's intent filters compare paths with their case: on Android, "
        + (example.map { "'\(Diagnostic.excerpt($0))'" } ?? "a link in another case")
        + " opens the browser, not the app (write links in the patterns' case)",
      at: pathCase.range)
  }
}

extension LinkPattern {
  /// A path of the pattern with its first literal capitalized (`/Product/1`), which only a
  /// case-insensitive reading matches; nil when no literal has a letter to change.
  var capitalizedLiteralPath: String? {
    var changed = false
    let parts = segments.map { segment -> String in
      switch segment {
      case .literal(let text):
        guard !changed, let first = text.unicodeScalars.first, ("a"..."z").contains(first) else { return text }
        changed = true
        return String(text.prefix(1)).uppercased() + text.dropFirst()
      case .parameter(let parameter):
        return LinkOverlap.Accepts(parameter.type).intersection(LinkOverlap.Accepts(parameter.type), urlHost: "example.com") ?? "1"
      }
    }
    return changed ? "/" + parts.joined(separator: "/") : nil
  }
}
