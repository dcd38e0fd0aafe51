import TrackcTestSupport

/// Random YAML documents of the kind a config is, and then some: block and flow collections nested a few
/// levels, scalars in every style with escapes and non-ASCII text, comments, blank lines, anchors and
/// aliases, CRLF line breaks, a byte order mark, no final line break. Keys are unique and there are no
/// tags or merge keys, so that what libyaml reads, trackc reads too.
enum YAMLDocumentGenerator {
  static func document(using random: inout SeededRandom) -> [UInt8] {
    var writer = Writer()
    writer.blockMapping(indent: 0, depth: 0, using: &random)
    var text = writer.lines.joined(separator: "\n") + "\n"
    if random.chance(0.2) { text.removeLast() }
    if random.chance(0.2) { text = text.replacingOccurrences(of: "\n", with: "\r\n") }
    return (random.chance(0.1) ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
  }

  private struct Writer {
    var lines: [String] = []
    var anchors: [String] = []
    var anchorCount = 0

    static let maxDepth = 4

    // MARK: Block collections

    mutating func blockMapping(indent: Int, depth: Int, using random: inout SeededRandom) {
      let pad = String(repeating: " ", count: indent)
      var keys = Set<String>()
      for _ in 0..<Int.random(in: 1...(depth == 0 ? 8 : 4), using: &random) {
        var key = Writer.plainWord(using: &random)
        while !keys.insert(key).inserted { key += "x" }
        if random.chance(0.1) { lines.append(random.chance(0.5) ? "" : pad + "# " + Writer.plainWord(using: &random)) }
        if random.chance(0.15) && depth < Self.maxDepth {
          lines.append(pad + key + ":" + anchor(using: &random) + comment(using: &random))
          if random.chance(0.5) {
            blockMapping(indent: indent + Int.random(in: 1...3, using: &random), depth: depth + 1, using: &random)
          } else {
            // A block sequence may sit at the key's own indentation.
            blockSequence(indent: indent + Int.random(in: 0...2, using: &random), depth: depth + 1, using: &random)
          }
        } else if random.chance(0.1) {
          blockScalar(after: pad + key + ": ", indent: indent + 2, using: &random)
        } else {
          lines.append(pad + key + ": " + inlineValue(depth: depth, using: &random) + comment(using: &random))
        }
      }
    }

    mutating func blockSequence(indent: Int, depth: Int, using random: inout SeededRandom) {
      let pad = String(repeating: " ", count: indent)
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        if random.chance(0.2) && depth < Self.maxDepth {
          lines.append(pad + "-")
          blockMapping(indent: indent + 2, depth: depth + 1, using: &random)
        } else {
          lines.append(pad + "- " + inlineValue(depth: depth, using: &random) + comment(using: &random))
        }
      }
    }

    mutating func blockScalar(after prefix: String, indent: Int, using random: inout SeededRandom) {
      lines.append(prefix + random.pick(["|", "|-", "|+", ">", ">-", ">+"]))
      let pad = String(repeating: " ", count: indent)
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        lines.append(random.chance(0.15) ? "" : pad + Writer.text(using: &random, avoiding: []))
      }
    }

    // MARK: Inline values

    mutating func inlineValue(depth: Int, using random: inout SeededRandom) -> String {
      if !anchors.isEmpty && random.chance(0.05) { return "*" + random.pick(anchors) }
      if depth < Self.maxDepth && random.chance(0.15) { return anchor(using: &random, trailing: " ") + flow(depth: depth + 1, using: &random) }
      return anchor(using: &random, trailing: " ") + scalar(inFlow: false, using: &random)
    }

    mutating func flow(depth: Int, using random: inout SeededRandom) -> String {
      let space = { (random: inout SeededRandom) in random.chance(0.5) ? " " : "" }
      var items: [String] = []
      if random.chance(0.5) {
        var keys = Set<String>()
        for _ in 0..<Int.random(in: 0...3, using: &random) {
          var key = Writer.plainWord(using: &random)
          while !keys.insert(key).inserted { key += "y" }
          items.append(key + ": " + flowValue(depth: depth, using: &random))
        }
        return "{" + space(&random) + items.joined(separator: "," + space(&random)) + space(&random) + "}"
      }
      for _ in 0..<Int.random(in: 0...3, using: &random) { items.append(flowValue(depth: depth, using: &random)) }
      return "[" + space(&random) + items.joined(separator: ", ") + space(&random) + "]"
    }

    mutating func flowValue(depth: Int, using random: inout SeededRandom) -> String {
      if depth < Self.maxDepth && random.chance(0.2) { return flow(depth: depth + 1, using: &random) }
      return scalar(inFlow: true, using: &random)
    }

    mutating func scalar(inFlow: Bool, using random: inout SeededRandom) -> String {
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<5:
        return Writer.text(using: &random, avoiding: inFlow ? [",", "[", "]", "{", "}"] : [])
      case 5..<7:
        return "'" + Writer.text(using: &random, avoiding: [], quotable: true).replacingOccurrences(of: "'", with: "''") + "'"
      default:
        var body = ""
        for _ in 0..<Int.random(in: 0...6, using: &random) {
          body += random.pick(["a", "Z", " ", "é", "🏠", "\\\"", "\\\\", "\\n", "\\t", "\\u00E9", "\\x41", "\\U0001F600", "#", ":", "'", "\\/"])
        }
        return "\"" + body + "\""
      }
    }

    mutating func anchor(using random: inout SeededRandom, trailing: String = "") -> String {
      guard random.chance(0.08) else { return "" }
      anchorCount += 1
      let name = "a\(anchorCount)"
      anchors.append(name)
      return (trailing.isEmpty ? " " : "") + "&" + name + trailing
    }

    mutating func comment(using random: inout SeededRandom) -> String {
      random.chance(0.1) ? " # " + Writer.text(using: &random, avoiding: []) : ""
    }

    // MARK: Words

    static let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ").map(String.init) + ["é", "ß", "中", "🏠", "Ω"]

    /// A plain word: letters, digits, `_`, `.` and `-` inside.
    static func plainWord(using random: inout SeededRandom) -> String {
      var word = random.pick(letters)
      for _ in 0..<Int.random(in: 0...6, using: &random) {
        word += random.pick(letters + ["0", "7", "_", ".", "-"])
      }
      return word
    }

    /// Words separated by single spaces, starting with a letter: a plain scalar (or, `quotable`, the
    /// inside of a single-quoted one, which may hold more).
    static func text(using random: inout SeededRandom, avoiding: Set<String>, quotable: Bool = false) -> String {
      var words = [plainWord(using: &random)]
      for _ in 0..<Int.random(in: 0...3, using: &random) {
        var word = plainWord(using: &random)
        if quotable && random.chance(0.3) { word += random.pick(["'", "\"", "\\", ": ", " #", ",", "[", "}"]) }
        words.append(word)
      }
      return words.joined(separator: " ").filter { !avoiding.contains(String($0)) }
    }
  }
}
