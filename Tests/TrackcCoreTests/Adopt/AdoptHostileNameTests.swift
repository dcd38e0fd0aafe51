import Testing

@testable import TrackcCore

/// Names and property keys from the code reach the plan as YAML scalars that mean exactly them: no
/// string in a call can add a key, end a mapping, or change a value's type.
@Suite struct AdoptHostileNameTests {
  static let hostile = [
    "a: b", "x\n  wire_name: evil", "#comment", "- item", "{a: 1}", "\"quoted\"", "'single'", "true", "null", "0x1F", "12", "",
    "tab\there", "back\\slash", "\u{2028}line", "\u{FEFF}bom", "ünï", "&anchor", "*alias", "!tag", "%directive", "@at", "`tick`", "? key",
    "emoji 🎉", "\u{7F}", "a\rb", "   spaced   ",
  ]

  /// The scalar the writer gives a string, read back by the plan's YAML parser.
  @Test(arguments: hostile) func scalarsReadBackAsThemselves(_ text: String) throws {
    let yaml = "key: " + YAMLText.scalar(text) + "\n"
    let parsed = YAMLParser.parse(Array(yaml.utf8))
    let document = try #require(parsed.document)
    let root = try #require(document.root)
    #expect(document.pairs(root).count == 1)
    let pair = try #require(document.pairs(root).first)
    #expect(document.value(pair.value) == .string(text))
  }

  /// A fixture whose event names and property keys are hostile: the plan has one event per call, with
  /// exactly those names and keys.
  @Test func hostileNamesInCallsStayStrings() throws {
    let calls = Self.hostile.enumerated().map { index, name in
      let literal = TextEscaping.swiftStringLiteral(name)
      return "  @objc func on\(index)(_ s: Any) { analytics.track(name: \(literal), properties: [\(literal): \(literal)]) }"
    }
    let text = "class HostileViewController: UIViewController {\n" + calls.joined(separator: "\n") + "\n}\n"
    let result = AdoptTests.adopt([("Sources/App/Hostile.swift", text)])
    #expect(result.calls.map(\.name.name) == Self.hostile.map { Optional($0) })
    let parsed = YAMLParser.parse(Array(result.plan.utf8))
    let document = try #require(parsed.document)
    var strings: [String] = []
    func walk(_ node: YAMLNodeID) {
      switch document.value(node) {
      case .mapping:
        for pair in document.pairs(node) {
          walk(pair.key)
          walk(pair.value)
        }
      case .sequence: for item in document.items(node) { walk(item) }
      case .string(let text): strings.append(text)
      default: break
      }
    }
    walk(try #require(document.root))
    for event in result.events {
      #expect(strings.contains(event.wireName) || event.wireName == event.eventID)
      for property in event.properties { #expect(strings.contains(property.key)) }
    }
    #expect(result.events.count + result.diagnostics.count(where: { $0.ruleID.hasPrefix("adopt-") }) == Self.hostile.count)
  }
}
