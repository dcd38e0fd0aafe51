import Testing
@testable import TrackcCore

@Suite struct EventIDPatternTests {
  /// The fast path for the default pattern must answer exactly as ICU does. Every string of up to four
  /// characters over an alphabet of edge cases (letters, digits, `_`, lower case, separators, every line
  /// terminator ICU knows, non-ASCII) is checked both ways.
  @Test func defaultPatternFastPathAgreesWithICU() throws {
    let alphabet: [String] = ["A", "Z", "M", "0", "9", "_", "a", "-", " ", ".", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "É", "\t"]
    var strings: [String] = [""]
    var previous: [String] = [""]
    for _ in 1...4 {
      previous = previous.flatMap { prefix in alphabet.map { prefix + $0 } }
      strings += previous
    }
    var disagreements: [String] = []
    for string in strings {
      let icu = try EventIDPattern.matchesWithICU(string, pattern: TrackingConfig.defaultEventIDPattern)
      if DefaultEventIDPattern.matches(string) != icu { disagreements.append(string.debugDescription) }
    }
    #expect(strings.count > 160_000)
    #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
  }

  @Test func customPatternsUseICU() throws {
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
