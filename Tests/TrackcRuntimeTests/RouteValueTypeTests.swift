import Foundation
import Testing
import TrackcTestSupport

@_spi(Generated) @testable import TrackcRuntime

/// Route values read from link text: the UUID reader that replaced Foundation's `UUID(uuidString:)`
/// (which goes through `sscanf` on Linux) gives exactly what Foundation gives.
@Suite struct RouteValueTypeTests {
  @Test(arguments: [
    "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "6BA7B810-9DAD-11D1-80B4-00C04FD430C8", "00000000-0000-0000-0000-000000000000",
    "ffffffff-ffff-ffff-ffff-ffffffffffff", "6ba7b810-9dad-11d1-80b4-00c04fd430c", "6ba7b810-9dad-11d1-80b4-00c04fd430c8a",
    "6ba7b8109dad-11d1-80b4-00c04fd430c8-", "6ba7b810-9dad-11d1-80b4-00c04fd430cg", "6ba7b810_9dad_11d1_80b4_00c04fd430c8", "",
    "6ba7b810-9dad-11d1-80b4-00c04fd430c\u{e9}", "{6ba7b810-9dad-11d1-80b4-00c04fd430c8}",
  ])
  func uuidsReadAsFoundationReadsThem(text: String) {
    #expect(RouteValueType<UUID>.uuid(fromCanonical: text) == UUID(uuidString: text))
  }

  @Test func everyHexDigitInEveryPosition() {
    let digits = Array("0123456789abcdefABCDEF")
    var generator = SeededRandom(seed: SeededRandom.baseSeed)
    for _ in 0..<2_000 {
      var text = ""
      for position in 0..<36 {
        text.append([8, 13, 18, 23].contains(position) ? "-" : digits.randomElement(using: &generator)!)
      }
      #expect(RouteValueType<UUID>.uuid(fromCanonical: text) == UUID(uuidString: text), "\(text)")
      #expect(RouteValueType<UUID>.uuid.value(of: text, kind: .uuid) == UUID(uuidString: text))
    }
  }
}
