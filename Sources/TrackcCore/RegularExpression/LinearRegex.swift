// A regular-expression engine of trackc's own, for `conventions.event_id_pattern`. Why not Swift's
// `Regex` (or NSRegularExpression): both backtrack, with no step limit and no way to cancel a match, and
// a config is input like any other: `^(a|a)*$` against thirty `a`s and a `b` runs for minutes, so one
// line of YAML could hang `trackc lint` in an editor or in CI. None of the libraries trackc depends on
// matches in linear time. This engine does, as RE2 and Go's `regexp` do: a pattern is read by
// `RegexParser` (the part of `Regex`'s and ECMAScript's common syntax that can be matched so; anything
// else is refused by name), compiled to a Thompson NFA (`RegexProgram`) whose threads are followed all at
// once, one Unicode scalar at a time, with a DFA over ASCII built in front of it (`RegexDFA`) so that the
// usual ID costs a table look-up per byte. Its answers are `Regex`'s under Unicode-scalar semantics,
// which `LinearRegexPropertyTests` checks on generated patterns and IDs.

/// A regular expression compiled for matching in time linear in the input, whatever the pattern.
///
/// The work per scalar of the input is bounded by the program's size. The DFA is built when the pattern
/// is compiled, up to a fixed number of states and a fixed amount of work; whatever it does not cover
/// (scalars past ASCII, states past its limit) is simulated on the NFA. A match may be anywhere unless
/// the pattern is anchored, `$` matches only at the very end, and `.` and classes match one scalar.
struct LinearRegex: Sendable {
  /// Programs with more instructions than this are refused; with `RegexParser.maxRepetition`, this
  /// bounds a match's work per scalar of the ID.
  static let maxProgramSize = 10_000

  private let program: RegexProgram
  private let dfa: RegexDFA
  /// Whether the empty ID matches (the one case where `^` and `$` hold at the same place).
  private let matchesEmpty: Bool

  /// `maxDFAStates` is for tests, to run the NFA alone (1) or mostly.
  static func compile(_ source: String, maxDFAStates: Int = RegexDFA.maxStates) throws(RegexSyntaxError) -> LinearRegex {
    let tree = try RegexParser.parse(source)
    let size = RegexProgram.size(of: tree, limit: maxProgramSize)
    guard size <= maxProgramSize else {
      throw RegexSyntaxError(
        kind: .tooLarge,
        detail: "it compiles to more than \(NumberText.grouped(maxProgramSize)) instructions (repetitions multiply: '(a{100}){100}' is 10,000)")
    }
    let program = RegexProgram(tree)
    var scratch = RegexScratch(program)
    let matchesEmpty = program.closure(of: [program.start], atStart: true, atEnd: true, scratch: &scratch).matched
    let dfa = RegexDFA(program, maxStates: maxDFAStates, scratch: &scratch)
    return LinearRegex(program: program, dfa: dfa, matchesEmpty: matchesEmpty)
  }

  func matches(_ id: String) -> Bool {
    var unlimited = Int.max
    return matches(id, budget: &unlimited)!
  }

  /// Whether `id` matches, or nil if simulating the NFA would visit more than `budget` instructions;
  /// `budget` is reduced by the instructions visited. Linear time is not fast enough on its own: a
  /// 10,000-instruction program the DFA cannot cover costs about 100 µs per scalar, so a hostile config
  /// of long IDs would take many minutes, and a caller matching many IDs shares one budget among them.
  func matches(_ id: String, budget: inout Int) -> Bool? {
    if let answer = id.utf8.withContiguousStorageIfAvailable({ matches(utf8: $0, budget: &budget) }) { return answer }
    return Array(id.utf8).withUnsafeBufferPointer { matches(utf8: $0, budget: &budget) }
  }

  /// Runs the DFA while it covers the input, and the NFA where it does not, returning to the DFA as soon
  /// as the NFA's threads are a state it knows.
  private func matches(utf8 bytes: UnsafeBufferPointer<UInt8>, budget: inout Int) -> Bool? {
    if bytes.isEmpty { return matchesEmpty }
    var scratch: RegexScratch? = nil
    defer { if let scratch { budget -= scratch.visits } }
    return dfa.transitions.withUnsafeBufferPointer { transitions in
      dfa.flags.withUnsafeBufferPointer { flags in
        dfa.classOfASCII.withUnsafeBufferPointer { classOfASCII in
          let classCount = dfa.classCount
          var state = 0
          var threads: [Int32]? = nil  // set while the NFA runs instead of the DFA
          if flags[0] & RegexDFA.accepting != 0 { return true }
          if flags[0] & RegexDFA.dead != 0 { return false }
          var index = 0
          while index < bytes.count {
            let byte = bytes[index]
            if threads == nil && byte < 0x80 {
              let next = transitions[state &* classCount &+ Int(classOfASCII[Int(byte)])]
              if next >= 0 {
                state = Int(next)
                index &+= 1
                let stateFlags = flags[state]
                if stateFlags & (RegexDFA.accepting | RegexDFA.dead) != 0 { return stateFlags & RegexDFA.accepting != 0 }
                continue
              }
            }
            let (scalar, length) = Self.decode(bytes, at: index)
            index += length
            if scratch == nil { scratch = RegexScratch(program) }
            let step = program.step(threads ?? dfa.kernels[state], on: scalar, scratch: &scratch!)
            if scratch!.visits > budget { return nil }
            if step.matched { return true }
            if step.threads.isEmpty { return false }
            if let known = dfa.index[step.threads] {
              state = Int(known)
              threads = nil
            } else {
              threads = step.threads
            }
          }
          guard let threads else { return flags[state] & RegexDFA.acceptsAtEnd != 0 }
          if scratch == nil { scratch = RegexScratch(program) }
          return program.acceptsAtEnd(threads, scratch: &scratch!)
        }
      }
    }
  }

  /// The scalar whose UTF-8 encoding starts at `index` (a `String`'s UTF-8 is valid; a truncated
  /// sequence, which cannot occur, reads as U+FFFD rather than trapping).
  private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
    let lead = UInt32(bytes[index])
    let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    guard index + length <= bytes.count else { return (0xFFFD, 1) }
    guard length > 1 else { return (lead, 1) }
    var value = lead & (0x7F >> UInt32(length))
    for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
    return (value, length)
  }
}
