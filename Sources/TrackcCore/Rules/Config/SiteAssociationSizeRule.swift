/// An `apple-app-site-association` file the system would refuse: Apple reads at most 128 KB of it.
public enum SiteAssociationSizeRule: PlanRule {
  public static let id = "site-association-size"
  public static let summary = "The generated apple-app-site-association file must stay within Apple's 128 KB."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      \(config)
        apple: {app_ids: [ABCDE12345.com.example.shop], site_association: 1️⃣web/apple-app-site-association}
      entry_points:
        page:
          screen: Page
          links:
      """ + (0..<1400).map { "\n      - /page-\($0)-of-a-catalogue-that-lists-every-landing-page/{id:int}" }.joined() + "\n",
      expecting: [
        .error(
          "the apple-app-site-association file would be 188061 bytes, over Apple's limit of 131072 (128 KB): the system would not read it; merge patterns (one '{rest:path}' covers many) or exclude fewer paths"
        )
      ]),
    .passes(
      """
      \(config)
        apple: {app_ids: [ABCDE12345.com.example.shop], site_association: web/apple-app-site-association}
      entry_points:
        page: {screen: Page, links: ["/page/{id:int}"]}
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
    guard let apple = plan.config.links?.apple, let path = apple.siteAssociation else { return }
    let size = PlatformFiles.siteAssociation(plan).utf8.count
    guard size > PlatformFiles.siteAssociationLimit else { return }
    context.report(
      Self.self,
      "the apple-app-site-association file would be \(size) bytes, over Apple's limit of \(PlatformFiles.siteAssociationLimit) (128 KB): the system would not read it; merge patterns (one '{rest:path}' covers many) or exclude fewer paths",
      at: path.range)
  }
}
