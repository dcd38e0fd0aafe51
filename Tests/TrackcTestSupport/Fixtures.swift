import Foundation
import TrackcCore

/// Where the repository's test inputs live, found from this file's path so tests run from any directory.
public enum Fixtures {
  public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  public static let directory = repositoryRoot.appendingPathComponent("Tests/Fixtures")

  /// The `.yaml` files in a fixture folder, sorted by name.
  public static func configs(in folder: String) -> [URL] {
    let url = directory.appendingPathComponent(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted().map { url.appendingPathComponent($0) }
  }

  /// Options for linting fixtures: sources named by a config are scanned without touching a cache.
  public static var options: LintOptions {
    var options = LintOptions()
    options.scan.useCache = false
    return options
  }

  /// Lints a fixture file, naming it by its path relative to `Tests/Fixtures` so output is stable.
  public static func lint(_ url: URL, options: LintOptions = Fixtures.options) throws -> LintResult {
    let bytes = try [UInt8](Data(contentsOf: url))
    return Linter.lint(ConfigSource(path: relativePath(url), bytes: bytes), options: options)
  }

  /// Lints a config under its own path, so that its `sources` resolve beside it; scans without a cache.
  public static func lint(inPlace url: URL, code: CodeInput? = nil) throws -> LintResult {
    var options = Fixtures.options
    options.code = code
    return Linter.lint(ConfigSource(path: url.path, bytes: try [UInt8](Data(contentsOf: url))), options: options)
  }

  public static func relativePath(_ url: URL) -> String {
    let full = url.standardizedFileURL.path
    let base = directory.standardizedFileURL.path + "/"
    return full.hasPrefix(base) ? String(full.dropFirst(base.count)) : full
  }
}
