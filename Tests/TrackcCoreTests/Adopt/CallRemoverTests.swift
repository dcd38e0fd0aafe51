import Testing
import TrackcCore

/// Taking the mapped calls out: exactly their statements (and a local introduced only for one), every
/// other byte as it was; a file changed since the scan is refused.
@Suite struct CallRemoverTests {
  static let result = AdoptTests.result

  static func rewrite(_ path: String, text: String? = nil) -> Result<[UInt8], CallRemover.Refusal> {
    let original = AdoptFixtures.all.first { $0.path == path }!.text
    let removals = result.events.filter { $0.call.location.file == path }.compactMap(\.call.removal)
    return CallRemover.remove(removals, from: Array((text ?? original).utf8), file: path, expectedHash: result.fileHashes[path]!)
  }

  @Test func removesExactlyTheMappedStatements() throws {
    let original = AdoptFixtures.cart
    let rewritten = String(decoding: try Self.rewrite("Sources/App/Cart.swift").get(), as: UTF8.self)
    // What the rewrite took out, line by line: the mapped calls, the local only the checkout call used.
    let removed = [
      "    analytics.track(name: \"Cart Viewed\", properties: [\"items\": self.itemCount])",
      "    analytics.track(name: \"Cart Left\")",
      "    let properties: [String: Any] = [\"total\": total, \"source\": \"cart\", \"express\": true, \"count\": 2]",
      "    analytics.track(name: \"Checkout Tapped\", properties: properties)",
      "    analytics.track(name: Events.couponApplied)",
    ]
    var expected = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for line in removed {
      let index = try #require(expected.firstIndex(of: line))
      expected.remove(at: index)
    }
    // Every other byte is unchanged.
    #expect(rewritten == expected.joined(separator: "\n"))
    // The calls left in place are all still there.
    for diagnostic in Self.result.diagnostics where diagnostic.location.file == "Sources/App/Cart.swift" {
      let line = original.split(separator: "\n", omittingEmptySubsequences: false)[diagnostic.location.line - 1]
      #expect(rewritten.contains(line))
    }
  }

  @Test func refusesAFileChangedSinceTheScan() {
    let changed = AdoptFixtures.cart.replacingOccurrences(of: "Cart Left", with: "Cart Gone")
    #expect(throws: CallRemover.Refusal.changedSinceScan(file: "Sources/App/Cart.swift")) {
      try Self.rewrite("Sources/App/Cart.swift", text: changed).get()
    }
    #expect(
      CallRemover.Refusal.changedSinceScan(file: "a.swift").description == "'a.swift' has changed since it was scanned; run trackc adopt again")
  }

  @Test func keepsWhatSharesTheLine() throws {
    let text = "class A: UIViewController {\n  @objc func onTap(_ s: Any) { prepare(); analytics.track(name: \"Tapped\"); finish() }\n}\n"
    let result = AdoptTests.adopt([("Sources/App/A.swift", text)])
    let event = try #require(result.events.first)
    let rewritten = CallRemover.remove(
      [try #require(event.call.removal)], from: Array(text.utf8), file: "Sources/App/A.swift", expectedHash: result.fileHashes["Sources/App/A.swift"]!
    )
    #expect(
      String(decoding: try rewritten.get(), as: UTF8.self)
        == "class A: UIViewController {\n  @objc func onTap(_ s: Any) { prepare(); finish() }\n}\n")
  }
}
