import Testing
@testable import TrackcCore

@Suite struct YAMLParserTests {
  func parse(_ text: String, limits: YAMLLimits = YAMLLimits()) -> YAMLParseResult {
    YAMLParser.parse(Array(text.utf8), file: "test.yaml", limits: limits)
  }

  /// The pairs of a mapping as (key text, value node).
  func pairs(_ result: YAMLParseResult, _ node: YAMLNodeID?) -> [(String, YAMLNodeID)] {
    guard let document = result.document, let node else { return [] }
    return document.pairs(node).map { (document.text($0.key), $0.value) }
  }

  @Test func positionsAreOneBasedLinesAndColumns() throws {
    let result = parse("version: 1\nscreens:\n  Home:\n    page_events: {enter: HOME}\n")
    let document = try #require(result.document)
    let root = try #require(result.root)
    #expect(document.range(root).start == SourcePosition(line: 1, column: 1))
    let screens = try #require(pairs(result, root).first { $0.0 == "screens" }?.1)
    let home = try #require(document.pairs(screens).first)
    #expect(document.range(home.key).start == SourcePosition(line: 3, column: 3))
    #expect(document.range(home.key).end == SourcePosition(line: 3, column: 7))
    let pageEvents = try #require(document.pairs(home.value).first?.value)
    let enter = try #require(document.pairs(pageEvents).first)
    #expect(document.range(enter.key).start == SourcePosition(line: 4, column: 19))
    #expect(document.range(enter.value).start == SourcePosition(line: 4, column: 26))
  }

  @Test func columnsCountCharactersNotBytes() throws {
    // "é" is two bytes, "🛒" four; both are one character (one Unicode scalar) of column.
    let result = parse("café: {🛒: x, y: z}\n")
    let document = try #require(result.document)
    let inner = document.pairs(try #require(pairs(result, result.root).first?.1))
    #expect(document.range(inner[0].key).start == SourcePosition(line: 1, column: 8))
    #expect(document.range(inner[1].key).start == SourcePosition(line: 1, column: 14))
    #expect(document.text(inner[0].key) == "🛒")
  }

  /// Scalars written verbatim point into the input; the others are copied. Either way the text is
  /// the scalar's value, with or without a byte order mark, in ASCII and non-ASCII files.
  @Test(arguments: [[], [0xEF, 0xBB, 0xBF]] as [[UInt8]], ["", "# café\n"])
  func scalarTextIsTheValue(prefix: [UInt8], comment: String) throws {
    let text = comment + """
      plain: value
      single: 'it''s'
      double: "tab\\there"
      quoted: "verbatim"
      folded: first
        second
      block: |
        line
      """
    let result = YAMLParser.parse(prefix + Array(text.utf8), file: "t.yaml")
    #expect(result.diagnostics.isEmpty)
    let document = try #require(result.document)
    let values = pairs(result, result.root).map { document.text($0.1) }
    #expect(values == ["value", "it's", "tab\there", "verbatim", "first second", "line"])
  }

  @Test func byteOrderMarkAndCRLFLineEndings() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a: 1\r\nb: 2\r\n".utf8)
    let result = YAMLParser.parse(bytes, file: "crlf.yaml")
    let document = try #require(result.document)
    let second = try #require(pairs(result, result.root).last)
    #expect(document.range(second.1).start == SourcePosition(line: 2, column: 4))
    #expect(result.diagnostics.isEmpty)
  }

  @Test func duplicateKeyPointsAtSecondWithNoteAtFirst() throws {
    let result = parse("a: 1\nb: 2\na: 3\n")
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.ruleID == "duplicate-key")
    #expect(diagnostic.location.range.start == SourcePosition(line: 3, column: 1))
    #expect(diagnostic.notes.first?.location?.range.start == SourcePosition(line: 1, column: 1))
    // The first occurrence is kept.
    let document = try #require(result.document)
    #expect(pairs(result, result.root).map { $0.0 } == ["a", "b"])
    #expect(document.value(pairs(result, result.root)[0].1) == .int(1))
  }

  @Test func duplicateKeysInLargeMappingsUseTheIndex() throws {
    var text = (0..<40).map { "key\($0): \($0)" }.joined(separator: "\n")
    text += "\nkey7: again\nkey39: again\n"
    let result = parse(text)
    #expect(result.diagnostics.map(\.location.line) == [41, 42])
    #expect(result.diagnostics.compactMap(\.notes.first?.location?.line) == [8, 40])
    #expect(pairs(result, result.root).count == 40)
  }

  @Test func mergeKeysFollowYAMLSemantics() throws {
    let result = parse(
      """
      base: &base {a: 1, b: 2}
      other: &other {b: 20, c: 30}
      one: {<<: *base, b: 3}
      many: {<<: [*base, *other], d: 4}
      quoted: {"<<": literal}
      """)
    #expect(result.diagnostics.isEmpty)
    let document = try #require(result.document)
    let root = pairs(result, result.root)
    let one = pairs(result, root[2].1)
    #expect(one.map { $0.0 } == ["a", "b"])
    #expect(one.map { document.value($0.1) } == [.int(1), .int(3)])
    // Earlier mappings in the list win; keys written in the mapping win over all.
    let many = pairs(result, root[3].1)
    #expect(many.map { $0.0 } == ["a", "b", "c", "d"])
    #expect(many.map { document.value($0.1) } == [.int(1), .int(2), .int(30), .int(4)])
    // A merged pair keeps the position it was written at.
    #expect(document.range(many[0].1).start == SourcePosition(line: 1, column: 17))
    // A quoted "<<" is an ordinary key.
    #expect(pairs(result, root[4].1).map { $0.0 } == ["<<"])
  }

  @Test func mergeOfAScalarIsAnError() {
    let result = parse("a: {<<: 5}\n")
    #expect(result.diagnostics.map(\.ruleID) == ["yaml-merge-key"])
  }

  @Test func aliasesShareTheAnchoredNode() throws {
    let result = parse("a: &x [1, 2]\nb: *x\n")
    let root = pairs(result, result.root)
    #expect(root[0].1 == root[1].1)
    // 2 keys, the sequence, its 2 items, the root: an alias adds no node.
    #expect(result.document?.nodeCount == 6)
  }

  @Test func aliasBombIsRejectedAtTheAliasThatCrossesTheBudget() throws {
    var text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for (index, name) in ["b", "c", "d", "e", "f", "g", "h", "i"].enumerated() {
      let previous = index == 0 ? "a" : ["b", "c", "d", "e", "f", "g", "h", "i"][index - 1]
      text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
    }
    var limits = YAMLLimits()
    limits.maxAliasExpansion = 1_000
    let result = parse(text, limits: limits)
    #expect(result.failed)
    #expect(result.root == nil)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.ruleID == "yaml-alias")
    // a weighs 11 nodes and b 111, so the ninth '*b' on line 3 takes the expansion past 1,000.
    #expect(diagnostic.location.range.start == SourcePosition(line: 3, column: 40))
    #expect(diagnostic.notes.first?.location?.line == 2)
  }

  @Test func unknownAndRecursiveAliases() {
    #expect(parse("a: *nowhere\n").diagnostics.map(\.message) == ["alias '*nowhere' refers to no anchor; define '&nowhere' before using it"])
    #expect(parse("a: &x [1, *x]\n").diagnostics.first?.message.contains("recursive") == true)
  }

  @Test func nestingBeyondTheLimitStopsTheParse() throws {
    let depth = 10_000
    let text = "a: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
    let result = parse(text)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.ruleID == "yaml-nesting-depth")
    #expect(diagnostic.location.range.start == SourcePosition(line: 1, column: 4 + 99))
  }

  @Test func secondDocumentIsAnError() throws {
    let result = parse("a: 1\n---\nb: 2\n")
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.ruleID == "multiple-documents")
    #expect(diagnostic.location.range.start == SourcePosition(line: 2, column: 1))
  }

  @Test func emptyInputHasNoRoot() {
    #expect(parse("").root == nil)
    #expect(parse("# only a comment\n").root == nil)
    #expect(parse("").diagnostics.isEmpty)
  }

  @Test func encodingProblemsAreReportedAtTheBadByte() throws {
    let latin1: [UInt8] = Array("a: 1\nb: caf".utf8) + [0xE9, 0x0A]
    let result = YAMLParser.parse(latin1, file: "latin1.yaml")
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.ruleID == "yaml-encoding")
    #expect(diagnostic.location.range.start == SourcePosition(line: 2, column: 7))
    let utf16 = YAMLParser.parse([0xFE, 0xFF, 0x00, 0x61], file: "utf16.yaml")
    #expect(utf16.diagnostics.first?.message.contains("UTF-16") == true)
  }

  /// Found by fuzzing: libyaml (YAML 1.1) breaks lines at NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR,
  /// editors do not, so every position after one was a line off (and a comment could end early). They are
  /// refused where they stand; escaped in a double-quoted string they are ordinary characters.
  @Test(arguments: ["\u{85}", "\u{2028}", "\u{2029}"])
  func yaml11LineBreaksAreRefusedWhereTheyAre(separator: String) throws {
    let result = parse("version: 1\n# a note\(separator)screens: {}\n")
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.ruleID == "yaml-encoding")
    #expect(diagnostic.location.range.start == SourcePosition(line: 2, column: 9))
    #expect(result.root == nil)
    let escaped = parse("a: \"x\\u2028y\\u0085z\"\n")
    #expect(escaped.diagnostics.isEmpty)
    #expect(escaped.document.map { $0.text($0.pairs($0.root!)[0].value) } == "x\u{2028}y\u{85}z")
  }

  /// Found by fuzzing: at the end of an input without a final line break, libyaml adds a line break of its
  /// own, and reported what it found there on a line past the text.
  @Test func positionsAtTheEndOfAnUnterminatedInputStayOnItsLastLine() throws {
    let unclosed = parse("a: 1\nb: {c: d")
    let diagnostic = try #require(unclosed.diagnostics.first)
    #expect(diagnostic.ruleID == "yaml-syntax")
    #expect(diagnostic.location.range.start == SourcePosition(line: 2, column: 9))
    let mapping = parse("a: 1\nb: 2")
    let document = try #require(mapping.document)
    #expect(document.range(document.root!).end == SourcePosition(line: 2, column: 5))
    #expect(parse("a: 1\nb: 2\n").document.map { $0.range($0.root!).end } == SourcePosition(line: 3, column: 1))
  }

  @Test func controlCharactersAreReportedWhereTheyAre() throws {
    let result = YAMLParser.parse(Array("a: 1\nb: x\u{1}y\n".utf8), file: "ctrl.yaml")
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.ruleID == "yaml-syntax")
    #expect(diagnostic.location.range.start == SourcePosition(line: 2, column: 5))
    #expect(diagnostic.message.contains("U+0001"))
  }

  @Test func libyamlErrorsAreAtItsMarkInPlainWords() throws {
    let result = parse("a: [1, 2\nb: 3\n")
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.ruleID == "yaml-syntax")
    #expect(diagnostic.message.hasPrefix("expected ',' or ']'"))
    #expect(diagnostic.notes.first?.location?.range.start == SourcePosition(line: 1, column: 4))
  }

  @Test func unsupportedTagsAreErrors() {
    #expect(parse("a: !python/object x\n").diagnostics.map(\.ruleID) == ["yaml-tag"])
    #expect(parse("a: !!int 12\nb: !!str 12\nc: ! 12\n").diagnostics.isEmpty)
  }

  @Test(arguments: [
    ("42", YAMLValue.int(42)), ("-7", .int(-7)), ("0x1F", .int(31)), ("0o17", .int(15)),
    ("1.5", .float(1.5)), ("1e3", .float(1000)), (".inf", .float(.infinity)),
    ("true", .bool(true)), ("False", .bool(false)), ("yes", .string("yes")), ("on", .string("on")),
    ("~", .null), ("null", .null), ("", .null), ("abc", .string("abc")), ("1.2.3", .string("1.2.3")),
    ("0x", .string("0x")), ("+", .string("+")), ("99999999999999999999", .float(1e20)),
  ])
  func coreSchemaResolution(text: String, expected: YAMLValue) {
    #expect(YAMLScalar(text).resolved(tag: nil) == expected)
  }

  @Test func quotedScalarsAreAlwaysStrings() {
    #expect(YAMLScalar("42", style: .doubleQuoted).resolved(tag: nil) == .string("42"))
    #expect(YAMLScalar("true", style: .singleQuoted).resolved(tag: nil) == .string("true"))
  }
}
