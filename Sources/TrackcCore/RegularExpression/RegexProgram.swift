/// A Thompson NFA: instructions that consume one scalar from a set, split into two threads, or assert
/// the start or the end of the input; a thread that reaches `match` has found a match.
struct RegexProgram: Sendable {
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

  init(_ tree: RegexNode) {
    let match = append(.match)
    start = emit(tree, next: match)
    setIndex = [:]
  }

  /// The number of instructions `tree` compiles to, or `limit + 1` if it is more than `limit`.
  static func size(of tree: RegexNode, limit: Int) -> Int {
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
  private mutating func emit(_ tree: RegexNode, next: Int32) -> Int32 {
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
  func closure(of seeds: [Int32], atStart: Bool, atEnd: Bool, scratch: inout RegexScratch) -> (threads: [Int32], matched: Bool) {
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
  func step(_ threads: [Int32], on scalar: UInt32, scratch: inout RegexScratch) -> (threads: [Int32], matched: Bool) {
    var seeds: [Int32] = [start]
    for thread in threads {
      let index = Int(thread)
      if operations[index] == .consume && sets[Int(first[index])].contains(scalar) { seeds.append(second[index]) }
    }
    return closure(of: seeds, atStart: false, atEnd: false, scratch: &scratch)
  }

  /// Whether `threads`, at the end of a non-empty input, match: a thread waiting at `$` goes on.
  func acceptsAtEnd(_ threads: [Int32], scratch: inout RegexScratch) -> Bool {
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
struct RegexScratch {
  private var marks: [UInt32]
  private var generation: UInt32 = 0
  var stack: [Int32] = []
  /// Instructions visited, over every closure: the DFA's construction stops at a budget of them.
  private(set) var visits = 0

  /// Counts work that visits no instruction but grows with a state's threads: scanning and hashing them.
  mutating func charge(_ work: Int) {
    visits &+= work
  }

  init(_ program: RegexProgram) {
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
