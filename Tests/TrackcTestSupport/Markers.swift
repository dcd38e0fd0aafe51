import TrackcCore

/// swift-format-style position markers: `1️⃣`...`9️⃣` in an example stand for the positions where a
/// finding is expected, and are removed before the text is linted.
public enum Markers {
  public static let symbols = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]

  /// The text without markers, and the positions of the markers in order of their number.
  public static func extract(from marked: String) -> (text: String, positions: [SourcePosition]) {
    var text = ""
    var found: [(number: Int, position: SourcePosition)] = []
    var line = 1
    var column = 1
    var rest = Substring(marked)
    outer: while let character = rest.first {
      for (index, symbol) in symbols.enumerated() where rest.hasPrefix(symbol) {
        found.append((index, SourcePosition(line: line, column: column)))
        rest = rest.dropFirst(symbol.count)
        continue outer
      }
      text.append(character)
      for scalar in character.unicodeScalars {
        if scalar == "\n" {
          line += 1
          column = 1
        } else {
          column += 1
        }
      }
      rest = rest.dropFirst()
    }
    return (text, found.sorted { $0.number < $1.number }.map(\.position))
  }
}
