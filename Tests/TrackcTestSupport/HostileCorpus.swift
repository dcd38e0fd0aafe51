import Foundation

/// Inputs meant to break a config reader. The small ones are committed under `Tests/Fixtures/hostile`;
/// these are generated, because they are large or binary. Each has a committed golden of its findings.
public enum HostileCorpus {
  public struct Generated: Sendable, CustomTestStringConvertibleName {
    public let name: String
    public let make: @Sendable () -> [UInt8]
    public var testName: String { name }
  }

  public static let generated: [Generated] = [
    Generated(name: "generated-nesting-10000-sequences") {
      Array(("version: 1\nscreens: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "\n").utf8)
    },
    Generated(name: "generated-nesting-10000-mappings") {
      Array(("version: 1\nscreens: " + String(repeating: "{a: ", count: 10_000) + "x" + String(repeating: "}", count: 10_000) + "\n").utf8)
    },
    Generated(name: "generated-binary-junk") { binaryJunk(count: 64 << 10) },
    Generated(name: "generated-50mb") { fiftyMegabytes() },
  ]

  /// Deterministic pseudo-random bytes (a linear congruential generator), the same on every run.
  public static func binaryJunk(count: Int) -> [UInt8] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 56)
    }
  }

  /// A config of well over 50 MB: screen after screen, as a runaway generator would write it.
  public static func fiftyMegabytes() -> [UInt8] {
    var bytes = Array("version: 1\nscreens:\n".utf8)
    bytes.reserveCapacity(52 << 20)
    var index = 0
    while bytes.count < 50 << 20 {
      bytes += Array("  Screen\(index)ViewController:\n    page_events: {enter: PAGE_\(index)_ENTER, leave: PAGE_\(index)_LEAVE}\n".utf8)
      index += 1
    }
    return bytes
  }
}

/// Gives a generated case a readable name in test output.
public protocol CustomTestStringConvertibleName {
  var testName: String { get }
}
