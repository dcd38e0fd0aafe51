import Testing
import TrackcCore

/// Bindings written to break things: each gives a `path:line:column: error:` naming what is wrong, never
/// a crash or a silent pass.
@Suite struct BindingHostileInputTests {
  static let swift = """
    final class FeedViewController {
      var cart = Cart()
      var tab: Weird<Int> = Weird()
      func open(_ product: String, for reason: String, in position: Int) {}
    }
    struct Cart {
      var next: Cart? = nil
      var total: Double = 0
    }
    struct Weird<T> {}
    """

  static func lint(_ properties: String, interception: String = "dynamic-replacement") -> [Diagnostic] {
    let yaml = """
      version: 1
      interception: \(interception)
      screens:
        FeedViewController:
          control_events:
            open(_:for:in:):
              event: FEED_OPEN
              properties:
      \(properties.split(separator: "\n").map { "          " + $0 }.joined(separator: "\n"))
      """
    var options = LintOptions()
    options.code = .sources(.files([("Sources/Feed/Feed.swift", swift)]))
    options.scan.useCache = false
    return Linter.lint(ConfigSource(path: "tracking.yaml", text: yaml), options: options).diagnostics
  }

  static func errors(_ properties: String) -> [String] {
    lint(properties).filter { $0.severity == .error }.map { "\($0.location.range.start.line):\($0.location.range.start.column) \($0.ruleID)" }
  }

  @Test func aSequenceAsBindingOrFrom() {
    #expect(Self.errors("a: [{from: product}]") == ["9:14 invalid-property-value"])
    #expect(Self.errors("a: {from: [product, reason]}") == ["9:21 wrong-type"])
    #expect(Self.errors("a: {from: {x: 1}}") == ["9:21 wrong-type"])
  }

  @Test func aPathOfAHundredSteps() {
    let long = "self." + Array(repeating: "next", count: 99).joined(separator: ".")
    let found = Self.lint("a: {from: \(long)}")
    #expect(found.map(\.ruleID) == ["invalid-binding-path"])
    #expect(found.first?.message.contains("reads 99 properties; a binding reads at most 4") == true)
    // Within the limit, a path through optionals resolves.
    #expect(Self.errors("a: {from: self.cart.next.next.total}").isEmpty)
  }

  @Test func typeNamesThatAreNotSwiftOrNotProperties() {
    #expect(Self.errors("a: {from: product, type: Integer}") == ["9:36 wrong-type"])
    #expect(Self.errors("a: {from: product, type: \"String; import Evil\"}") == ["9:36 wrong-type"])
    #expect(Self.errors("a: {from: self.tab}") == ["9:21 unsupported-property-type"])
    #expect(Self.errors("a: {from: self.cart}") == ["9:21 unsupported-property-type"])
  }

  @Test func keywordLabelsAndNames() {
    // `for` and `in` are argument labels here; a label that is a keyword is a name after all.
    #expect(Self.errors("a: {from: for}\nb: {from: in}\nc: {from: reason}\nd: {from: position}").isEmpty)
    #expect(Self.errors("a: {from: class}") == ["9:21 unknown-binding-parameter"])
    #expect(Self.errors("a: {from: self.init}") == ["9:21 invalid-binding-path"])
    #expect(Self.errors("a: {from: \"`for`\"}").isEmpty)
    #expect(Self.errors("a: {from: \"a b\"}") == ["9:21 invalid-binding-path"])
    #expect(Self.errors("a: {from: \"product\\u0000\"}") == ["9:21 invalid-binding-path"])
  }

  @Test func missingAndMisspeltKeys() {
    #expect(Self.errors("a: {type: string}") == ["9:11 missing-key"])
    #expect(Self.errors("a: {fro: product}") == ["9:11 missing-key", "9:15 unknown-key"])
    #expect(Self.errors("a: {from: product, optional: maybe}") == ["9:40 wrong-type"])
  }
}
