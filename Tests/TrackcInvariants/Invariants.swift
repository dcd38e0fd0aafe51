import Foundation
import TrackcCore

/// Laws that hold for every input, however hostile: the fuzz targets (`Fuzz/`) check them on arbitrary
/// bytes, and the tests check them on the fixtures and on every input a fuzzer once broke them with.
///
/// Each check returns the violations it found, in words; empty means the law holds. Trapping, hanging
/// and unbounded allocation are violations too, which the fuzzer and the sanitizers catch by themselves.
/// The checks go through trackc's public entry points only, so that they outlive refactoring inside.
public enum Invariants {
  /// The path a fuzzed config is linted under.
  public static let configPath = "tracking.yaml"
  /// The path a fuzzed registry is read under.
  public static let registryPath = "handlers.json"

  /// The code fuzzed configs are checked against: the generator fixture's feature module, as a registry
  /// (never the config's own `sources`, which would send a fuzzer scanning the disk).
  public static var fixtureCode: CodeInput { .registry(path: registryPath, bytes: InputBytes(CodeFixture.registryJSON)) }

  /// Lints `bytes` as a config against `code` (nil: the config's own `sources`, if it names any).
  public static func lint(_ bytes: [UInt8], code: CodeInput? = fixtureCode) -> LintResult {
    var options = LintOptions()
    options.code = code
    options.scan.useCache = false
    return Linter.lint(ConfigSource(path: configPath, bytes: bytes), options: options)
  }

  /// The whole config check on `bytes`: every diagnostic about the config points inside it.
  public static func lintViolations(_ bytes: [UInt8]) -> [String] {
    positionViolations(in: lint(bytes).diagnostics, file: configPath, input: bytes)
  }

  /// A registry file (`--handlers`) read from `bytes`: every diagnostic about it points inside it, what it
  /// yields survives a round trip through `trackc scan`'s JSON writer, and a config checked against it still generates safe Swift.
  public static func registryViolations(_ bytes: [UInt8]) -> [String] {
    let input = InputBytes(bytes)
    let decoded = HandlerRegistry.decode(input, path: registryPath)
    var violations = positionViolations(in: decoded.diagnostics, file: registryPath, input: bytes)
    guard let registry = decoded.registry else { return violations }
    // `trackc scan` writes registries with a JSON writer of its own: what it writes must read back the same.
    let again = HandlerRegistry.decode(InputBytes(registry.jsonBytes()), path: registryPath)
    if again.registry != registry {
      violations.append("the registry does not survive a round trip through its own JSON writer: \(again.diagnostics.map(\.message))")
    }
    let lint = lint(CodeFixture.config, code: .registry(path: registryPath, bytes: input))
    violations += generatedCodeViolations(lint)
    return violations
  }
}

extension Invariants {
  /// A fuzz target's body: runs `check` on the input and aborts, so that libFuzzer keeps the input as a
  /// crash, when it finds a violation.
  public static func fuzz(_ data: UnsafePointer<UInt8>?, _ count: Int, _ check: ([UInt8]) -> [String]) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let violations = check(bytes)
    guard violations.isEmpty else {
      for violation in violations { FileHandle.standardError.write(Data("invariant broken: \(violation)\n".utf8)) }
      abort()
    }
    return 0
  }
}
