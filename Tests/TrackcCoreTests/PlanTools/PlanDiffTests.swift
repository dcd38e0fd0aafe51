import Foundation
import Testing
import TrackcCore
import TrackcTestSupport

/// `trackc diff`'s logic: each kind of change triggers on its own and not otherwise, breaking is what it
/// says, positions point into NEW (OLD for removals), configs that do not read stop the diff with their
/// findings, and each format matches its golden file.
@Suite struct PlanDiffTests {
  static let folder = Fixtures.directory.appendingPathComponent("plantools")

  func diff(_ old: String, _ new: String) throws -> PlanDiff {
    let outcome = PlanDiffSession.compare(old: ConfigSource(path: "old.yaml", text: old), new: ConfigSource(path: "new.yaml", text: new))
    guard case .compared(let diff) = outcome else {
      Issue.record("not compared: \(outcome)")
      throw CancellationError()
    }
    return diff
  }

  static let base = """
    version: 1
    destinations: {firebase: {}, mixpanel: {}}
    screens:
      Home:
        page_events: {enter: HOME_ENTER}
        control_events:
          onFav(_:): {event: HOME_FAV, properties: {source: home, position: 2}}
    """

  func kinds(_ diff: PlanDiff) -> [PlanDiff.Kind] { diff.changes.map(\.kind) }

  @Test func identicalConfigsHaveNoChanges() throws {
    #expect(try diff(Self.base, Self.base).isEmpty)
    // Spelling a handler differently, or reordering, is no change to the plan.
    let respelt = Self.base.replacingOccurrences(of: "onFav(_:)", with: "\"onFav( _: )\"")
    #expect(try diff(Self.base, respelt).changes.map(\.kind) == [])
  }

  @Test func eventAddedIsNotBreaking() throws {
    let new = Self.base + "\n      onShare(_:): HOME_SHARE\n"
    let changes = try diff(Self.base, new).changes
    #expect(changes.map(\.kind) == [.eventAdded])
    #expect(!changes[0].isBreaking)
    #expect(changes[0].location.file == "new.yaml" && changes[0].location.line == 8)
  }

  @Test func eventRemovedIsBreakingAndPointsIntoOld() throws {
    let old = Self.base + "\n      onShare(_:): HOME_SHARE\n"
    let changes = try diff(old, Self.base).changes
    #expect(changes.map(\.kind) == [.eventRemoved])
    #expect(changes[0].isBreaking)
    #expect(changes[0].location.file == "old.yaml" && changes[0].location.line == 8 && changes[0].location.column == 20)
    // Annotations that can only point into NEW go on the screen that lost the event.
    #expect(changes[0].anchorInNew?.file == "new.yaml" && changes[0].anchorInNew?.line == 4)
  }

  /// The open events of entry points are plan events: renaming one, removing its entry point or
  /// retyping a route parameter breaks what was built on it; adding a parameter does not.
  @Test func entryPointOpenEvents() throws {
    let withLinks =
      Self.base + """

        links: {schemes: [shop]}
        entry_points:
          home: {screen: Home, links: ["shop://home/{tab:int}"], event: OPEN_HOME}
        """
    #expect(try diff(withLinks, withLinks).isEmpty)
    let renamed = try diff(withLinks, withLinks.replacingOccurrences(of: "OPEN_HOME", with: "OPEN_HOME_SCREEN")).changes
    #expect(renamed.map(\.kind) == [.eventRenamed] && renamed[0].isBreaking)
    #expect(renamed[0].message.contains("the open event of entry point 'home'"), "\(renamed[0].message)")
    let retyped = try diff(withLinks, withLinks.replacingOccurrences(of: "{tab:int}", with: "{tab:slug}")).changes
    #expect(retyped.map(\.kind) == [.propertyRetyped] && retyped[0].subject == "OPEN_HOME")
    let added = try diff(withLinks, withLinks.replacingOccurrences(of: "{tab:int}\"", with: "{tab:int}?ref={ref:string?}\"")).changes
    #expect(added.map(\.kind) == [.propertyAdded] && !added[0].isBreaking)
    let removed = try diff(withLinks, Self.base).changes
    #expect(removed.map(\.kind) == [.eventRemoved] && removed[0].subject == "OPEN_HOME" && removed[0].location.file == "old.yaml")
  }

  @Test func renamedIsSameTriggerNewID() throws {
    let new = Self.base.replacingOccurrences(of: "HOME_FAV", with: "HOME_FAVORITE")
    let changes = try diff(Self.base, new).changes
    #expect(changes.map(\.kind) == [.eventRenamed])
    #expect(changes[0].isBreaking && changes[0].subject == "HOME_FAVORITE")
  }

  /// What destinations know an event by is its name on the wire: a new `wire_name` or call is breaking;
  /// a new ID that keeps the name on the wire is a rename (code changes), not a second change.
  @Test func wireNameChangedIsBreaking() throws {
    let named = Self.base.replacingOccurrences(of: "event: HOME_FAV,", with: "event: HOME_FAV, wire_name: Favorite Tapped,")
    let naming = try diff(Self.base, named).changes
    #expect(naming.map(\.kind) == [.wireNameChanged] && naming[0].isBreaking)
    #expect(naming[0].message == "event 'HOME_FAV' now goes on the wire as track 'Favorite Tapped' (was track 'HOME_FAV')")
    let renamedKeepingTheName = named.replacingOccurrences(of: "event: HOME_FAV,", with: "event: FAVORITE,")
    #expect(kinds(try diff(named, renamedKeepingTheName)) == [.eventRenamed])
    let tracked = Self.base.replacingOccurrences(of: "enter: HOME_ENTER", with: "enter: {event: HOME_ENTER, call: track}")
    let calls = try diff(Self.base, tracked).changes
    #expect(calls.map(\.message) == ["event 'HOME_ENTER' now goes on the wire as track 'HOME_ENTER' (was screen 'Home')"])
    #expect(
      try diff(Self.base, Self.base.replacingOccurrences(of: "enter: HOME_ENTER", with: "enter: {event: HOME_ENTER, call: screen}")).changes.isEmpty)
  }

  @Test func movedIsSameIDOtherHandler() throws {
    let new = Self.base.replacingOccurrences(of: "onFav(_:)", with: "onFavorite(_:)")
    #expect(kinds(try diff(Self.base, new)) == [.eventMoved])
    #expect(try diff(Self.base, new).breakingChanges.isEmpty)
  }

  @Test func reroutedSaysWhatWasGainedAndLost() throws {
    let new = Self.base.replacingOccurrences(of: "event: HOME_FAV,", with: "event: HOME_FAV, exclude: [mixpanel],")
    let changes = try diff(Self.base, new).changes
    #expect(changes.map(\.kind) == [.eventRerouted])
    #expect(changes[0].message.contains("no longer to mixpanel"))
    #expect(!changes[0].isBreaking)
  }

  @Test func propertyChanges() throws {
    let added = Self.base.replacingOccurrences(of: "position: 2}", with: "position: 2, slot: hero}")
    #expect(kinds(try diff(Self.base, added)) == [.propertyAdded])
    let removed = Self.base.replacingOccurrences(of: ", position: 2}", with: "}")
    let removal = try diff(Self.base, removed).changes
    #expect(removal.map(\.kind) == [.propertyRemoved] && removal[0].isBreaking && removal[0].location.file == "old.yaml")
    let retyped = Self.base.replacingOccurrences(of: "position: 2}", with: "position: '2'}")
    let retyping = try diff(Self.base, retyped).changes
    #expect(retyping.map(\.kind) == [.propertyRetyped] && retyping[0].isBreaking)
    let revalued = Self.base.replacingOccurrences(of: "source: home,", with: "source: feed,")
    #expect(kinds(try diff(Self.base, revalued)) == [.propertyValueChanged])
    #expect(try diff(Self.base, revalued).breakingChanges.isEmpty)
  }

  @Test func screensAndDestinations() throws {
    let new = Self.base.replacingOccurrences(of: "Home:", with: "Cart:").replacingOccurrences(of: "mixpanel: {}", with: "braze: {}")
    let found = kinds(try diff(Self.base, new))
    #expect(found.contains(.screenAdded) && found.contains(.screenRemoved))
    #expect(found.contains(.destinationAdded) && found.contains(.destinationRemoved))
    // The events kept their IDs on the new screen: moved, not removed and added.
    #expect(found.filter { $0 == .eventMoved }.count == 2 && !found.contains(.eventAdded) && !found.contains(.eventRemoved))
  }

  @Test func breakingKinds() {
    let breaking = PlanDiff.Kind.allCases.filter(\.isBreaking)
    #expect(
      breaking == [
        .screenRemoved, .eventRemoved, .eventRenamed, .wireNameChanged, .propertyRemoved, .propertyRetyped, .dataTypeAdded, .purposeAdded,
        .trackingAdded, .dataLinked,
      ])
  }

  /// A config that does not parse is not compared: its errors say where.
  @Test func unreadableConfigStopsTheDiff() {
    let broken = "version: 1\nscreens:\n  Home: {page_events: {enter: [HOME_ENTER}\n"
    let outcome = PlanDiffSession.compare(old: ConfigSource(path: "old.yaml", text: Self.base), new: ConfigSource(path: "new.yaml", text: broken))
    guard case .unreadable(let results) = outcome else {
      Issue.record("a broken config was compared")
      return
    }
    let diagnostics = PlanDiffSession.blockingDiagnostics(results)
    #expect(diagnostics.map(\.ruleID) == ["yaml-syntax"])
    #expect(diagnostics.allSatisfy { $0.location.file == "new.yaml" && $0.location.line == 3 })
    // A part left out by the decoder would look removed: that stops it too.
    let wrongType = Self.base.replacingOccurrences(of: "page_events: {enter: HOME_ENTER}", with: "page_events: [HOME_ENTER]")
    guard
      case .unreadable = PlanDiffSession.compare(
        old: ConfigSource(path: "old.yaml", text: Self.base), new: ConfigSource(path: "new.yaml", text: wrongType))
    else {
      Issue.record("a config with a structure error was compared")
      return
    }
    // An error about meaning does not.
    let unknownDestination = Self.base.replacingOccurrences(of: "event: HOME_FAV,", with: "event: HOME_FAV, destinations: [amplitude],")
    #expect(PlanDiffSession.isReadWhole(Linter.lint(ConfigSource(path: "new.yaml", text: unknownDestination))))
  }

  @Test(arguments: PlanDiffFormat.allCases)
  func fixtureDiffMatchesGolden(format: PlanDiffFormat) throws {
    let old = try Fixtures.lint(Self.folder.appendingPathComponent("diff-old.yaml"))
    let new = try Fixtures.lint(Self.folder.appendingPathComponent("diff-new.yaml"))
    let diff = PlanDiff(old: try #require(PlanOutline(old)), new: try #require(PlanOutline(new)))
    #expect(diff.changes.count == 17 && diff.breakingChanges.count == 8)
    // Every kind of change is in the fixture (those about privacy in PrivacyPlanToolsTests' own).
    #expect(Set(diff.changes.map(\.kind)) == Set(PlanDiff.Kind.allCases.filter { !$0.isAboutPrivacy }))
    let suffix = ["text": "txt", "markdown": "md", "json": "json", "github": "github"][format.rawValue]!
    Golden.check(format.render(diff, failOnBreaking: true), matches: Self.folder.appendingPathComponent("diff.\(suffix)"))
  }

  /// Strings from a config cannot add links, images, HTML or table cells to a pull-request comment, nor
  /// end a GitHub workflow command early.
  @Test func hostileStringsAreInert() throws {
    let hostile = "X](https://evil.example) <img src=x onerror=alert(1)> | cell ![a](b)"
    let old = Self.base
    let new = Self.base.replacingOccurrences(of: "source: home,", with: "source: \"\(hostile)\\n::error::pwned\",")
    let changed = try diff(old, new)
    let markdown = PlanDiffRenderer.markdown(changed)
    #expect(!markdown.contains(" <img") && !markdown.contains("](") && !markdown.contains(" | cell"))
    #expect(markdown.contains("\\<img") && markdown.contains("\\|"))
    let github = PlanDiffRenderer.github(changed, failOnBreaking: false)
    #expect(github.split(separator: "\n").count == 1)
    #expect(!github.contains("\n::error::pwned"))
    #expect(github.contains("%0A::error::pwned"))
  }
}
