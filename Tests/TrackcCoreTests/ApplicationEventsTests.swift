import Foundation
import Testing
import TrackcCore
import TrackcTestSupport

/// `application:` in the plan, end to end: what lint says about it, the registry's `applicationRule`,
/// and what the tools around the plan (collector, JSON Schemas, HTML plan, diff) know of the events.
@Suite struct ApplicationEventsTests {
  static let plan = """
    version: 1
    destinations: {firebase: {wire_name: Firebase}, mixpanel: {wire_name: Mixpanel}}
    defaults: {destinations: [firebase]}
    screens:
      Home:
        page_events: {enter: HOME_ENTER}
    application:
      installed: APP_INSTALLED
      opened: {event: APP_OPENED, destinations: [firebase, mixpanel], properties: {platform: ios}}
    """

  static func lint(_ yaml: String) -> LintResult {
    Linter.lint(ConfigSource(path: "tracking.yaml", text: yaml))
  }

  static func lines(_ result: LintResult) -> [String] {
    TextDiagnosticRenderer.render(result.diagnostics).split(separator: "\n").map(String.init).filter { !$0.contains(": note: ") }
  }

  @Test func aPlanWithApplicationEventsLintsClean() {
    #expect(Self.lint(Self.plan).diagnostics.isEmpty, "\(Self.lines(Self.lint(Self.plan)))")
  }

  /// The resolved plan has them as events on no screen, with their routing.
  @Test func theyAreEventsOfThePlanOnNoScreen() throws {
    let plan = try #require(Self.lint(Self.plan).plan)
    let opened = try #require(plan.event(ofApplication: .opened))
    #expect(opened.screen == nil && opened.routing == .only(["firebase", "mixpanel"]))
    #expect(plan.event(ofApplication: .installed)?.routing == .only(["firebase"]))
    #expect(plan.event(ofApplication: .updated) == nil)
    #expect(plan.describe(opened) == "the application event 'opened'")
  }

  /// A misspelt event gets a did-you-mean; an ID mapped elsewhere too, an undeclared destination and a
  /// sequence are what they are for any event.
  @Test func lintReportsWhatIsWrongAsForAnyEvent() {
    let yaml = """
      version: 1
      destinations: {firebase: {wire_name: Firebase}}
      screens:
        Home:
          page_events: {enter: HOME_ENTER}
      application:
        opend: APP_OPENED
        installed: {event: HOME_ENTER, destinations: [firebse]}
        updated: [APP_UPDATED]
      """
    #expect(
      Self.lines(Self.lint(yaml)) == [
        "tracking.yaml:7:3: error: unknown application event 'opend' in 'application'; did you mean 'opened'? [unknown-key]",
        "tracking.yaml:8:22: warning: event ID 'HOME_ENTER' of the application event 'installed' is also mapped from the enter page event of 'Home' [duplicate-event-id]",
        "tracking.yaml:8:22: warning: event 'HOME_ENTER' of the application event 'installed' reaches no destination [event-without-destination]",
        "tracking.yaml:8:49: error: destination 'firebse' in 'destinations' of the application event 'installed' is not declared; did you mean 'firebase'? [unknown-destination]",
        "tracking.yaml:9:12: error: the application event 'updated' must be an event ID or a mapping with 'event', found a sequence [wrong-type]",
      ], "\(Self.lines(Self.lint(yaml)))")
  }

  /// Their IDs follow the plan's pattern, as every event's: Segment's names need a pattern that allows
  /// spaces.
  @Test func theirIDsFollowTheEventIDPattern() {
    let segment = "version: 1\nscreens: {}\napplication:\n  opened: Application Opened\n"
    #expect(Self.lint(segment).diagnostics.map(\.ruleID) == ["event-id-pattern"])
    let allowed = segment.replacingOccurrences(of: "version: 1\n", with: "version: 1\nconventions: {event_id_pattern: '^[A-Z][A-Za-z ]*$'}\n")
    #expect(Self.lint(allowed).diagnostics.isEmpty, "\(Self.lines(Self.lint(allowed)))")
  }

  /// A plan without `application:` generates no `applicationRule` (the runtime's default tracks none);
  /// one with it generates a switch over the events it maps.
  @Test func theRegistryMapsTheDeclaredEventsOnly() {
    let without = Generator.generate(
      Self.lint("version: 1\nscreens:\n  Home: {page_events: {enter: HOME_ENTER}}\n"), options: Generator.Options(configFileName: "tracking.yaml"))
    #expect(!without.diagnostics.hasErrors)
    #expect(without.files.allSatisfy { !$0.contents.contains("applicationRule") })
    let with = Generator.generate(Self.lint(Self.plan), options: Generator.Options(configFileName: "tracking.yaml"))
    let registry = with.files.first { $0.contents.contains("applicationRule") }?.contents ?? ""
    #expect(registry.contains("public func applicationRule(_ event: ApplicationEvent) -> EventRule? {"))
    #expect(registry.contains("case .installed:") && registry.contains("case .opened:") && registry.contains("default:"))
    #expect(registry.contains("case appInstalled = \"APP_INSTALLED\""))
  }

  /// The wire contract (which the collector checks events against) and the JSON Schemas know them, with
  /// the properties the runtime sends.
  @Test func theWireContractAndTheSchemasKnowThem() throws {
    let outline = try #require(PlanOutline(Self.lint(Self.plan)))
    let contract = WireContract(outline)
    let opened = try #require(contract.events.first { $0.id == "APP_OPENED" })
    #expect(opened.call == .track(name: "APP_OPENED") && opened.routing == .only(["firebase", "mixpanel"]))
    #expect(opened.properties.map(\.key) == ["from_background", "version", "build", "platform"])
    #expect(opened.properties.map(\.type) == [.bool, .string, .string, .string])
    #expect(opened.properties.filter(\.isRequired).map(\.key) == ["platform"])
    #expect(contract.events.first { $0.id == "APP_INSTALLED" }?.properties.map(\.key) == ["version", "build"])
    let schemas = PlanExport.jsonSchemas(outline)
    let schema = try #require(schemas.first { $0.name == "APP_OPENED.schema.json" }).contents
    #expect(schema.contains("\"from_background\"") && schema.contains("the application event opened, tracked by the runtime"))
  }

  /// The HTML plan lists them in a section of their own; the diff sees them come, go and change.
  @Test func theHTMLPlanAndTheDiffShowThem() throws {
    let outline = try #require(PlanOutline(Self.lint(Self.plan)))
    let html = PlanDocument.render(outline)
    #expect(html.contains("id=\"application\"") && html.contains("href=\"#application\">Application events</a> (2)"))
    #expect(html.contains("3 events (1 page, 0 control, 2 application)"))
    let changed =
      Self.plan.replacingOccurrences(of: "destinations: [firebase, mixpanel], ", with: "").replacingOccurrences(
        of: "  installed: APP_INSTALLED\n", with: "") + "\n  backgrounded: APP_BACKGROUNDED"
    let outcome = PlanDiffSession.compare(old: ConfigSource(path: "old.yaml", text: Self.plan), new: ConfigSource(path: "new.yaml", text: changed))
    guard case .compared(let diff) = outcome else {
      Issue.record("not compared: \(outcome)")
      return
    }
    #expect(
      diff.changes.map(\.message) == [
        "event 'APP_OPENED' re-routed: no longer to mixpanel",
        "event 'APP_BACKGROUNDED' added: the application event 'backgrounded', to firebase",
        "event 'APP_INSTALLED' removed (was the application event 'installed')",
      ])
  }
}
