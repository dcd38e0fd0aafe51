/// An event ID pattern compiled for matching in time linear in the ID, whatever the pattern.
///
/// Swift's `Regex` backtracks, with no step limit and no way to cancel it: `^(a|a)*$` against thirty
/// `a`s and a `b` runs for minutes, and a config is input like any other. So patterns are matched as
/// RE2 and Go's `regexp` match them, without backtracking: the pattern (`PatternParser`'s subset) becomes
/// a Thompson NFA (`PatternProgram`), and an ID is matched by following every thread of it at once, one
/// Unicode scalar at a time, so the work per scalar is bounded by the program's size. To make the usual
/// case cheap, a DFA over ASCII is built from the NFA when the pattern is compiled, up to a fixed number
/// of states and a fixed amount of work (`PatternDFA`); an ID of ASCII then costs one table look-up per
/// byte, and whatever the DFA does not cover (scalars past ASCII, states past its limit) is simulated on
/// the NFA. None of the libraries trackc depends on matches in linear time, so this is trackc's own.
///
/// Answers are those of `Regex` under Unicode-scalar semantics (a property test compares the two on
/// generated patterns and IDs): a match may be anywhere unless anchored, `$` matches only at the very
/// end, and `.` and classes match one scalar.
struct LinearPattern: Sendable {
  /// Programs with more instructions than this are refused; with `PatternParser.maxRepetition`, this
  /// bounds a match's work per scalar of the ID.
  static let maxProgramSize = 10_000

  private let program: PatternProgram
  private let dfa: PatternDFA
  /// Whether the empty ID matches (the one case where `^` and `$` hold at the same place).
  private let matchesEmpty: Bool

  /// `maxDFAStates` is for tests, to run the NFA alone (1) or mostly.
  static func compile(_ source: String, maxDFAStates: Int = PatternDFA.maxStates) throws(PatternSyntaxError) -> LinearPattern {
    let tree = try PatternParser.parse(source)
    let size = PatternProgram.size(of: tree, limit: maxProgramSize)
    guard size <= maxProgramSize else {
      throw PatternSyntaxError(
        kind: .tooLarge,
        detail: "it compiles to more than \(NumberText.grouped(maxProgramSize)) instructions (repetitions multiply: '(a{100}){100}' is 10,000)")
    }
    let program = PatternProgram(tree)
    var scratch = PatternScratch(program)
    let matchesEmpty = program.closure(of: [program.start], atStart: true, atEnd: true, scratch: &scratch).matched
    let dfa = PatternDFA(program, maxStates: maxDFAStates, scratch: &scratch)
    return LinearPattern(program: program, dfa: dfa, matchesEmpty: matchesEmpty)
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
    var scratch: PatternScratch? = nil
    defer { if let scratch { budget -= scratch.visits } }
    return dfa.transitions.withUnsafeBufferPointer { transitions in
      dfa.flags.withUnsafeBufferPointer { flags in
        dfa.classOfASCII.withUnsafeBufferPointer { classOfASCII in
          let classCount = dfa.classCount
          var state = 0
          var threads: [Int32]? = nil  // set while the NFA runs instead of the DFA
          if flags[0] & PatternDFA.accepting != 0 { return true }
          if flags[0] & PatternDFA.dead != 0 { return false }
          var index = 0
          while index < bytes.count {
            let byte = bytes[index]
            if threads == nil && byte < 0x80 {
              let next = transitions[state &* classCount &+ Int(classOfASCII[Int(byte)])]
              if next >= 0 {
                state = Int(next)
                index &+= 1
                let stateFlags = flags[state]
                if stateFlags & (PatternDFA.accepting | PatternDFA.dead) != 0 { return stateFlags & PatternDFA.accepting != 0 }
                continue
              }
            }
            let (scalar, length) = Self.decode(bytes, at: index)
            index += length
            if scratch == nil { scratch = PatternScratch(program) }
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
          guard let threads else { return flags[state] & PatternDFA.acceptsAtEnd != 0 }
          if scratch == nil { scratch = PatternScratch(program) }
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

/// A Thompson NFA: instructions that consume one scalar from a set, split into two threads, or assert
/// the start or the end of the input; a thread that reaches `match` has found a match.
struct PatternProgram: Sendable {
  enum Operation: UInt8, Sendable {
    /// `first`: the set; `second`: the next instruction.
    case consume
    /// `first` and `second`: the two next instructions.
    case split
    /// `first`: the next instruction, when at the start.
    case assertStart
    /// `first`: the next instruction, when at the end.
    case assertEnd
    case match
  }

  private(set) var operations: [Operation] = []
  private(set) var first: [Int32] = []
  private(set) var second: [Int32] = []
  private(set) var sets: [ScalarSet] = []
  private(set) var start: Int32 = 0
  private var setIndex: [ScalarSet: Int32] = [:]

  var count: Int { operations.count }

  init(_ tree: PatternNode) {
    let match = append(.match)
    start = emit(tree, next: match)
    setIndex = [:]
  }

  /// The number of instructions `tree` compiles to, or `limit + 1` if it is more than `limit`.
  static func size(of tree: PatternNode, limit: Int) -> Int {
    func capped(_ value: Int) -> Int { min(value, limit + 1) }
    switch tree {
    case .empty: return 0
    case .scalar, .startAnchor, .endAnchor: return 1
    case .sequence(let items): return items.reduce(0) { capped($0 + size(of: $1, limit: limit)) }
    case .alternation(let branches): return branches.reduce(branches.count - 1) { capped($0 + size(of: $1, limit: limit)) }
    case .repetition(let body, let minimum, let maximum):
      let one = size(of: body, limit: limit)
      guard let maximum else { return capped(minimum == 0 ? one + 1 : minimum * one + 1) }
      return capped(minimum * one + (maximum - minimum) * (one + 1))
    }
  }

  private mutating func append(_ operation: Operation, _ first: Int32 = -1, _ second: Int32 = -1) -> Int32 {
    operations.append(operation)
    self.first.append(first)
    self.second.append(second)
    return Int32(operations.count - 1)
  }

  /// Compiles `tree` to run before the instruction `next`, returning its first instruction (built from
  /// the end backwards, so every continuation is known when it is needed).
  private mutating func emit(_ tree: PatternNode, next: Int32) -> Int32 {
    switch tree {
    case .empty:
      return next
    case .scalar(let set):
      let index: Int32
      if let known = setIndex[set] {
        index = known
      } else {
        index = Int32(sets.count)
        sets.append(set)
        setIndex[set] = index
      }
      return append(.consume, index, next)
    case .startAnchor:
      return append(.assertStart, next)
    case .endAnchor:
      return append(.assertEnd, next)
    case .sequence(let items):
      var entry = next
      for item in items.reversed() { entry = emit(item, next: entry) }
      return entry
    case .alternation(let branches):
      let entries = branches.map { emit($0, next: next) }
      var entry = entries[entries.count - 1]
      for branch in entries.dropLast().reversed() { entry = append(.split, branch, entry) }
      return entry
    case .repetition(let body, let minimum, let maximum):
      var entry = next
      var mandatory = minimum
      if let maximum {
        // x{0,k} as (x(x(x)?)?)?: each optional copy skips straight to what follows.
        for _ in 0..<(maximum - minimum) { entry = append(.split, emit(body, next: entry), next) }
      } else {
        let loop = append(.split, -1, next)
        let bodyEntry = emit(body, next: loop)
        first[Int(loop)] = bodyEntry
        if minimum > 0 {
          entry = bodyEntry  // x+ is x followed by the loop back to x
          mandatory -= 1
        } else {
          entry = loop
        }
      }
      for _ in 0..<mandatory { entry = emit(body, next: entry) }
      return entry
    }
  }

  /// The threads `seeds` stand for, followed through splits and assertions to the instructions that
  /// consume a scalar, wait for the end (`$` before it), or match: sorted, so equal sets are equal arrays.
  func closure(of seeds: [Int32], atStart: Bool, atEnd: Bool, scratch: inout PatternScratch) -> (threads: [Int32], matched: Bool) {
    var threads: [Int32] = []
    var matched = false
    scratch.beginVisit()
    scratch.stack.append(contentsOf: seeds)
    while let instruction = scratch.stack.popLast() {
      let index = Int(instruction)
      guard scratch.visit(index) else { continue }
      switch operations[index] {
      case .consume:
        threads.append(instruction)
      case .split:
        scratch.stack.append(second[index])
        scratch.stack.append(first[index])
      case .assertStart:
        if atStart { scratch.stack.append(first[index]) }
      case .assertEnd:
        if atEnd { scratch.stack.append(first[index]) } else { threads.append(instruction) }
      case .match:
        threads.append(instruction)
        matched = true
      }
    }
    threads.sort()
    return (threads, matched)
  }

  /// The threads after `scalar`, past the start of the input: those of `threads` whose set holds it
  /// move on, and a new thread starts (the pattern may match anywhere).
  func step(_ threads: [Int32], on scalar: UInt32, scratch: inout PatternScratch) -> (threads: [Int32], matched: Bool) {
    var seeds: [Int32] = [start]
    for thread in threads {
      let index = Int(thread)
      if operations[index] == .consume && sets[Int(first[index])].contains(scalar) { seeds.append(second[index]) }
    }
    return closure(of: seeds, atStart: false, atEnd: false, scratch: &scratch)
  }

  /// Whether `threads`, at the end of a non-empty input, match: a thread waiting at `$` goes on.
  func acceptsAtEnd(_ threads: [Int32], scratch: inout PatternScratch) -> Bool {
    var seeds: [Int32] = []
    for thread in threads {
      switch operations[Int(thread)] {
      case .match: return true
      case .assertEnd: seeds.append(first[Int(thread)])
      default: break
      }
    }
    return !seeds.isEmpty && closure(of: seeds, atStart: false, atEnd: true, scratch: &scratch).matched
  }
}

/// A closure's working memory: a visit mark per instruction (a generation number, so that starting a
/// closure costs nothing) and a stack.
struct PatternScratch {
  private var marks: [UInt32]
  private var generation: UInt32 = 0
  var stack: [Int32] = []
  /// Instructions visited, over every closure: the DFA's construction stops at a budget of them.
  private(set) var visits = 0

  /// Counts work that visits no instruction but grows with a state's threads: scanning and hashing them.
  mutating func charge(_ work: Int) {
    visits &+= work
  }

  init(_ program: PatternProgram) {
    marks = [UInt32](repeating: 0, count: program.count)
  }

  mutating func beginVisit() {
    generation &+= 1
    if generation == 0 {
      for index in marks.indices { marks[index] = 0 }
      generation = 1
    }
    stack.removeAll(keepingCapacity: true)
  }

  /// False if `index` was visited already in this closure.
  mutating func visit(_ index: Int) -> Bool {
    guard marks[index] != generation else { return false }
    marks[index] = generation
    visits &+= 1
    return true
  }
}

/// The NFA's ASCII transitions as a DFA, built by subset construction when the pattern is compiled, up
/// to `maxStates` states and `workBudget` instructions visited (a pattern such as `(a|b)*a(a|b){20}` has
/// millions of states; it gets the first ones, and the NFA runs past them). ASCII is split into the
/// classes no set of the program tells apart, so a state has a transition per class, not per byte.
struct PatternDFA: Sendable {
  static let maxStates = 1_000
  static let workBudget = 1_000_000

  static let accepting: UInt8 = 1
  static let dead: UInt8 = 2
  static let acceptsAtEnd: UInt8 = 4

  let classOfASCII: [UInt8]
  let classCount: Int
  /// `state * classCount + class`: the next state, or -1 where the DFA was not built.
  private(set) var transitions: [Int32] = []
  private(set) var flags: [UInt8] = []
  /// Each state's NFA threads (sorted), and the state of each such set.
  private(set) var kernels: [[Int32]] = []
  private(set) var index: [[Int32]: Int32] = [:]

  init(_ program: PatternProgram, maxStates: Int = Self.maxStates, scratch: inout PatternScratch) {
    (classOfASCII, classCount) = Self.asciiClasses(program.sets)
    var representative = [UInt32](repeating: 0, count: classCount)
    for byte in (0..<128).reversed() { representative[Int(classOfASCII[byte])] = UInt32(byte) }

    let budget = scratch.visits + Self.workBudget
    let initial = program.closure(of: [program.start], atStart: true, atEnd: false, scratch: &scratch)
    _ = add(initial.threads, program: program, scratch: &scratch)
    var state = 0
    while state < kernels.count && scratch.visits < budget {
      if flags[state] & (Self.accepting | Self.dead) == 0 {
        for symbol in 0..<classCount where scratch.visits < budget {
          let next = program.step(kernels[state], on: representative[symbol], scratch: &scratch)
          // A step scans every thread of the state, and looking the next set up hashes every thread of
          // it, neither of which visits an instruction: a pattern such as `x{1,1000}` has states of a
          // thousand threads, and without this charge its construction took 120 ms in release (1.5 s
          // under ASan: found by the `names` fuzz target) while its visits stayed under the budget.
          scratch.charge(kernels[state].count + next.threads.count)
          if let known = index[next.threads] {
            transitions[state * classCount + symbol] = known
          } else if kernels.count < maxStates {
            transitions[state * classCount + symbol] = add(next.threads, program: program, scratch: &scratch)
          }
        }
      }
      state += 1
    }
  }

  private mutating func add(_ threads: [Int32], program: PatternProgram, scratch: inout PatternScratch) -> Int32 {
    let state = Int32(kernels.count)
    var stateFlags: UInt8 = 0
    if threads.contains(where: { program.operations[Int($0)] == .match }) { stateFlags |= Self.accepting }
    if threads.isEmpty { stateFlags |= Self.dead }
    if program.acceptsAtEnd(threads, scratch: &scratch) { stateFlags |= Self.acceptsAtEnd }
    kernels.append(threads)
    flags.append(stateFlags)
    index[threads] = state
    transitions.append(contentsOf: repeatElement(-1, count: classCount))
    return state
  }

  /// Splits the 128 ASCII scalars into the classes that every set of the program either holds whole or
  /// not at all.
  private static func asciiClasses(_ sets: [ScalarSet]) -> ([UInt8], Int) {
    var classOf = [Int](repeating: 0, count: 128)
    var count = 1
    var seen = Set<[UInt64]>()
    for set in sets where seen.insert([set.asciiLow, set.asciiHigh]).inserted {
      var inside = [Bool](repeating: false, count: count)
      var outside = [Bool](repeating: false, count: count)
      for byte in 0..<128 {
        if set.contains(UInt32(byte)) { inside[classOf[byte]] = true } else { outside[classOf[byte]] = true }
      }
      var split = [Int](repeating: -1, count: count)
      for symbol in 0..<split.count where inside[symbol] && outside[symbol] {
        split[symbol] = count
        count += 1
      }
      for byte in 0..<128 where set.contains(UInt32(byte)) && split[classOf[byte]] >= 0 {
        classOf[byte] = split[classOf[byte]]
      }
    }
    return (classOf.map { UInt8($0) }, count)
  }
}
