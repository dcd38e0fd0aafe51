import Foundation
import SwiftParser
import SwiftSyntax
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// Runs every example of every rule: a triggering example must produce the rule's finding at each marker
/// and nowhere else, with the severity and message it states; a passing example must produce no finding.
///
/// `TRACKC_RECORD_GOLDENS=1 swift test --filter RuleExampleTests` writes what trackc reports into each
/// triggering example's `expecting:` (in the rule's own file) and fails the run while it does.
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
  func example(_ testCase: Case) throws {
    let rule = try #require(RuleCatalog.rule(withID: testCase.ruleID))
    let outcome = testCase.example.run(phase: rule.phase.kind)
    let rendered = TextDiagnosticRenderer.render(outcome.diagnostics)
    switch testCase.example.expectation {
    case .triggers:
      #expect(!outcome.expected.isEmpty, "a triggering example needs at least one marker")
      let findings = outcome.diagnostics.filter { $0.ruleID == testCase.ruleID }
      let actual = findings.map { TrackcCore.SourceLocation(file: $0.location.file, range: SourceRange(at: $0.location.range.start)) }
      #expect(actual.sorted() == outcome.expected.sorted(), "findings:\n\(rendered)")
      if !Golden.isRecording {
        #expect(
          Self.findings(findings, atMarkers: outcome.expected) == testCase.example.findings,
          "the example's 'expecting:' must state each finding's severity and message (re-record with \(Golden.recordVariable)=1); findings:\n\(rendered)"
        )
      }
    case .passes:
      #expect(outcome.diagnostics.isEmpty, "a passing example must be clean, found:\n\(rendered)")
    }
  }

  /// The rule's findings in the order of the markers, as an example's `expecting:` lists them.
  static func findings(_ findings: [Diagnostic], atMarkers markers: [TrackcCore.SourceLocation]) -> [RuleExample.Finding] {
    markers.flatMap { marker in
      findings.filter { $0.location.file == marker.file && $0.location.range.start == marker.range.start }
        .map { RuleExample.Finding(severity: $0.severity, message: $0.message) }
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

  /// While recording, writes each triggering example's findings into its `expecting:`, one rule file at a
  /// time (the parameterised test above runs its cases in parallel), and fails the run.
  @Test(.enabled(if: Golden.isRecording, "records only under TRACKC_RECORD_GOLDENS=1")) func recordExpectedFindings() throws {
    var changed: [String] = []
    for rule in RuleCatalog.all {
      var findings: [Int: [RuleExample.Finding]] = [:]
      for (index, example) in rule.examples.enumerated() where example.expectation == .triggers {
        let outcome = example.run(phase: rule.phase.kind)
        let actual = Self.findings(outcome.diagnostics.filter { $0.ruleID == rule.id }, atMarkers: outcome.expected)
        if actual != example.findings { findings[index] = actual }
      }
      guard !findings.isEmpty else { continue }
      let file = RuleFiles.url(of: rule)
      let source = try String(contentsOf: file, encoding: .utf8)
      let rewritten = ExpectingRewriter(findings: findings).rewrite(Parser.parse(source: source)).description
      try rewritten.write(to: file, atomically: true, encoding: .utf8)
      changed.append(file.path)
    }
    // Laid out as the repository's other Swift (Scripts/format.sh).
    if !changed.isEmpty { _ = try? ProcessRunner.run("/usr/bin/env", ["swift", "format", "format", "--in-place"] + changed) }
    Issue.record("Recorded the findings of \(changed.count) rule files; unset \(Golden.recordVariable) and run the tests again.")
  }
}

/// Where each rule's source file is: the folder of its phase, named after the rule's type.
enum RuleFiles {
  static let folders: [RulePhase.Kind: String] = [
    .input: "YAML", .yaml: "YAML", .structure: "Structure", .plan: "Config", .sources: "Sources", .code: "Sources",
    .generation: "Generate",
  ]

  static func url(of rule: any Rule.Type) -> URL {
    Fixtures.repositoryRoot.appendingPathComponent("Sources/TrackcCore/Rules")
      .appendingPathComponent(folders[rule.phase.kind]!).appendingPathComponent("\(rule).swift")
  }
}

/// Sets the `expecting:` argument of the examples at the given indexes of a rule's `examples` array.
private final class ExpectingRewriter: SyntaxRewriter {
  let findings: [Int: [RuleExample.Finding]]

  init(findings: [Int: [RuleExample.Finding]]) {
    self.findings = findings
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: PatternBindingSyntax) -> PatternBindingSyntax {
    guard node.pattern.trimmedDescription == "examples",
      let array = node.initializer?.value.as(ArrayExprSyntax.self)
    else { return node }
    var elements = Array(array.elements)
    for (index, element) in elements.enumerated() {
      guard let expected = findings[index], let call = element.expression.as(FunctionCallExprSyntax.self) else { continue }
      elements[index] = element.with(\.expression, ExprSyntax(Self.setting(expected, on: call)))
    }
    var binding = node
    binding.initializer?.value = ExprSyntax(array.with(\.elements, ArrayElementListSyntax(elements)))
    return binding
  }

  private static func setting(_ expected: [RuleExample.Finding], on call: FunctionCallExprSyntax) -> FunctionCallExprSyntax {
    var arguments = Array(call.arguments.filter { $0.label?.text != "expecting" })
    let list = expected.map { ".\($0.severity.rawValue)(\(TextEscaping.swiftStringLiteral($0.message)))" }
    var parser = Parser("[" + list.joined(separator: ", ") + "]")
    let value = ExprSyntax.parse(from: &parser)
    if !arguments.isEmpty {
      arguments[arguments.count - 1].trailingComma = .commaToken(trailingTrivia: .space)
    }
    arguments.append(
      LabeledExprSyntax(label: .identifier("expecting"), colon: .colonToken(trailingTrivia: .space), expression: value))
    return call.with(\.arguments, LabeledExprListSyntax(arguments))
  }
}
