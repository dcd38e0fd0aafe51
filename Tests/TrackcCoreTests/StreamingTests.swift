import Foundation
import Testing
import TrackcCore
import TrackcTestSupport

/// Checking screens while the YAML is parsed (`ScreenPipeline`) must find exactly what checking them
/// afterwards finds, in every case where the two could differ.
@Suite struct StreamingTests {
  static func lint(_ source: ConfigSource, streaming: Bool) -> LintResult {
    var options = LintOptions()
    options.streamingMinimumBytes = streaming ? 0 : .max
    return Linter.lint(source, options: options)
  }

  @discardableResult
  static func expectSameFindings(_ source: ConfigSource, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> ScreenStreaming {
    let streamed = lint(source, streaming: true)
    let afterwards = lint(source, streaming: false)
    let streamedText = TextDiagnosticRenderer.render(streamed.diagnostics)
    let afterwardsText = TextDiagnosticRenderer.render(afterwards.diagnostics)
    #expect(streamedText == afterwardsText, "\(LineDiff.unified(afterwardsText, streamedText))", sourceLocation: sourceLocation)
    #expect(streamed.config?.screens.map(\.name.value) == afterwards.config?.screens.map(\.name.value), sourceLocation: sourceLocation)
    #expect(afterwards.streaming == .notUsed, sourceLocation: sourceLocation)
    return streamed.streaming
  }

  static let fixtures = ["valid", "invalid", "findings", "hostile"].flatMap { Fixtures.configs(in: $0) }
    + [Fixtures.repositoryRoot.appendingPathComponent("Examples/Shop/tracking.yaml")]

  @Test func largeConfigsAreStreamed() {
    var text = "version: 1\nscreens:\n"
    for index in 0..<100 { text += "  Screen\(index): {page_events: {enter: PAGE_\(index)}}\n" }
    #expect(Self.expectSameFindings(ConfigSource(path: "plain.yaml", text: text)) == .used(recheckedBatches: 0))
  }

  @Test(arguments: fixtures)
  func fixturesGiveTheSameFindings(config: URL) throws {
    Self.expectSameFindings(ConfigSource(path: Fixtures.relativePath(config), bytes: try [UInt8](Data(contentsOf: config))))
  }

  /// Many screens (several batches), findings across batches, and settings written after the screens
  /// (so the first batches are checked before the destinations and the pattern are known).
  @Test func settingsAfterTheScreens() {
    var text = "version: 1\nscreens:\n"
    for index in 0..<200 {
      text += "  Screen\(index):\n    page_events: {enter: PAGE_\(index % 150)_ENTER}\n"
      text += "    control_events:\n      onTap(_:): {event: tap_\(index), destinations: [firebase, segment]}\n"
    }
    text += "  Screen7: {page_events: {enter: AGAIN}}\n"
    text += "  \"`Screen8`\": {page_events: {enter: SPELT_AGAIN}}\n"
    text += "conventions: {event_id_pattern: '^[a-z_0-9]+$'}\ndestinations: {firebase: {}}\n"
    let streaming = Self.expectSameFindings(ConfigSource(path: "late-settings.yaml", text: text))
    // 202 screens make six full batches of 32, checked before the settings were read, and a last one
    // submitted when parsing ended, with the settings known.
    #expect(streaming == .used(recheckedBatches: 6))
  }

  /// A merge key in `screens` changes the screens after they were streamed: the stream is set aside.
  @Test func mergeKeyInScreens() {
    var text = "version: 1\nbase: &base\n  Inherited: {page_events: {enter: INHERITED_ENTER}}\nscreens:\n  <<: *base\n"
    for index in 0..<100 { text += "  Screen\(index): {page_events: {enter: PAGE_\(index)}}\n" }
    guard case .setAside = Self.expectSameFindings(ConfigSource(path: "merge.yaml", text: text)) else {
      Issue.record("a merge key in screens must set the stream aside")
      return
    }
  }

  /// Input far denser than a config (two bytes a node) outgrows the reserved arena mid-parse.
  @Test func denseInputMovesTheArena() {
    var text = "version: 1\nscreens:\n"
    for index in 0..<100 { text += "  Screen\(index): {page_events: {enter: PAGE_\(index)}}\n" }
    text += "  Dense:\n    control_events:\n      onTap(_:): {event: DENSE, properties: {list: ["
    text += Array(repeating: "1", count: 60_000).joined(separator: ",") + "]}}\n"
    for index in 100..<200 { text += "  Screen\(index): {page_events: {enter: PAGE_\(index % 120)}}\n" }
    let streaming = Self.expectSameFindings(ConfigSource(path: "dense.yaml", text: text))
    #expect(streaming == .setAside(reason: "the input is denser than a config, and the parser's memory moved"))
  }

  @Test func keysThatAreNotStrings() {
    var text = "version: 1\nscreens:\n"
    for index in 0..<80 { text += "  Screen\(index): {page_events: {enter: PAGE_\(index)}}\n" }
    text += "  ? [Not, A, Name]\n  : {page_events: {enter: X}}\n"
    for index in 80..<160 { text += "  Screen\(index): {page_events: {enter: PAGE_\(index)}}\n" }
    guard case .setAside = Self.expectSameFindings(ConfigSource(path: "keys.yaml", text: text)) else {
      Issue.record("a key that is not a string in screens must set the stream aside")
      return
    }
  }

  @Test func syntaxErrorAfterManyScreens() {
    var text = "version: 1\nscreens:\n"
    for index in 0..<120 { text += "  Screen\(index): {page_events: {enter: PAGE_\(index)}}\n" }
    text += "  Broken: {page_events: [unclosed\n"
    Self.expectSameFindings(ConfigSource(path: "broken.yaml", text: text))
  }
}
