import Testing
@testable import TrackcCore

@Suite struct EventIDPatternTests {
  /// The fast path for the default pattern must answer exactly as `Regex` does. Every string of up to
  /// four characters over an alphabet of edge cases (letters, digits, `_`, lower case, separators, line
  /// terminators, non-ASCII, a combining mark) is checked both ways.
  @Test func defaultPatternFastPathAgreesWithRegex() throws {
    let alphabet: [String] = ["A", "Z", "M", "0", "9", "_", "a", "-", " ", ".", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "É", "\t", "\u{301}"]
    var strings: [String] = [""]
    var previous: [String] = [""]
    for _ in 1...4 {
      previous = previous.flatMap { prefix in alphabet.map { prefix + $0 } }
      strings += previous
    }
    var disagreements: [String] = []
    for string in strings {
      let regex = try EventIDPattern.matchesWithRegex(string, pattern: TrackingConfig.defaultEventIDPattern)
      if DefaultEventIDPattern.matches(string) != regex { disagreements.append(string.debugDescription) }
    }
    #expect(strings.count > 190_000)
    #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
  }

  @Test func customPatternsUseRegex() throws {
    let pattern = try EventIDPattern.compile(Located("^(page|ctrl)\\.[a-z_]+$", at: SourceRange(at: .start))).get()
    #expect(pattern.matches("page.home_enter"))
    #expect(!pattern.matches("PAGE_HOME_ENTER"))
  }

  @Test func invalidPatternsExplainWhy() {
    guard case .failure(let error) = EventIDPattern.compile(Located("^[A-Z(+$", at: SourceRange(at: .start))) else {
      Issue.record("an unclosed bracket must not compile")
      return
    }
    #expect(error.message == "expected ']'")
  }
}
