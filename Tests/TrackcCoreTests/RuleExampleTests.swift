import Testing
import TrackcCore
import TrackcTestSupport

/// Runs every example of every rule: triggering examples must produce the rule's finding at each marker
/// and nowhere else; passing examples must produce no finding at all.
@Suite struct RuleExampleTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let ruleID: String
    let index: Int
    let example: RuleExample
    var testDescription: String { "\(ruleID) example \(index + 1) (\(example.expectation))" }
  }

  static let cases: [Case] = RuleCatalog.all.flatMap { rule in
    rule.examples.enumerated().map { Case(ruleID: rule.id, index: $0.offset, example: $0.element) }
  }

  @Test(arguments: cases)
  func example(_ testCase: Case) {
    let example = testCase.example
    var options = example.options
    var expected: [TrackcCore.SourceLocation] = []
    let source: ConfigSource
    if let bytes = example.bytes {
      source = ConfigSource(path: "example.yaml", bytes: bytes)
      expected = example.expectedPositions.map { TrackcCore.SourceLocation(file: "example.yaml", range: SourceRange(at: $0)) }
    } else {
      let (text, positions) = Markers.extract(from: example.source)
      source = ConfigSource(path: "example.yaml", text: text)
      expected = positions.map { TrackcCore.SourceLocation(file: "example.yaml", range: SourceRange(at: $0)) }
    }
    // Markers in Swift files and registries give positions in those files.
    if !example.swiftFiles.isEmpty {
      var files: [(path: String, text: String)] = []
      for file in example.swiftFiles {
        let (text, positions) = Markers.extract(from: file.text)
        files.append((file.path, text))
        expected += positions.map { TrackcCore.SourceLocation(file: file.path, range: SourceRange(at: $0)) }
      }
      options.code = .sources(.files(files))
      options.scan.useCache = false
    }
    if let registry = example.registry {
      let (text, positions) = Markers.extract(from: registry)
      options.code = .registry(path: "handlers.json", bytes: InputBytes(Array(text.utf8)))
      expected += positions.map { TrackcCore.SourceLocation(file: "handlers.json", range: SourceRange(at: $0)) }
    }
    var result = Linter.lint(source, options: options)
    // Generation rules apply in `trackc generate`, on top of a clean lint.
    if RuleCatalog.rule(withID: testCase.ruleID)?.phase.kind == .generation {
      result.diagnostics = Generator.generate(result, options: Generator.Options(configFileName: "example.yaml")).diagnostics
    }
    let rendered = TextDiagnosticRenderer.render(result.diagnostics)
    switch example.expectation {
    case .triggers:
      #expect(!expected.isEmpty, "a triggering example needs at least one marker")
      let actual = result.diagnostics.filter { $0.ruleID == testCase.ruleID }.map {
        TrackcCore.SourceLocation(file: $0.location.file, range: SourceRange(at: $0.location.range.start))
      }
      #expect(actual.sorted() == expected.sorted(), "findings:\n\(rendered)")
      if let findings = example.findings {
        let said = result.diagnostics.filter { $0.ruleID == testCase.ruleID }.sorted { $0.location < $1.location }.map {
          "\($0.severity): \($0.message)"
        }
        #expect(said == findings.map { "\($0.severity): \($0.message)" }, "findings:\n\(rendered)")
      }
    case .passes:
      #expect(result.diagnostics.isEmpty, "a passing example must be clean, found:\n\(rendered)")
    }
  }

  @Test func everyRuleHasTriggeringAndPassingExamples() {
    for rule in RuleCatalog.all {
      #expect(rule.examples.contains { $0.expectation == .triggers }, "\(rule.id) has no triggering example")
      #expect(rule.examples.contains { $0.expectation == .passes }, "\(rule.id) has no passing example")
    }
  }

  @Test func ruleIDsAreUniqueAndKebabCase() {
    let ids = RuleCatalog.all.map { $0.id }
    #expect(Set(ids).count == ids.count)
    for id in ids {
      #expect(id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } && !id.hasPrefix("-") && !id.hasSuffix("-"), "\(id)")
    }
  }
}
