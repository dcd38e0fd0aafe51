/// The NFA's ASCII transitions as a DFA, built by subset construction when the pattern is compiled, up
/// to `maxStates` states and `workBudget` instructions visited (a pattern such as `(a|b)*a(a|b){20}` has
/// millions of states; it gets the first ones, and the NFA runs past them). ASCII is split into the
/// classes no set of the program tells apart, so a state has a transition per class, not per byte.
struct RegexDFA: Sendable {
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

  init(_ program: RegexProgram, maxStates: Int = Self.maxStates, scratch: inout RegexScratch) {
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

  private mutating func add(_ threads: [Int32], program: RegexProgram, scratch: inout RegexScratch) -> Int32 {
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
