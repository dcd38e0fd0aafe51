import Foundation
import Testing
import TrackcInvariants
import TrackcTestSupport

@testable import TrackcCore

/// Laws of names, on generated inputs (a failure names the seed that reproduces it).
@Suite struct NamePropertyTests {
  /// Plain names, always valid; and names whose validity is the parser's to decide (keywords, in
  /// backticks or not, and non-ASCII letters).
  static let plainWords = ["a", "onTap", "x1", "_x", "open", "item", "at", "onFavBtnPressed", "é", "café", "Ωmega"]
  static let otherWords = [
    "default", "`default`", "`class`", "init", "`init`", "self", "`self`", "`Type`", "`_`", "`var`", "in", "`in`", "`$0`", "for", "`for`", "Self",
    "`Any`", "_",
  ]

  /// Parse, print, parse: the canonical spelling parses to the same name. A name built only from plain
  /// words must parse, to the canonical spelling written without its spaces.
  @Test func handlerNamesRoundTrip() {
    var checked = 0
    for index in 0..<2_000 {
      let seed = SeededRandom.baseSeed &+ UInt64(index)
      var random = SeededRandom(seed: seed)
      let plain = random.chance(0.5)
      let words = plain ? Self.plainWords : Self.plainWords + Self.otherWords
      let (text, canonical) = Self.handlerName(using: &random, words: words)
      let violations = Invariants.handlerNameViolations(text)
      #expect(violations == [], "seed \(seed): \(text.debugDescription)")
      guard plain else { continue }
      checked += 1
      switch HandlerName.parse(text) {
      case .success(let name): #expect(name.canonical == canonical, "seed \(seed): \(text.debugDescription)")
      case .failure(let error): Issue.record("seed \(seed): \(text.debugDescription) does not parse: \(error.message)")
      }
    }
    #expect(checked > 500)
  }

  /// A handler name in one of the three forms, with spaces where a Swift name allows them; and its
  /// canonical spelling (no spaces, no backticks).
  static func handlerName(using random: inout SeededRandom, words: [String]) -> (text: String, canonical: String) {
    let base = random.pick(words)
    let space = { (random: inout SeededRandom) in random.chance(0.3) ? " " : "" }
    let text: String
    let written: String
    switch Int.random(in: 0..<3, using: &random) {
    case 0:
      let labels = (0..<Int.random(in: 0...3, using: &random)).map { _ in random.chance(0.3) ? "_" : random.pick(words) }
      text = base + "(" + labels.map { space(&random) + $0 + space(&random) + ":" + space(&random) }.joined() + ")"
      written = base + "(" + labels.map { $0 + ":" }.joined() + ")"
    case 1:
      let pieces = [base] + (0..<Int.random(in: 0...2, using: &random)).map { _ in random.chance(0.2) ? "" : random.pick(words) }
      text = pieces.joined(separator: ":") + ":"
      written = text
    default:
      text = base
      written = base
    }
    return (text, written.filter { $0 != "`" })
  }

  /// Identifier derivation (`SwiftSource.identifier(fromEventID:)`) is injective on the event IDs of a
  /// config, or `trackc generate` reports the collision: two IDs with one identifier are an error, and
  /// without an error every ID has its own identifier, a Swift name the generated code parses with.
  @Test func eventIdentifiersAreDistinctOrTheCollisionIsReported() {
    // Few letters, in both cases, and the separators and words derivation treats specially: collisions
    // are common, so both sides of the law are exercised.
    let alphabet = ["A", "a", "B", "_", ".", "-", " ", "1", "é", "É", "default", "rawValue", "self", "Type", "u", "E9", "c9"]
    let count = 200
    var collisions = 0
    for index in 0..<count {
      let seed = SeededRandom.baseSeed &+ UInt64(index)
      var random = SeededRandom(seed: seed)
      var ids = Set<String>()
      let size = Int.random(in: 3...8, using: &random)
      while ids.count < size {
        let id = (0..<Int.random(in: 1...2, using: &random)).map { _ in random.pick(alphabet) }.joined()
        if id.trimmingCharacters(in: .whitespaces) == id { ids.insert(id) }
      }
      let ordered = ids.sorted()
      var yaml = "version: 1\nconventions: {event_id_pattern: '.'}\nscreens:\n"
      for (number, pair) in stride(from: 0, to: ordered.count, by: 2).enumerated() {
        yaml += "  S\(number):\n    page_events: {enter: \(quoted(ordered[pair]))"
        yaml += pair + 1 < ordered.count ? ", leave: \(quoted(ordered[pair + 1]))}\n" : "}\n"
      }
      let lint = Invariants.lint(Array(yaml.utf8), code: nil)
      #expect(!lint.diagnostics.hasErrors, "seed \(seed): \(lint.diagnostics.map(\.message))")
      let identifiers = Dictionary(grouping: ordered, by: SwiftSource.identifier(fromEventID:))
      let collide = identifiers.values.contains { $0.count > 1 }
      let result = Generator.generate(lint, options: Generator.Options(configFileName: "tracking.yaml"))
      let reported = result.diagnostics.contains { $0.ruleID == EventIdentifierCollisionRule.id }
      #expect(collide == reported, "seed \(seed): identifiers \(identifiers), reported: \(reported)")
      if collide {
        collisions += 1
      } else if index % 4 == 0 {
        // Parsing the generated code is the slow part: a quarter of the sets is enough.
        #expect(Invariants.generatedCodeViolations(lint) == [], "seed \(seed): \(ordered)")
      }
    }
    #expect(collisions > count / 10 && collisions < count * 9 / 10, "\(collisions) of \(count) sets collide")
  }

  func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }
}
