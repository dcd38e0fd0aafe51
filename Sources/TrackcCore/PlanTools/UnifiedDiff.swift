/// A unified diff of two texts (`diff -u`, `git diff`): what `trackc lint --fix --dry-run` prints.
public enum UnifiedDiff {
  /// The diff of `old` and `new`, labelled `a/<path>` and `b/<path>`, with `context` lines around each
  /// change; empty when they are equal. A last line without a line break is marked as `diff` marks it.
  public static func render(old: [UInt8], new: [UInt8], path: String, context: Int = 3) -> String {
    guard old != new else { return "" }
    let a = lines(old)
    let b = lines(new)
    let script = editScript(a.map { old[$0] }, b.map { new[$0] })
    var output = "--- a/\(path)\n+++ b/\(path)\n"
    // Group the changes into hunks: changes less than 2 * context lines apart share one.
    var index = 0
    while index < script.count {
      guard script[index].kind != .same else {
        index += 1
        continue
      }
      var end = index
      var lastChange = index
      while end < script.count {
        if script[end].kind != .same { lastChange = end }
        if end - lastChange > 2 * context { break }
        end += 1
      }
      let first = max(0, index - context)
      let last = min(script.count, lastChange + context + 1)
      let hunk = script[first..<last]
      let oldStart = hunk.first!.oldLine
      let newStart = hunk.first!.newLine
      let oldCount = hunk.count { $0.kind != .inserted }
      let newCount = hunk.count { $0.kind != .deleted }
      output += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
      for step in hunk {
        switch step.kind {
        case .same: output += " " + text(a[step.oldLine], old)
        case .deleted: output += "-" + text(a[step.oldLine], old)
        case .inserted: output += "+" + text(b[step.newLine], new)
        }
      }
      index = last
    }
    return output
  }

  private static func range(_ start: Int, _ count: Int) -> String {
    // `diff` numbers an empty range by the line before it.
    count == 0 ? "\(start),0" : (count == 1 ? "\(start + 1)" : "\(start + 1),\(count)")
  }

  private static func text(_ line: Range<Int>, _ bytes: [UInt8]) -> String {
    let content = String(decoding: bytes[line], as: UTF8.self)
    return line.upperBound == bytes.count && bytes.last != 0x0A ? content + "\n\\ No newline at end of file\n" : content
  }

  /// Each line's bytes, its line break included.
  private static func lines(_ bytes: [UInt8]) -> [Range<Int>] {
    var lines: [Range<Int>] = []
    var start = 0
    for (index, byte) in bytes.enumerated() where byte == 0x0A {
      lines.append(start..<(index + 1))
      start = index + 1
    }
    if start < bytes.count { lines.append(start..<bytes.count) }
    return lines
  }

  private typealias LineText = ArraySlice<UInt8>

  private enum Kind { case same, deleted, inserted }

  private struct Step {
    var kind: Kind
    /// 0-based lines (of the old and new text) at this step.
    var oldLine: Int
    var newLine: Int
  }

  /// The shortest edit script (Myers' algorithm), after the common head and tail are set aside: a fix
  /// changes a few lines of a long file, so what is left to compare is small.
  private static func editScript(_ a: [LineText], _ b: [LineText]) -> [Step] {
    var head = 0
    while head < a.count, head < b.count, a[head] == b[head] { head += 1 }
    var tail = 0
    while tail < a.count - head, tail < b.count - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
    let x = Array(a[head..<(a.count - tail)])
    let y = Array(b[head..<(b.count - tail)])
    var steps: [Step] = (0..<head).map { Step(kind: .same, oldLine: $0, newLine: $0) }
    for step in myers(x, y) {
      steps.append(Step(kind: step.kind, oldLine: step.oldLine + head, newLine: step.newLine + head))
    }
    for offset in 0..<tail {
      steps.append(Step(kind: .same, oldLine: a.count - tail + offset, newLine: b.count - tail + offset))
    }
    return steps
  }

  private static func myers(_ a: [LineText], _ b: [LineText]) -> [Step] {
    let n = a.count
    let m = b.count
    let maximum = n + m
    guard maximum > 0 else { return [] }
    var frontier = [Int](repeating: 0, count: 2 * maximum + 2)
    var trace: [[Int]] = []
    var found = false
    for d in 0...maximum {
      trace.append(frontier)
      for k in stride(from: -d, through: d, by: 2) {
        var x =
          (k == -d || (k != d && frontier[k - 1 + maximum] < frontier[k + 1 + maximum])) ? frontier[k + 1 + maximum] : frontier[k - 1 + maximum] + 1
        var y = x - k
        while x < n, y < m, a[x] == b[y] {
          x += 1
          y += 1
        }
        frontier[k + maximum] = x
        if x >= n && y >= m {
          found = true
          break
        }
      }
      if found { break }
    }
    // Walk back through the frontiers to recover the steps.
    var steps: [Step] = []
    var x = n
    var y = m
    for d in stride(from: trace.count - 1, through: 0, by: -1) {
      let v = trace[d]
      let k = x - y
      let previousK = (k == -d || (k != d && v[k - 1 + maximum] < v[k + 1 + maximum])) ? k + 1 : k - 1
      let previousX = d == 0 ? 0 : v[previousK + maximum]
      let previousY = previousX - previousK
      while x > previousX && y > previousY {
        x -= 1
        y -= 1
        steps.append(Step(kind: .same, oldLine: x, newLine: y))
      }
      if d > 0 {
        if x == previousX {
          steps.append(Step(kind: .inserted, oldLine: x, newLine: previousY))
        } else {
          steps.append(Step(kind: .deleted, oldLine: previousX, newLine: y))
        }
      }
      x = previousX
      y = previousY
    }
    return steps.reversed()
  }
}
