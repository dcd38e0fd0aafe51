import Foundation
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// Screens decoded while the parser reads the rest (`YAMLMappingHandover`, `ScreenStream`) change nothing:
/// the findings and the generated code are those of reading the whole file first, whatever the config
/// does with aliases, merge keys, duplicate and complex keys.
@Suite struct ScreenStreamTests {
  static func options(streaming: Bool) -> LintOptions {
    var options = Fixtures.options
    options.readsCode = false
    options.screenStreamingThreshold = streaming ? 0 : .max
    return options
  }

  /// Findings and generated files, as text.
  static func outcome(_ source: ConfigSource, streaming: Bool) -> String {
    let lint = Linter.lint(source, options: options(streaming: streaming))
    let generated = Generator.generate(lint, options: Generator.Options(configFileName: "tracking.yaml"))
    return ([JSONDiagnosticRenderer.render(lint.diagnostics)] + generated.files.map { "\($0.name)\n\($0.contents)" }).joined(separator: "\n")
  }

  static func expectSameOutcome(_ source: ConfigSource, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let readFirst = outcome(source, streaming: false)
    let streamed = outcome(source, streaming: true)
    #expect(streamed == readFirst, "\(LineDiff.unified(readFirst, streamed))", sourceLocation: sourceLocation)
  }

  @Test(arguments: RoutingAgreementTests.configs)
  func everyConfigInTheRepository(config: URL) throws {
    Self.expectSameOutcome(ConfigSource(path: "tracking.yaml", bytes: try [UInt8](Data(contentsOf: config))))
  }

  @Test(arguments: HostileCorpus.generated)
  func hostileInputs(input: HostileCorpus.Generated) {
    Self.expectSameOutcome(ConfigSource(path: "tracking.yaml", bytes: input.make()))
  }

  /// 300 screens, so several batches, with every way an entry can refer outside its batch or be dropped.
  static let awkward: String = {
    var lines = [
      "version: 1",
      "destinations: {firebase: {}, mixpanel: {}}",
      "base: &base {page_events: {enter: BASE_ENTER}}",
      "common: &common {onShared(_:): SHARED}",
      "name: &aliasedName AliasedScreen",
      "screens:",
    ]
    for index in 0..<300 {
      switch index % 25 {
      case 3: lines.append("  S\(index): *base")  // an alias from outside as the value
      case 5: lines.append("  S\(index): {control_events: {<<: *common, onOwn\(index)(_:): OWN_\(index)}}")  // a merge from outside
      case 7: lines.append("  S\(index - 1): {page_events: {enter: DUPLICATE_\(index)}}")  // a duplicate screen: dropped
      case 9: lines.append("  ? [complex, key]\n  : {page_events: {enter: COMPLEX_\(index)}}")
      case 11: lines.append("  *aliasedName : {page_events: {enter: ALIASED_NAME_\(index)}}")
      case 13: lines.append("  S\(index): &inner\(index) {page_events: {enter: ANCHORED_\(index)}}")
      case 14: lines.append("  S\(index): *inner\(index - 1)")  // an alias from an earlier entry of the mapping
      case 15: lines.append("  !!str S\(index): {control_events: {onTagged(_:): !!str TAGGED_\(index)}}")
      case 17: lines.append("  S\(index):")  // a screen without events
      case 19: lines.append("  S\(index): {page_events: {enter: [NOT, AN, ID]}, bogus: 1}")  // findings inside a screen
      default:
        lines.append("  S\(index):")
        lines.append("    page_events: {enter: S\(index)_ENTER, leave: {event: S\(index)_LEAVE, exclude: [mixpanel]}}")
        lines.append("    control_events:")
        lines.append("      onTap\(index)(_:): {event: S\(index)_TAP, properties: {n: \(index), ok: true, label: \"x\"}}")
        lines.append("      'onQuoted\(index)(_:)': S\(index)_QUOTED")
      }
    }
    lines.append("  <<: {MergedScreen: {page_events: {enter: MERGED_ENTER}}}")  // a merge key in the mapping itself
    return lines.joined(separator: "\n") + "\n"
  }()

  @Test func awkwardEntriesAreReadFromTheFinishedDocument() {
    Self.expectSameOutcome(ConfigSource(path: "tracking.yaml", text: Self.awkward))
    // The config is meant to be awkward, not broken: it has a plan, and screens from every kind of entry.
    let lint = Linter.lint(ConfigSource(path: "tracking.yaml", text: Self.awkward), options: Self.options(streaming: true))
    let names = Set(lint.plan?.config.screens.map(\.name.value) ?? [])
    #expect(names.isSuperset(of: ["S0", "S3", "S5", "S13", "S14", "S15", "S17", "AliasedScreen", "MergedScreen"]))
  }

  /// The screens section twice (the second is a duplicate key, dropped), and one that is not a mapping.
  @Test func screensWrittenTwiceOrAsAList() {
    Self.expectSameOutcome(
      ConfigSource(path: "tracking.yaml", text: "version: 1\nscreens:\n  A: {page_events: {enter: A}}\nscreens:\n  B: {page_events: {enter: B}}\n"))
    Self.expectSameOutcome(ConfigSource(path: "tracking.yaml", text: "version: 1\nscreens:\n  - A\n  - B\n"))
    Self.expectSameOutcome(ConfigSource(path: "tracking.yaml", text: "version: 1\nnested: {screens: {A: {page_events: {enter: A}}}}\nscreens: {}\n"))
  }

  /// What a batch holds is what the finished document holds at the same pair: structure, text, styles,
  /// tags and ranges, node by node.
  @Test func eachHandedOverEntryIsTheFinishedDocumentsEntry() {
    final class Batches: @unchecked Sendable {
      var all: [YAMLEntryBatch] = []
    }
    let batches = Batches()
    let handover = YAMLMappingHandover(key: "screens", batchSize: 7) { batches.all.append($0) }
    let parsed = Array(Self.awkward.utf8).withUnsafeBufferPointer { YAMLParser.parse($0, handover: handover) }
    guard let document = parsed.document else {
      Issue.record("no document: \(parsed.problems)")
      return
    }
    #expect(batches.all.count > 10)
    var compared = 0
    for batch in batches.all {
      for entry in batch.entries {
        #expect(Self.same(entry.pair.key, in: batch.document, entry.original.key, in: document))
        #expect(Self.same(entry.pair.value, in: batch.document, entry.original.value, in: document))
        compared += 1
      }
    }
    #expect(compared > 150)
  }

  static func same(_ a: YAMLNodeID, in first: YAMLDocument, _ b: YAMLNodeID, in second: YAMLDocument) -> Bool {
    guard first.kind(a) == second.kind(b), first.range(a) == second.range(b), first.style(a) == second.style(b),
      first.tag(a) == second.tag(b), first.text(a) == second.text(b)
    else { return false }
    switch first.kind(a) {
    case .scalar: return true
    case .sequence:
      return first.items(a).count == second.items(b).count && zip(first.items(a), second.items(b)).allSatisfy { same($0, in: first, $1, in: second) }
    case .mapping:
      return first.pairs(a).count == second.pairs(b).count
        && zip(first.pairs(a), second.pairs(b)).allSatisfy {
          same($0.key, in: first, $1.key, in: second) && same($0.value, in: first, $1.value, in: second)
        }
    }
  }
}
