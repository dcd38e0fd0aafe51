import Testing
import TrackcTestSupport

@testable import TrackcCore

@Suite struct HandlerNameTests {
  @Test(arguments: [
    ("onFavBtnPressed(_:)", HandlerName.swiftName(base: "onFavBtnPressed", labels: ["_"]), "onFavBtnPressed(_:)"),
    ("open(item:at:)", .swiftName(base: "open", labels: ["item", "at"]), "open(item:at:)"),
    ("open(item: at: )", .swiftName(base: "open", labels: ["item", "at"]), "open(item:at:)"),
    ("reload()", .swiftName(base: "reload", labels: []), "reload()"),
    ("`default`(for:)", .swiftName(base: "default", labels: ["for"]), "default(for:)"),
    ("select(in:)", .swiftName(base: "select", labels: ["in"]), "select(in:)"),
    ("onFavBtnPressed", .baseName("onFavBtnPressed"), "onFavBtnPressed"),
    ("onFavBtnPressed:", .selector(["onFavBtnPressed"]), "onFavBtnPressed:"),
    ("openWithItem:at:", .selector(["openWithItem", "at"]), "openWithItem:at:"),
    ("f::", .selector(["f", ""]), "f::"),
    ("onCafé(_:)", .swiftName(base: "onCafé", labels: ["_"]), "onCafé(_:)"),
  ])
  func parsesToCanonicalForm(text: String, expected: HandlerName, canonical: String) throws {
    let name = try HandlerName.parse(text).get()
    #expect(name == expected)
    #expect(name.canonical == canonical)
    #expect(name.baseName == expected.baseName)
  }

  @Test func partsOfNames() {
    #expect(HandlerName.swiftName(base: "open", labels: ["item", "at"]).labels == ["item", "at"])
    #expect(HandlerName.swiftName(base: "reload", labels: []).labels == [])
    #expect(HandlerName.selector(["f", ""]).selectorPieces == ["f", ""])
    #expect(HandlerName.selector(["openWithItem", "at"]).baseName == "openWithItem")
    #expect(HandlerName.baseName("onFav").labels == [])
  }

  @Test(arguments: [
    ("", "cannot be empty"),
    ("onFav(sender)", "every argument label ends with ':'"),
    ("onFav(_:", "must end with ')'"),
    ("onFav(_:)x", "must end with ')'"),
    ("onFav(a:(b:))", "nested parentheses"),
    ("(_:)", "no base name"),
    ("2fast()", "is not a Swift method name"),
    ("on Fav", "is not a Swift method name"),
    ("open:at", "does not end with ':'"),
    (":x:", "no method name before the first ':'"),
    ("open:a b:", "no spaces"),
    ("onFav(::)", "empty argument label"),
    ("onFav)", "')' without '('"),
    ("self", "is not a Swift method name"),
    // Found by the name property test: backticks are dropped from the canonical spelling, so a name valid
    // only in backticks would have a canonical spelling that does not parse.
    ("`self`", "is not a Swift method name"),
    ("`init`(_:)", "is not a Swift method name"),
    ("open(`init`:)", "is not a valid argument label"),
  ])
  func rejectsMalformedNames(text: String, messageFragment: String) throws {
    guard case .failure(let error) = HandlerName.parse(text) else {
      Issue.record("'\(text)' should not parse")
      return
    }
    #expect(error.message.contains(messageFragment), "\(error.message)")
  }

  @Test(arguments: ["HomeViewController", "Shop.HomeViewController", "Outer.Inner.Deepest", "`Type`", "Café", "Shop.`Protocol`"])
  func acceptsTypeNames(text: String) {
    #expect((try? SwiftTypeName.parse(text).get()) != nil)
  }

  /// The last two were found by fuzzing: swift-syntax's parser, which decided such names, takes
  /// exponential time on nested brackets; names with ASCII punctuation are now refused without it.
  @Test(
    .timeLimit(.minutes(TimeLimits.minutes(1))),
    arguments: [
      "", "Home Screen", "Shop..Cart", ".Home", "Home.", "List<Item>", "1Screen", "class", "Home-Screen",
      "Home" + String(repeating: "[", count: 40) + "x", "Home" + String(repeating: "(", count: 40) + "é",
    ])
  func rejectsTypeNames(text: String) {
    #expect((try? SwiftTypeName.parse(text).get()) == nil)
  }

  @Test func typeNameComponentsDropBackticks() throws {
    #expect(try SwiftTypeName.parse("Shop.`Protocol`").get().components == ["Shop", "Protocol"])
  }

  /// One pair of backticks, not two (found by the `names` fuzz target: "``unownn``" was a type named
  /// "`unownn`", backticks and all, which written back in one pair read as "unownn").
  @Test(arguments: ["``unownn``", "Shop.``Home``", "```a```", "`a`b`", "onTap(``x``:)", "``self``"])
  func doubledBackticksAreNoName(text: String) {
    #expect((try? SwiftTypeName.parse(text).get()) == nil)
    #expect((try? HandlerName.parse(text).get()) == nil)
  }
}

@Suite struct SuggestionTests {
  @Test(arguments: [
    ("screen", ["version", "screens", "defaults"], "screens"),
    ("pageEvents", ["page_events", "control_events"], "page_events"),
    ("page-events", ["page_events", "control_events"], "page_events"),
    ("destination", ["event", "destinations", "exclude", "properties"], "destinations"),
    ("mixpanell", ["firebase", "mixpanel"], "mixpanel"),
  ])
  func suggestsCloseNames(word: String, candidates: [String], expected: String) {
    #expect(Suggestions.closest(to: word, in: candidates) == expected)
  }

  @Test func doesNotSuggestDistantNames() {
    #expect(Suggestions.closest(to: "colour", in: ["version", "screens"]) == nil)
    #expect(Suggestions.closest(to: "x", in: ["enter", "leave"]) == nil)
  }

  @Test func editDistance() {
    #expect(Suggestions.editDistance("kitten", "sitting", limit: 5) == 3)
    #expect(Suggestions.editDistance("kitten", "sitting", limit: 2) == nil)
    #expect(Suggestions.editDistance("", "abc", limit: 3) == 3)
  }
}
