import Foundation
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// The catalog is the one hand-kept list of rules; everything else about when rules run is derived from
/// each rule's phase. These tests keep the list complete and the front ends' problems owned.
@Suite struct RuleCatalogTests {
  /// Every `enum X: ...Rule` declared in a file under Sources/TrackcCore/Rules is listed, once.
  @Test func catalogListsEveryRuleDeclaredUnderRules() throws {
    let rules = Fixtures.repositoryRoot.appendingPathComponent("Sources/TrackcCore/Rules")
    var declared: [String] = []
    let enumerator = try #require(FileManager.default.enumerator(atPath: rules.path))
    let pattern = try Regex(#"public enum (\w+): (Rule|PlanRule|CodeRule|GenerationRule|YAMLRule|StructureRule)\b"#)
    for case let path as String in enumerator where path.hasSuffix(".swift") {
      let text = try String(contentsOf: rules.appendingPathComponent(path), encoding: .utf8)
      for match in text.matches(of: pattern) { declared.append(String(match.output[1].substring!)) }
    }
    let listed = RuleCatalog.all.map { String(describing: $0) }
    #expect(listed.count == Set(listed).count, "a rule is listed twice")
    #expect(
      Set(declared) == Set(listed),
      "declared but not listed: \(Set(declared).subtracting(listed).sorted()); listed but not declared: \(Set(listed).subtracting(declared).sorted())"
    )
  }

  /// Each rule file is in the folder of its phase, so the folders show the pipeline.
  @Test func ruleFilesSitInTheFolderOfTheirPhase() {
    for rule in RuleCatalog.all {
      let file = RuleFiles.url(of: rule)
      #expect(FileManager.default.fileExists(atPath: file.path), "\(rule) (\(rule.phase.kind)) is not at \(file.path)")
    }
  }

  /// Every kind of YAML problem becomes a diagnostic of a YAML-phase rule, and every kind of config
  /// problem one of a structure rule: the front ends name no rules, so the mapping must cover them all.
  @Test func everyFrontEndProblemBelongsToARuleOfItsPhase() {
    let position = SourcePosition(line: 2, column: 3)
    let range = SourceRange(at: position)
    let yaml: [YAMLProblem] = [
      .encoding(.utf16(bigEndian: true), at: .start), .yaml11LineBreak("\u{2028}", at: position), .outOfMemory(whileInitialising: false),
      .forbiddenCharacter(problem: "control characters are not allowed", code: 1, at: position),
      .syntax(problem: "did not find expected key", context: "while parsing a block mapping", at: position, character: nil, contextAt: .start),
      .duplicateKey("a", at: range, first: range), .undefinedAlias("a", at: position), .recursiveAlias("a", at: position),
      .aliasExpansionTooLarge(anchor: "a", limit: 10, at: position, anchorAt: .start), .mergeValueNotMapping(found: .int(1), at: range),
      .mergeSourceNotMapping(found: .sequence, at: range), .unsupportedTag("!x", at: position),
      .invalidTaggedValue(value: "x", tag: YAMLTag.int, at: position), .nestingTooDeep(limit: 3, at: position),
      .multipleDocuments(at: position, firstDocument: .start),
    ]
    for problem in yaml {
      var context = RuleContext(file: "t.yaml")
      FrontEndDiagnostics.report(problem, in: &context)
      #expect(context.diagnostics.count == 1)
      #expect(context.diagnostics.allSatisfy { RuleCatalog.rule(withID: $0.ruleID)?.phase.kind == .yaml }, "\(problem)")
    }
    let key = Located("x", at: range)
    let config: [ConfigProblem] = [
      .empty(at: .start), .unknownKey(key, in: "'defaults'", allowed: ["destinations"], kind: "key"),
      .wrongType(ConfigProblem.WrongType(kind: .emptyDestinationID, range: range)), .missingKey(.version(at: .start)),
      .missingKey(.screens(at: .start)), .missingKey(.event(what: "x", at: range)), .missingKey(.trackingMarker(at: range)),
      .missingKey(.key("screen", in: "entry point 'x'", at: range)),
      .versionNotInteger(found: .string("1"), at: range), .unsupportedVersion(2, at: range),
    ]
    for problem in config {
      var context = RuleContext(file: "t.yaml")
      FrontEndDiagnostics.report(problem, in: &context)
      #expect(context.diagnostics.count == 1)
      #expect(context.diagnostics.allSatisfy { RuleCatalog.rule(withID: $0.ruleID)?.phase.kind == .structure }, "\(problem)")
    }
  }
}
