import Testing
import TrackcInvariants
import TrackcTestSupport

@testable import TrackcCore

/// The linear-time matcher answers as Swift's `Regex` does (Unicode-scalar semantics, a search unless
/// anchored), on generated patterns of the supported syntax and generated IDs short enough for `Regex`'s
/// backtracking to finish; and the NFA alone, without the DFA built over it, answers the same. A failure
/// names the seed that reproduces it.
@Suite struct LinearRegexPropertyTests {
  /// What IDs are made of: ASCII letters, digits and punctuation of both kinds (word and not), a space
  /// and line terminators, Latin-1 and CJK letters, a combining accent (a scalar of its own), a digit
  /// that is not ASCII and one that is not even a decimal digit, and a separator `.` does not match.
  static let idAlphabet: [String] = ["a", "b", "A", "1", "_", "-", ".", " ", "\n", "\r", "é", "中", "\u{301}", "٣", "½", "\u{2028}", "\u{A0}"]

  static func randomID(using random: inout SeededRandom) -> String {
    (0..<Int.random(in: 0...7, using: &random)).map { _ in random.pick(idAlphabet) }.joined()
  }

  /// A pattern of the supported syntax: literals and escapes, `.`, class escapes, classes with ranges
  /// and negation, groups of both kinds, alternation, every quantifier (greedy or lazy) and anchors.
  /// At most four quantifiers, so that `Regex` finishes on short IDs.
  struct PatternGenerator {
    var random: SeededRandom
    var quantifiers = 0

    static let literals = [
      "a", "b", "A", "1", "_", "é", "中", " ", "-", "]", "}", ",", "#", "\\.", "\\-", "\\\\", "\\n", "\\r", "\\t", "\\u{301}", "\\u00e9", "\\x41",
      "\\u{4E2D}", "\\_", "\\/", "\\ ", "\\{", "\\}", "\\[", "\\]", "\\(", "\\)", "\\*", "\\+", "\\?", "\\|", "\\^", "\\$",
    ]
    static let classEscapes = ["\\d", "\\D", "\\w", "\\W", "\\s", "\\S"]
    static let classMembers = [
      "a", "b", "1", "_", "é", "中", " ", "a-c", "0-9", "A-Z", "à-ÿ", "\\u{300}-\\u{36F}", "\\d", "\\w", "\\s", "\\D", "\\S", "\\W", "\\n", "\\-",
      "\\]", "\\[", "\\^", ".", "$", "(", "*", "?", "{", "|",
    ]

    mutating func alternation(depth: Int) -> String {
      (0..<Int.random(in: 1...(random.chance(0.7) ? 1 : 3), using: &random)).map { _ in sequence(depth: depth) }.joined(separator: "|")
    }

    mutating func sequence(depth: Int) -> String {
      var text = ""
      for _ in 0..<Int.random(in: 0...3, using: &random) {
        if random.chance(0.08) {
          text += random.pick(["^", "$"])
          continue
        }
        text += atom(depth: depth)
        if quantifiers < 4 && random.chance(0.35) {
          quantifiers += 1
          text += random.pick(["*", "+", "?", "{0}", "{1}", "{2}", "{0,}", "{1,}", "{0,1}", "{1,3}", "{2,3}"])
          if random.chance(0.3) { text += "?" }
        }
      }
      return text
    }

    mutating func atom(depth: Int) -> String {
      switch Int.random(in: 0..<10, using: &random) {
      case 0...3: return random.pick(Self.literals)
      case 4: return "."
      case 5: return random.pick(Self.classEscapes)
      case 6, 7:
        var members = (0..<Int.random(in: 1...3, using: &random)).map { _ in random.pick(Self.classMembers) }
        if random.chance(0.15) { members.insert("-", at: 0) } else if random.chance(0.15) { members.append("-") }
        return "[" + (random.chance(0.3) ? "^" : "") + members.joined() + "]"
      default:
        guard depth < 3 else { return random.pick(Self.literals) }
        return (random.chance(0.5) ? "(" : "(?:") + alternation(depth: depth + 1) + ")"
      }
    }
  }

  @Test func generatedPatternsAnswerAsRegexDoes() throws {
    var compared = 0
    var matched = 0
    for index in 0..<1_500 {
      let seed = SeededRandom.baseSeed &+ UInt64(index)
      var generator = PatternGenerator(random: SeededRandom(seed: seed))
      let pattern = generator.alternation(depth: 0)
      var random = generator.random
      let compiled: LinearRegex
      let nfaOnly: LinearRegex
      do {
        compiled = try LinearRegex.compile(pattern)
        nfaOnly = try LinearRegex.compile(pattern, maxDFAStates: 1)
      } catch {
        Issue.record("seed \(seed): \(pattern.debugDescription) is refused: \(error.detail)")
        continue
      }
      guard RegexReference.matches("", pattern: pattern) != nil else {
        Issue.record("seed \(seed): \(pattern.debugDescription) compiles, but Regex refuses it")
        continue
      }
      for _ in 0..<25 {
        let id = Self.randomID(using: &random)
        guard !RegexReference.isKnownDifference(pattern: pattern, id: id) else { continue }
        let expected = RegexReference.matches(id, pattern: pattern)
        let answer = compiled.matches(id)
        #expect(answer == expected, "seed \(seed): \(pattern.debugDescription) against \(id.debugDescription)")
        #expect(nfaOnly.matches(id) == answer, "seed \(seed): \(pattern.debugDescription) against \(id.debugDescription), the NFA alone")
        compared += 1
        if answer { matched += 1 }
      }
    }
    // Not vacuous: many comparisons, with both answers well represented.
    #expect(compared > 30_000)
    #expect(matched > compared / 5 && matched < compared * 4 / 5, "\(matched) of \(compared) matched")
  }

  /// Random strings of pattern syntax, valid or not: whatever trackc accepts, `Regex` accepts too and
  /// reads the same way (the same answers), so a pattern can never mean something else here.
  @Test func acceptedSyntaxMeansWhatRegexReadsItAs() throws {
    let tokens = [
      "a", "b", "1", "_", ".", "^", "$", "|", "(", ")", "(?:", "(?", "[", "]", "[^", "-", "*", "+", "?", "{", "}", ",", "2", "\\", "d", "w", "u", "x",
      "{41}", "4", ":", "&", "~", "=", "<", "!", "P", "é", " ", "#",
    ]
    var accepted = 0
    var compared = 0
    for index in 0..<6_000 {
      let seed = SeededRandom.baseSeed &+ 100_000 &+ UInt64(index)
      var random = SeededRandom(seed: seed)
      let pattern = (0..<Int.random(in: 1...10, using: &random)).map { _ in random.pick(tokens) }.joined()
      guard let compiled = try? LinearRegex.compile(pattern) else { continue }
      accepted += 1
      guard RegexReference.matches("", pattern: pattern) != nil else {
        Issue.record("seed \(seed): \(pattern.debugDescription) compiles, but Regex refuses it")
        continue
      }
      for _ in 0..<10 {
        let id = (0..<Int.random(in: 0...5, using: &random)).map { _ in
          random.pick(["a", "b", "1", "_", "-", "A", "é", "\n", ",", "{", "}", "]", ":", "&", "~"])
        }.joined()
        guard RegexReference.isSafe(pattern: pattern, id: id) else { continue }
        #expect(
          compiled.matches(id) == RegexReference.matches(id, pattern: pattern),
          "seed \(seed): \(pattern.debugDescription) against \(id.debugDescription)")
        compared += 1
      }
    }
    // Not vacuous: many patterns accepted, and many answers compared with Regex's.
    #expect(accepted > 1_000)
    #expect(compared > 5_000, "\(compared) answers compared")
  }

  /// Every ASCII punctuation character escaped means itself; every ASCII letter escaped is either one of
  /// the supported escapes or refused.
  /// The DFA's construction is bounded by the work it does, not only by the instructions it visits: each
  /// transition built scans the state's threads and hashes the next state's, which a pattern such as
  /// `x{1,1000}` makes a thousand long. Built without counting them, this pattern's DFA scanned some 20
  /// million threads (1.5 s under ASan, found by the `names` fuzz target); the work is counted here the
  /// same way, from what was built, independently of the construction's own counter.
  @Test func dfaConstructionIsBoundedByTheThreadsItScans() throws {
    let pattern = "SettileViewControings.P|c\u{0}rdo\r|\u{17}{1,1000}0\u{a9}le\u{7}"
    let tree = try RegexParser.parse(pattern)
    let program = RegexProgram(tree)
    var scratch = RegexScratch(program)
    let dfa = RegexDFA(program, scratch: &scratch)
    let built = dfa.kernels.count
    let scanned = zip(dfa.kernels.indices, dfa.kernels).reduce(0) { total, state in
      let (index, threads) = state
      let transitions = (0..<dfa.classCount).filter { dfa.transitions[index * dfa.classCount + $0] >= 0 }.count
      return total + transitions * threads.count
    }
    #expect(built > 1)
    #expect(scanned <= 2 * RegexDFA.workBudget, "\(built) states, \(scanned) threads scanned")
    // And the pattern still answers: the NFA takes over where the DFA stops.
    let compiled = try LinearRegex.compile(pattern)
    #expect(compiled.matches("\u{17}\u{17}\u{17}0\u{a9}le\u{7}"))
    #expect(!compiled.matches("\u{17}0"))
  }

  @Test func escapesOfASCII() throws {
    let supported: Set<Character> = ["d", "D", "w", "W", "s", "S", "t", "n", "r", "f"]
    for value in UInt32(0x21)...0x7E {
      let character = Character(Unicode.Scalar(value)!)
      let pattern = "^\\\(character)$"
      if character.isLetter || character.isNumber {
        if supported.contains(character) {
          #expect((try? LinearRegex.compile(pattern)) != nil, "\(pattern)")
        } else if character != "u" && character != "x" {
          #expect((try? LinearRegex.compile(pattern)) == nil, "\(pattern)")
        }
        continue
      }
      let compiled = try LinearRegex.compile(pattern)
      #expect(compiled.matches(String(character)), "\(pattern)")
      #expect(RegexReference.matches(String(character), pattern: pattern) == true, "\(pattern)")
    }
  }
}
