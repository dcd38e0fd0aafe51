import Foundation
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// `trackc docs`: the page has every screen and event, is deterministic, escapes every config string,
/// and its Content Security Policy names the hashes of its own style sheet and script. In a real
/// headless Chromium (`Tests/Docs/drive_chromium.py`, over the DevTools protocol on a pipe) it loads
/// without a console error, its search filters as a user types, and a screenshot is taken.
@Suite struct PlanDocumentTests {
  /// Strings that would add markup or script if they were not escaped, in every place a config string
  /// reaches the page.
  static let hostileConfig = #"""
    version: 1
    conventions: {event_id_pattern: '.*'}
    destinations:
      "</td><script>window.__pwned=1</script>":
        description: "<img src=x onerror=\"window.__pwned=2\">"
        purposes: [analytics]
        consent: "<script>window.__pwned=7</script>"
        tracking_domains: ["<a href=javascript:window.__pwned=8>x</a>"]
    privacy:
      consent: {"<script>window.__pwned=7</script>": {description: "<b onclick=window.__pwned=9>"}}
      identity: {traits: {"<u>trait</u>": {data: email_address}}}
    screens:
      "<svg onload=window.__pwned=3>":
        page_events: {enter: "</code></table><script>window.__pwned=4</script>"}
        control_events:
          "'\"><iframe src=javascript:alert(1)>":
            event: "x\" onmouseover=\"window.__pwned=5"
            properties: {"</style><b>": "</script><script>window.__pwned=6</script>", "&amp;": "&lt;"}
    """#

  static let hostileStrings = [
    "</td><script>window.__pwned=1</script>", "<img src=x onerror=\"window.__pwned=2\">", "<svg onload=window.__pwned=3>",
    "</code></table><script>window.__pwned=4</script>", "'\"><iframe src=javascript:alert(1)>", "x\" onmouseover=\"window.__pwned=5",
    "</style><b>", "</script><script>window.__pwned=6</script>", "&amp;", "&lt;", "<script>window.__pwned=7</script>",
    "<a href=javascript:window.__pwned=8>x</a>", "<b onclick=window.__pwned=9>", "trait '<u>trait</u>'",
  ]

  static func shopOutline() throws -> PlanOutline {
    let config = Fixtures.repositoryRoot.appendingPathComponent("Examples/Shop/tracking.yaml")
    let result = try Fixtures.lint(inPlace: config)
    #expect(result.diagnostics.isEmpty)
    var outline = try #require(PlanOutline(result))
    outline.file = "tracking.yaml"
    return outline
  }

  func hostileOutline() throws -> PlanOutline {
    try #require(PlanOutline(Linter.lint(ConfigSource(path: "hostile.yaml", text: Self.hostileConfig))))
  }

  @Test func shopPageHasEveryScreenEventAndDeclaration() throws {
    let outline = try Self.shopOutline()
    let html = PlanDocument.render(outline)
    #expect(outline.hasCode)
    for (screen, event) in outline.events {
      #expect(html.contains(">\(event.id)</code>"), "\(event.id)")
      #expect(html.contains(">\(TextEscaping.markup(screen.name)) <span"))
      #expect(event.declaration != nil, "\(event.id) has no declaration")
      #expect(html.contains(event.declaration!.description))
    }
    #expect(html.contains("Sources/Home/HomeViewController.swift:"))
    // The entry points: their sources, screens, parameters and open events.
    #expect(outline.entryPoints.map(\.name) == ["product", "order_shipped", "cart"])
    #expect(outline.entryPoints.map { $0.openEvent?.id } == ["OPEN_PRODUCT", "OPEN_ORDER_SHIPPED", "OPEN_CART"])
    #expect(outline.entryPoints[0].parameters == ["id: slug", "ref: string?"])
    #expect(outline.entryPoints.map { $0.sources.map(\.kind) } == [["link"], ["notification"], ["link", "shortcut"]])
    for text in [
      "id=\"entry-points\"", "<code>/product/{id:slug}?ref={ref:string?}</code>", ">OPEN_CART</code>", "<code>ProductDetailViewController</code>",
    ] {
      #expect(html.contains(text), "\(text)")
    }
    #expect(html.contains("32 events (10 page, 15 control, 3 open, 4 application)"))
    // The application events, in a section of their own.
    #expect(outline.applicationEvents.map(\.id) == ["APP_INSTALLED", "APP_UPDATED", "APP_OPENED", "APP_BACKGROUNDED"])
    #expect(html.contains("id=\"application\"") && html.contains(">APP_BACKGROUNDED</code>"))
    // Titled as what they are, and tracked by the runtime: nothing to find in the code, nothing missing.
    let application = try #require(html.components(separatedBy: "id=\"application\"").last?.components(separatedBy: "</section>").first)
    #expect(application.contains("<h2>Application events <span"))
    #expect(application.components(separatedBy: "tracked by the runtime").count == 5 && !application.contains("not found"))
    #expect(!html.contains("not found"), "every screen and handler of the Shop is declared")
    // Each destination with the name a collector is told.
    #expect(html.contains("<code>firebase</code><span class=\"line\">sent as Firebase</span>"))
    // Events per destination, from the plan's routing (open and application events included).
    #expect(outline.eventsPerDestination?.map(\.events) == [31, 27])
    #expect(html.contains("<td class=\"number\">31</td>") && html.contains("<td class=\"number\">27</td>"))
    // The privacy section: the five data types the plan collects, each destination's purposes and consent.
    let privacy = try #require(outline.privacy)
    #expect(privacy.dataTypes.map(\.dataType) == [.userID, .deviceID, .purchaseHistory, .productInteraction, .otherDiagnosticData])
    for text in [
      "id=\"privacy\"", "Identifiers: User ID <code>user_id</code>", "<td>Analytics, Product Personalization</td>", "<td>personalization</td>",
      "href=\"#privacy\"",
    ] {
      #expect(html.contains(text), "\(text)")
    }
    // Self-contained: nothing is loaded from anywhere.
    for reference in ["http://", "https://", "src=", "@import", "url("] { #expect(!html.contains(reference), "\(reference)") }
  }

  @Test func everyConfigStringIsEscaped() throws {
    let html = PlanDocument.render(try hostileOutline())
    // The page's own script is the only script; no element or attribute came from the config.
    #expect(html.components(separatedBy: "<script>").count == 2)
    for tag in ["<img", "<svg", "<iframe", "<b>", "<b ", "<a href=javascript", "<u>", "</style><", "onmouseover=\""] {
      #expect(!html.contains(tag), "\(tag)")
    }
    for string in Self.hostileStrings { #expect(html.contains(TextEscaping.markup(string)), "\(string)") }
    #expect(TextEscaping.markup("<a href='x'>&\"</a>") == "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;")
  }

  /// The policy allows the page's own style sheet and script by hash; a change to either must update
  /// the hash (Chromium would block it, and the browser test would report the violation).
  @Test func contentSecurityPolicyHashesMatch() throws {
    let scratch = try ScratchDirectory("csp")
    defer { scratch.remove() }
    let style = try scratch.write("style.css", PlanDocument.styleSheet.description)
    let script = try scratch.write("script.js", PlanDocument.script.description)
    let hashing =
      "import base64, hashlib, sys\nfor p in sys.argv[1:]: print('sha256-' + base64.b64encode(hashlib.sha256(open(p, 'rb').read()).digest()).decode())"
    let output = try ProcessRunner.run("/usr/bin/env", ["python3", "-c", hashing, style, script])
    let hashes = output.standardOutput.split(separator: "\n").map(String.init)
    #expect(hashes == [PlanDocument.styleSheetHash, PlanDocument.scriptHash])
    #expect(PlanDocument.contentSecurityPolicy.hasPrefix("default-src 'none';"))
  }

  // MARK: In a real browser

  struct BrowserReport: Decodable {
    struct State: Decodable {
      var title: String
      var scripts: Int
      var images: Int
      var injected: Bool
      var rows: Int
      var visible: [String]
      var visibleScreens: [String]
      var status: String
      var texts: [String]?
    }

    var loaded: State
    var searched: State?
    var screenshot: String?
    var consoleErrors: [String]
  }

  func openInChromium(_ html: String, search: String? = nil, screenshot: Bool = false) throws -> (BrowserReport, ScratchDirectory) {
    let scratch = try ScratchDirectory("docs")
    let page = try scratch.write("plan.html", html)
    var arguments = ["python3", Fixtures.repositoryRoot.appendingPathComponent("Tests/Docs/drive_chromium.py").path, page]
    if let search { arguments += ["--search", search] }
    if screenshot { arguments += ["--screenshot", scratch.url.appendingPathComponent("plan.png").path] }
    let output = try ProcessRunner.run("/usr/bin/env", arguments)
    try #require(output.status == 0, "drive_chromium.py failed : \(output.standardError)")
    return (try JSONDecoder().decode(BrowserReport.self, from: Data(output.standardOutput.utf8)), scratch)
  }

  @Test(.requires(.chromium)) func shopPageLoadsAndSearchFiltersInChromium() throws {
    let outline = try Self.shopOutline()
    let (report, scratch) = try openInChromium(PlanDocument.render(outline), search: "cart", screenshot: true)
    defer { scratch.remove() }
    #expect(report.consoleErrors == [])
    #expect(report.loaded.title == "Tracking plan: tracking.yaml")
    // 25 events of screens, the open events of the 3 entry points and the 4 application events.
    #expect(report.loaded.rows == 32 && report.loaded.visible.count == 32 && report.loaded.status == "32 events")
    #expect(
      Array(report.loaded.visible.suffix(7)) == [
        "OPEN_PRODUCT", "OPEN_ORDER_SHIPPED", "OPEN_CART", "APP_INSTALLED", "APP_UPDATED", "APP_OPENED", "APP_BACKGROUNDED",
      ])
    // Typing 'cart' leaves the events whose screen or row mentions it, and the Cart shortcut's entry point.
    let expected = outline.events.filter { screen, event in
      ([screen.name, event.id, event.trigger.label] + event.properties.map { "\($0.key)=\($0.value)" }).joined(separator: " ").lowercased().contains(
        "cart")
    }.map(\.event.id)
    let searched = try #require(report.searched)
    #expect(
      searched.visible == [
        "CTRL_PRODUCT_ADD_TO_CART", "PAGE_CART_ENTER", "PAGE_CART_LEAVE", "CTRL_CART_REMOVE_ITEM", "CTRL_CART_APPLY_COUPON", "CTRL_CART_CHECKOUT",
        "OPEN_CART",
      ])
    #expect(Set(searched.visible) == Set(expected + ["OPEN_CART"]))
    #expect(
      searched.visibleScreens.map { $0.trimmingCharacters(in: .whitespaces) } == [
        "ProductDetailViewController", "CartViewController", "Entry points",
      ])
    #expect(searched.status == "7 of 32 events, 3 screens")
    // The screenshot is a PNG.
    let png = try Data(contentsOf: URL(fileURLWithPath: try #require(report.screenshot)))
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000)
    if let keep = ProcessInfo.processInfo.environment["TRACKC_DOCS_SCREENSHOT"] {
      try png.write(to: URL(fileURLWithPath: keep))
    }
  }

  @Test(.requires(.chromium)) func searchWithNoMatchSaysSoInChromium() throws {
    let (report, scratch) = try openInChromium(PlanDocument.render(try Self.shopOutline()), search: "no such event")
    defer { scratch.remove() }
    #expect(report.consoleErrors == [])
    #expect(report.searched?.visible == [] && report.searched?.visibleScreens == [])
    #expect(report.searched?.status == "0 of 32 events, 0 screens")
  }

  @Test(.requires(.chromium)) func hostilePageRunsNothingInChromium() throws {
    let (report, scratch) = try openInChromium(PlanDocument.render(try hostileOutline()), search: "pwned")
    defer { scratch.remove() }
    #expect(report.consoleErrors == [])
    #expect(!report.loaded.injected && report.loaded.scripts == 1 && report.loaded.images == 0)
    // Every hostile string is on the page as text, exactly as written.
    let texts = report.loaded.texts ?? []
    for string in Self.hostileStrings { #expect(texts.contains { $0.contains(string) }, "\(string)") }
    #expect(report.searched?.injected == false)
  }
}
