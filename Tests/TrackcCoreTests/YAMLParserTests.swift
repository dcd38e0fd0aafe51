import Testing

@testable import TrackcCore

@Suite struct YAMLParserTests {
  func parse(_ text: String, limits: YAMLLimits = YAMLLimits()) -> YAMLParseResult {
    YAMLParser.parse(Array(text.utf8), limits: limits)
  }

  static func range(_ line: Int, _ column: Int, _ endLine: Int, _ endColumn: Int) -> SourceRange {
    SourceRange(start: SourcePosition(line: line, column: column), end: SourcePosition(line: endLine, column: endColumn))
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

  /// A scalar's text is its value, however it is written, with or without a byte order mark, in ASCII
  /// and non-ASCII files.
  @Test(arguments: [[], [0xEF, 0xBB, 0xBF]] as [[UInt8]], ["", "# café\n"])
  func scalarTextIsTheValue(prefix: [UInt8], comment: String) throws {
    let text =
      comment + """
        plain: value
        single: 'it''s'
        double: "tab\\there"
        quoted: "verbatim"
        folded: first
          second
        block: |
          line
        """
    let result = YAMLParser.parse(prefix + Array(text.utf8))
    #expect(result.problems.isEmpty)
    let document = try #require(result.document)
    let values = pairs(result, result.root).map { document.text($0.1) }
    #expect(values == ["value", "it's", "tab\there", "verbatim", "first second", "line"])
  }

  @Test func byteOrderMarkAndCRLFLineEndings() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a: 1\r\nb: 2\r\n".utf8)
    let result = YAMLParser.parse(bytes)
    let document = try #require(result.document)
    let second = try #require(pairs(result, result.root).last)
    #expect(document.range(second.1).start == SourcePosition(line: 2, column: 4))
    #expect(result.problems.isEmpty)
  }

  @Test func duplicateKeyPointsAtSecondWithTheFirstBeside() throws {
    let result = parse("a: 1\nb: 2\na: 3\n")
    #expect(result.problems == [.duplicateKey("a", at: Self.range(3, 1, 3, 2), first: Self.range(1, 1, 1, 2))])
    // The first occurrence is kept.
    let document = try #require(result.document)
    #expect(pairs(result, result.root).map { $0.0 } == ["a", "b"])
    #expect(document.value(pairs(result, result.root)[0].1) == .int(1))
  }

  @Test func duplicateKeysInLargeMappingsUseTheIndex() throws {
    var text = (0..<40).map { "key\($0): \($0)" }.joined(separator: "\n")
    text += "\nkey7: again\nkey39: again\n"
    let result = parse(text)
    #expect(
      result.problems == [
        .duplicateKey("key7", at: Self.range(41, 1, 41, 5), first: Self.range(8, 1, 8, 5)),
        .duplicateKey("key39", at: Self.range(42, 1, 42, 6), first: Self.range(40, 1, 40, 6)),
      ])
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
    #expect(result.problems.isEmpty)
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
    #expect(result.problems == [.mergeValueNotMapping(found: .int(5), at: Self.range(1, 9, 1, 10))])
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
    // a weighs 11 nodes and b 111, so the ninth '*b' on line 3 takes the expansion past 1,000.
    #expect(
      result.problems == [
        .aliasExpansionTooLarge(anchor: "b", limit: 1_000, at: SourcePosition(line: 3, column: 40), anchorAt: SourcePosition(line: 2, column: 4))
      ])
  }

  @Test func unknownAndRecursiveAliases() {
    #expect(parse("a: *nowhere\n").problems == [.undefinedAlias("nowhere", at: SourcePosition(line: 1, column: 4))])
    #expect(parse("a: &x [1, *x]\n").problems == [.recursiveAlias("x", at: SourcePosition(line: 1, column: 11))])
  }

  @Test func nestingBeyondTheLimitStopsTheParse() throws {
    let depth = 10_000
    let text = "a: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
    let result = parse(text)
    #expect(result.problems == [.nestingTooDeep(limit: 100, at: SourcePosition(line: 1, column: 4 + 99))])
  }

  @Test func secondDocumentIsAnError() throws {
    let result = parse("a: 1\n---\nb: 2\n")
    #expect(result.problems == [.multipleDocuments(at: SourcePosition(line: 2, column: 1), firstDocument: .start)])
  }

  @Test func emptyInputHasNoRoot() {
    #expect(parse("").root == nil)
    #expect(parse("# only a comment\n").root == nil)
    #expect(parse("").problems.isEmpty)
  }

  @Test func encodingProblemsAreReportedAtTheBadByte() throws {
    let latin1: [UInt8] = Array("a: 1\nb: caf".utf8) + [0xE9, 0x0A]
    let result = YAMLParser.parse(latin1)
    #expect(result.problems == [.encoding(.invalidUTF8(byteOffset: 11, byte: 0xE9), at: SourcePosition(line: 2, column: 7))])
    let utf16 = YAMLParser.parse([0xFE, 0xFF, 0x00, 0x61])
    #expect(utf16.problems == [.encoding(.utf16(bigEndian: true), at: .start)])
  }

  /// Found by fuzzing: libyaml (YAML 1.1) breaks lines at NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR,
  /// editors do not, so every position after one was a line off (and a comment could end early). They are
  /// refused where they stand; escaped in a double-quoted string they are ordinary characters.
  @Test(arguments: ["\u{85}", "\u{2028}", "\u{2029}"])
  func yaml11LineBreaksAreRefusedWhereTheyAre(separator: String) {
    let result = parse("version: 1\n# a note\(separator)screens: {}\n")
    #expect(result.problems == [.yaml11LineBreak(separator.unicodeScalars.first!, at: SourcePosition(line: 2, column: 9))])
    #expect(result.root == nil)
    let escaped = parse("a: \"x\\u2028y\\u0085z\"\n")
    #expect(escaped.problems.isEmpty)
    #expect(escaped.document.map { $0.text($0.pairs($0.root!)[0].value) } == "x\u{2028}y\u{85}z")
  }

  /// Found by fuzzing: at the end of an input without a final line break, libyaml adds a line break of its
  /// own, and reported what it found there on a line past the text.
  @Test func positionsAtTheEndOfAnUnterminatedInputStayOnItsLastLine() throws {
    let unclosed = parse("a: 1\nb: {c: d")
    guard case .syntax(_, _, let position, _, _)? = unclosed.problems.first else {
      Issue.record("expected a syntax problem, found \(unclosed.problems)")
      return
    }
    #expect(position == SourcePosition(line: 2, column: 9))
    let mapping = parse("a: 1\nb: 2")
    let document = try #require(mapping.document)
    #expect(document.range(document.root!).end == SourcePosition(line: 2, column: 5))
    #expect(parse("a: 1\nb: 2\n").document.map { $0.range($0.root!).end } == SourcePosition(line: 3, column: 1))
  }

  @Test func controlCharactersAreReportedWhereTheyAre() throws {
    let result = YAMLParser.parse(Array("a: 1\nb: x\u{1}y\n".utf8))
    #expect(result.problems == [.forbiddenCharacter(problem: "control characters are not allowed", code: 1, at: SourcePosition(line: 2, column: 5))])
  }

  @Test func libyamlErrorsAreAtItsMarkInPlainWords() throws {
    let result = parse("a: [1, 2\nb: 3\n")
    guard case .syntax(let problem, _, let position, _, let contextPosition)? = result.problems.first else {
      Issue.record("expected a syntax problem, found \(result.problems)")
      return
    }
    #expect(problem == "did not find expected ',' or ']'")
    #expect(position == SourcePosition(line: 2, column: 2))
    #expect(contextPosition == SourcePosition(line: 1, column: 4))
    var context = RuleContext(file: "t.yaml")
    FrontEndDiagnostics.report(result.problems, in: &context)
    #expect(context.diagnostics.first?.message.hasPrefix("expected ',' or ']'") == true)
  }

  @Test func unsupportedTagsAreErrors() {
    #expect(parse("a: !python/object x\n").problems == [.unsupportedTag("!python/object", at: SourcePosition(line: 1, column: 4))])
    #expect(parse("a: !!int twelve\n").problems == [.invalidTaggedValue(value: "twelve", tag: YAMLTag.int, at: SourcePosition(line: 1, column: 4))])
    #expect(parse("a: !!int 12\nb: !!str 12\nc: ! 12\n").problems.isEmpty)
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
