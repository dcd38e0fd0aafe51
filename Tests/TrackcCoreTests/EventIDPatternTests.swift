import Testing
import TrackcInvariants
import TrackcTestSupport

@testable import TrackcCore

@Suite struct EventIDPatternTests {
  static func compile(_ pattern: String) -> Result<EventIDPattern, EventIDPattern.CompileError> {
    EventIDPattern.compile(Located(pattern, at: SourceRange(at: .start)))
  }

  static func message(_ pattern: String) -> String? {
    guard case .failure(let error) = compile(pattern) else { return nil }
    return error.message
  }

  /// The fast path for the default pattern must answer exactly as `Regex` does. Every string of up to
  /// four characters over an alphabet of edge cases (letters, digits, `_`, lower case, separators, line
  /// terminators, non-ASCII, a combining mark) is checked both ways.
  @Test func defaultPatternFastPathAgreesWithRegex() throws {
    let alphabet: [String] = [
      "A", "Z", "M", "0", "9", "_", "a", "-", " ", ".", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "É", "\t",
      "\u{301}",
    ]
    var strings: [String] = [""]
    var previous: [String] = [""]
    for _ in 1...4 {
      previous = previous.flatMap { prefix in alphabet.map { prefix + $0 } }
      strings += previous
    }
    var disagreements: [String] = []
    for string in strings {
      let regex = RegexReference.matches(string, pattern: TrackingConfig.defaultEventIDPattern)
      if DefaultEventIDPattern.matches(string) != regex { disagreements.append(string.debugDescription) }
    }
    #expect(strings.count > 190_000)
    #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
  }

  /// The linear-time matcher, given the default pattern written differently, agrees with the fast path.
  @Test func linearMatcherAgreesWithTheFastPath() throws {
    let linear = try LinearRegex.compile("^[A-Z][A-Z0-9_]*$")
    for id in ["", "A", "AB_9", "a", "A-B", "É", "A\n", "\nA", "A\u{301}", "9A", "_", "A B", "HOME_ENTER_2"] {
      #expect(linear.matches(id) == DefaultEventIDPattern.matches(id), "\(id.debugDescription)")
    }
  }

  /// The default pattern (matched by its fast path) and the same pattern written out, or written
  /// otherwise (matched by the linear-time matcher), report the same events, at the same places.
  @Test func theDefaultPatternAndTheSameWrittenOutReportTheSameIDs() throws {
    let ids = ["HOME_ENTER", "home_leave", "A", "a", "A-B", "É", "9A", "_X", "CART_2", "Cart", "X\\u00e9", "OK_"]
    func config(pattern: String?) -> String {
      var text = "version: 1\n"
      // One line either way, so that the findings' positions compare.
      text += pattern.map { "conventions: {event_id_pattern: '\($0)'}\n" } ?? "# the default pattern\n"
      text += "screens:\n  Home:\n    control_events:\n"
      for (index, id) in ids.enumerated() { text += "      on\(index)(_:): \"\(id)\"\n" }
      return text
    }
    func mismatches(_ text: String) -> [String] {
      Linter.lint(ConfigSource(path: "t.yaml", text: text)).diagnostics.filter { $0.ruleID == EventIDPatternRule.id }.map {
        "\($0.location.range.start.line):\($0.location.range.start.column)"
      }
    }
    let byDefault = mismatches(config(pattern: nil))
    #expect(byDefault == mismatches(config(pattern: TrackingConfig.defaultEventIDPattern)))
    #expect(byDefault == mismatches(config(pattern: "^[A-Z][A-Z0-9_]{0,}$")))
    // The lines of home_leave, a, A-B, É, 9A, _X, Cart and X\u00e9.
    #expect(byDefault.map { $0.split(separator: ":")[0] } == ["7", "9", "10", "11", "12", "13", "15", "16"])
  }

  @Test func customPatternsMatch() throws {
    let pattern = try Self.compile("^(page|ctrl)\\.[a-z_]+$").get()
    #expect(pattern.matches("page.home_enter"))
    #expect(!pattern.matches("PAGE_HOME_ENTER"))
    #expect(!pattern.matches("page.home_enter\n"))
    let search = try Self.compile("ctrl").get()
    #expect(search.matches("a_ctrl_b"))
    #expect(!search.matches("a_ctr_l"))
  }

  @Test func invalidPatternsExplainWhy() {
    #expect(Self.message("^[A-Z(+$") == "is not a valid regular expression: the class opened at character 2 is not closed: expected ']'")
    #expect(Self.message("(a") == "is not a valid regular expression: the group opened at character 1 is not closed: expected ')'")
    #expect(Self.message("a)") == "is not a valid regular expression: the ')' at character 2 closes no group")
    #expect(Self.message("*a") == "is not a valid regular expression: the quantifier '*' at character 1 has nothing to repeat")
    #expect(Self.message("a**")?.contains("follows another") == true)
    #expect(Self.message("^*")?.contains("cannot be repeated") == true)
    #expect(Self.message("a{3,2}")?.contains("maximum below its minimum") == true)
    #expect(Self.message("[z-a]")?.contains("runs backwards") == true)
    #expect(Self.message("[\\d-z]")?.contains("between two characters") == true)
    #expect(Self.message("\\u{D800}")?.contains("not a Unicode scalar") == true)
    #expect(Self.message("\\u12")?.contains("exactly 4 hexadecimal digits") == true)
    #expect(Self.message("a\\")?.contains("lone '\\'") == true)
  }

  /// What the linear-time subset leaves out is refused, naming the construct: never read differently.
  @Test(arguments: [
    ("(?=a)", "a lookahead"), ("(?!a)", "a negative lookahead"), ("(?<=a)b", "a lookbehind"), ("(?<!a)b", "a negative lookbehind"),
    ("(a)\\1", "a backreference"), ("(?<n>a)\\k<n>", "a named group"), ("(?P<n>a)", "a named group"), ("(?>a)", "an atomic group"),
    ("(?i)a", "inline options"), ("(?#note)a", "a comment group"), ("a*+", "a possessive quantifier"), ("a{2}+", "a possessive quantifier"),
    ("\\p{L}", "the Unicode property"), ("\\bA", "the anchor '\\b'"), ("\\Aa\\z", "the anchor '\\A'"), ("\\Qa.b\\E", "quoting"),
    ("\\v", "the escape '\\v'"), ("\\h", "the escape '\\h'"), ("\\X", "the escape '\\X'"), ("[\\b]", "inside a class"),
    ("[[:alpha:]]", "nested classes"), ("[:alpha:]", "POSIX class"), ("[a-z--[aeiou]]", "a set operation"), ("[a&&b]", "a set operation"),
    ("[a-c-e]", "neither first, last"), ("[]a]", "a ']' first"), ("a{,2}", "'{,n}'"), ("a{x}", "a '{' that does not begin a quantifier"),
    ("a{ 1}", "a '{' that does not begin a quantifier"), ("e\u{301}", "several Unicode scalars"), ("a\r\nb", "several Unicode scalars"),
    ("(*ACCEPT)", "'(*'"),
  ])
  func unsupportedSyntaxIsNamed(pattern: String, named: String) {
    let message = Self.message(pattern)
    #expect(message?.hasPrefix("uses ") == true, "\(pattern.debugDescription): \(message ?? "compiles")")
    #expect(message?.contains(named) == true, "\(pattern.debugDescription): \(message ?? "compiles")")
  }

  /// The limits: counts up to 1,000, a program of up to 10,000 instructions, groups 100 deep, patterns of
  /// 10,000 characters. Past them a pattern is refused at once, never compiled.
  @Test func limitsRefuseHugePatterns() throws {
    _ = try Self.compile("^[a-z]{1,1000}$").get()
    _ = try Self.compile(String(repeating: "(", count: 100) + "a" + String(repeating: ")", count: 100)).get()
    #expect(Self.message("a{1001}") == "is too large: the quantifier at character 2 counts past 1,000")
    #expect(Self.message("a{99999999999999999999}")?.contains("counts past 1,000") == true)
    #expect(Self.message("(((a{1000}){1000}){1000})")?.hasPrefix("is too large: it compiles to more than 10,000 instructions") == true)
    #expect(Self.message("(a{100}){101}")?.hasPrefix("is too large") == true)
    #expect(
      Self.message(String(repeating: "(", count: 101) + "a" + String(repeating: ")", count: 101))?.contains("nested more than 100 deep") == true)
    #expect(Self.message(String(repeating: "(", count: 100_000))?.hasPrefix("is too large") == true)
    #expect(Self.message(String(repeating: "a", count: 10_001)) == "is too large: the pattern is longer than 10,000 characters")
  }

  /// The patterns that make a backtracking engine take exponential time (`Regex` takes minutes on the
  /// first with 30 `a`s), on IDs of 100,000 scalars: linear here. The time limit catches a regression.
  @Test(
    .timeLimit(.minutes(TimeLimits.minutes(1))),
    arguments: [
      ("^(a|a)*$", String(repeating: "a", count: 100_000) + "b", false),
      ("^(a|a)*$", String(repeating: "a", count: 100_000), true),
      ("(a*)*b", String(repeating: "a", count: 100_000), false),
      ("(a+)+$", String(repeating: "a", count: 100_000) + "b", false),
      ("(.*a){20}", String(repeating: "a", count: 19) + String(repeating: "b", count: 100_000), false),
      ("(.*a){20}", String(repeating: "ab", count: 50_000), true),
      ("^(a?){1000}a{1000}$", String(repeating: "a", count: 1_000), true),
      ("^(\\w+\\s?)*$", String(repeating: "word ", count: 20_000) + "!", false),
      ("^([a-zé]|[^0-9])*中$", String(repeating: "é", count: 50_000) + "中中", true),
    ])
  func adversarialPatternsFinish(pattern: String, id: String, expected: Bool) throws {
    #expect(try Self.compile(pattern).get().matches(id) == expected)
  }

  /// Linear is not fast enough: `(a?){1000}a{1000}b` has thousands of instructions and no DFA worth the
  /// name, so 200 IDs of 20,000 scalars would take minutes. The lint shares one budget among the IDs and
  /// reports those it could not check, at the pattern, instead of hanging. (Spending the budget takes
  /// 22 - 24 s in a debug build on its own; the limit, a guard against hanging, leaves room for a loaded
  /// machine: it once ran over one minute beside a release build.)
  @Test(.timeLimit(.minutes(TimeLimits.minutes(3)))) func aCostlyPatternOverLongIDsIsReportedNotMatchedForever() {
    let id = String(repeating: "A", count: 20_000)
    var config = "version: 1\nconventions: {event_id_pattern: '(A?){1000}A{1000}B'}\nscreens:\n"
    for screen in 0..<100 { config += "  S\(screen): {page_events: {enter: \(id)\(screen)E, leave: \(id)\(screen)L}}\n" }
    let lint = Linter.lint(ConfigSource(path: "t.yaml", text: config))
    let costly = lint.diagnostics.filter { $0.message.contains("too costly") }
    #expect(costly.count == 1)
    #expect(costly.first?.location.line == 2)
    #expect(costly.first.map { $0.message.contains("of them were not checked") } == true)
    // The budget does not leak into ordinary patterns: long IDs on a pattern the DFA covers are all checked.
    var budget = EventIDPattern.lintBudget
    let ordinary = try? Self.compile("^[A-Z][A-Z0-9_]*[0-9]$").get()
    #expect(ordinary?.matches(id + "1", budget: &budget) == true)
    #expect(budget == EventIDPattern.lintBudget)
  }

  /// A pattern whose DFA has far more states than are built (`(a|b)*a(a|b){12}` needs 8,192): the NFA
  /// takes over past the DFA's states, and the answers stay right on long IDs.
  @Test func patternsPastTheDFALimitStayRight() throws {
    let pattern = try LinearRegex.compile("a[ab]{12}$")
    var random = SeededRandom(seed: SeededRandom.baseSeed)
    for length in [0, 5, 13, 14, 200, 5_000] {
      for _ in 0..<20 {
        let scalars = (0..<length).map { _ in random.chance(0.6) ? "a" : random.chance(0.9) ? "b" : "é" }
        let id = scalars.joined()
        // The last 13 scalars: an `a`, then twelve of `a` or `b`.
        let tail = scalars.suffix(13)
        let expected = tail.count == 13 && tail.first == "a" && tail.allSatisfy { $0 == "a" || $0 == "b" }
        #expect(pattern.matches(id) == expected, "seed \(SeededRandom.baseSeed): \(id.debugDescription)")
      }
    }
  }

  /// Unicode-scalar semantics, as `Regex` has them: `.` and classes match one scalar (a combining
  /// accent is a scalar of its own), `.` no line terminator, and `$` only the very end.
  @Test func scalarSemantics() throws {
    #expect(try Self.compile("^..$").get().matches("e\u{301}"))
    #expect(try !Self.compile("^.$").get().matches("e\u{301}"))
    #expect(try Self.compile("\\u{301}").get().matches("e\u{301}"))
    #expect(try !Self.compile("^é$").get().matches("e\u{301}"))
    #expect(try !Self.compile(".").get().matches("\n\r\u{85}\u{2028}\u{2029}\u{0B}\u{0C}"))
    #expect(try !Self.compile("^A$").get().matches("A\n"))
    #expect(try Self.compile("^$").get().matches(""))
    #expect(try Self.compile("^\\d+$").get().matches("12٣½"))
    #expect(try Self.compile("^\\w+$").get().matches("a_1é中"))
    #expect(try !Self.compile("\\w").get().matches("٣-\u{301}"))
    #expect(try Self.compile("^\\s+$").get().matches(" \t\u{A0}\u{2028}"))
    #expect(try Self.compile("^[^a]+$").get().matches("\r\n"))
    #expect(try Self.compile("^[à-ÿ\\-]+$").get().matches("é-ü"))
  }
}
