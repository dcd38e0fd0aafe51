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
    // Depths the input chooses, each past any the tool reads: a link pattern, a binding path, a
    // notification key path, an event ID pattern's groups and a handler name's parameters, 20,000 deep.
    Generated(name: "generated-link-pattern-20000-segments") {
      let pattern = (0..<20_000).map { "/s\($0 % 10)" }.joined()
      return Array(
        ("version: 1\nscreens:\n  A: {page_events: {enter: A_ENTER}}\nlinks: {schemes: [shop]}\nentry_points:\n"
          + "  wide: {screen: A, links: [\"\(pattern)\"]}\n  fine: {screen: A, links: [\"/fine\"]}\n").utf8)
    },
    Generated(name: "generated-deep-paths") {
      let steps = Array(repeating: "a", count: 20_000).joined(separator: ".")
      return Array(
        ("version: 1\nconventions: {event_id_pattern: '" + String(repeating: "(", count: 20_000) + "A" + String(repeating: ")", count: 20_000)
          + "'}\nscreens:\n  A:\n    control_events:\n      ? f(" + String(repeating: "a:", count: 20_000) + ")\n"
          + "      : {event: A_F, properties: {p: {from: self.\(steps)}}}\nentry_points:\n  n:\n    screen: A\n    notification:\n"
          + "      match:\n        ? \(steps)\n        : x\n      parameters: {p: {from: payload.\(steps)}}\n").utf8)
    },
    Generated(name: "generated-50mb") { fiftyMegabytes() },
    // Ten thousand purposes: one of Apple's, repeated, and ten thousand values that are none of them.
    Generated(name: "generated-purposes-10000") {
      let repeated = Array(repeating: "analytics", count: 10_000).joined(separator: ", ")
      let unknown = (0..<10_000).map { "purpose_\($0)" }.joined(separator: ", ")
      return Array("version: 1\ndestinations:\n  ads: {purposes: [\(unknown)]}\n  crashes: {purposes: [\(repeated)]}\nscreens: {}\n".utf8)
    },
  ]

  /// Swift sources meant to break the scanner: each is a file name and its bytes. Several crash
  /// swift-syntax's parser (a stack overflow) or make it take quadratic time, which is why the command
  /// line parses in worker processes.
  public static let swiftSources: [(name: String, make: @Sendable () -> [UInt8])] = [
    ("RepeatedTry.swift", { Array(("let x = " + String(repeating: "try ", count: 20_000) + "f()\n").utf8) }),
    ("CurriedFunctionType.swift", { Array(("typealias T = " + String(repeating: "(Int) -> ", count: 20_000) + "Int\n").utf8) }),
    (
      "NestedArrayType.swift",
      { Array(("class A { func f(x: " + String(repeating: "[", count: 20_000) + "Int" + String(repeating: "]", count: 20_000) + ") {} }\n").utf8) }
    ),
    (
      "NestedGenericType.swift",
      { Array(("class A { func f(x: " + String(repeating: "A<", count: 20_000) + "Int" + String(repeating: ">", count: 20_000) + ") {} }\n").utf8) }
    ),
    ("LongMemberType.swift", { Array(("extension " + (0..<20_000).map { "A\($0)" }.joined(separator: ".") + " { func f() {} }\n").utf8) }),
    (
      "IfAroundAttributes.swift",
      {
        Array(
          ("class A {\n" + String(repeating: "#if X\n@objc\n", count: 3_000) + "func f() {}\n" + String(repeating: "#endif\n", count: 3_000) + "}\n")
            .utf8)
      }
    ),
    ("RepeatedSome.swift", { Array(("class A { func f(x: " + String(repeating: "some ", count: 20_000) + "P) {} }\n").utf8) }),
    (
      "DeepParentheses.swift",
      { Array(("class A {\n  func f() { let x = " + String(repeating: "(", count: 20_000) + String(repeating: ")", count: 20_000) + " }\n}\n").utf8) }
    ),
    ("DeepBraces.swift", { Array((String(repeating: "{", count: 50_000) + "\n").utf8) }),
    ("DeepTypes.swift", { Array((String(repeating: "class A { ", count: 5_000) + String(repeating: "}", count: 5_000) + "\n").utf8) }),
    (
      "DeepIfConfig.swift",
      { Array((String(repeating: "#if X\n", count: 5_000) + "class B { @objc func f() {} }\n" + String(repeating: "#endif\n", count: 5_000)).utf8) }
    ),
    (
      "LongSignature.swift", { Array(("class C {\n  @objc func f(" + (0..<10_000).map { "a\($0): Int" }.joined(separator: ", ") + ") {}\n}\n").utf8) }
    ),
    ("BinaryJunk.swift", { binaryJunk(count: 64 << 10) }),
    ("NulBytes.swift", { Array("class D {\n  func f() {}\n".utf8) + [0, 0, 0] + Array("}\n".utf8) }),
    ("UnterminatedComment.swift", { Array(("class E {}\n/* " + String(repeating: "never closed ", count: 20_000)).utf8) }),
    ("UnterminatedString.swift", { Array(("class F { let s = \"" + String(repeating: "x", count: 100_000) + "\n").utf8) }),
    ("ByteOrderMarkAndCRLF.swift", { [0xEF, 0xBB, 0xBF] + Array("class G {\r\n  @objc func tapped(_ s: Any) {}\r\n}\r\n".utf8) }),
    ("TooLarge.swift", { Array(repeating: UInt8(ascii: " "), count: 9 << 20) }),
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
