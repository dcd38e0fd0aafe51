import Foundation
import Testing
import TrackcCore
import TrackcTestSupport

/// The command line as users and CI see it: output lines, formats and exit statuses.
@Suite struct LintCommandTests {
  static let example = "Examples/Shop/tracking.yaml"
  static let broken = "Tests/Fixtures/findings/broken-config.yaml"
  static let warningsOnly = "Tests/Fixtures/findings/duplicate-event-ids.yaml"

  /// `path:line:column: severity: message [rule-id]`, or a `note:` line.
  static var findingLine: Regex<(Substring, Substring)> { #/^[^:]+:\d+:\d+: (error|warning): .+ \[[a-z0-9-]+\]$/# }
  static var noteLine: Regex<Substring> { #/^[^:]+:\d+:\d+: note: .+$/# }

  @Test func binaryIsBuilt() {
    #expect(FileManager.default.isExecutableFile(atPath: TrackcBinary.path), "\(TrackcBinary.path)")
  }

  @Test func cleanConfigExitsZeroAndPrintsNothing() throws {
    let output = try TrackcBinary.run("lint", Self.example)
    #expect(output.status == 0)
    #expect(output.standardOutput.isEmpty)
  }

  @Test func errorsExitOneWithClangStyleLines() throws {
    let output = try TrackcBinary.run("lint", Self.broken)
    #expect(output.status == 1)
    let lines = output.standardOutput.split(separator: "\n").map(String.init)
    #expect(!lines.isEmpty)
    for line in lines {
      #expect(line.wholeMatch(of: Self.findingLine) != nil || line.wholeMatch(of: Self.noteLine) != nil, "\(line)")
    }
    #expect(
      lines.first
        == "\(Self.broken):12:14: error: event ID 'page_home_leave' of the leave page event of 'HomeViewController' does not match the pattern '^[A-Z][A-Z0-9_]*$' [event-id-pattern]"
    )
    #expect(output.standardError.contains("4 errors and 1 warning in 1 file"))
  }

  @Test func warningsPassUnlessStrict() throws {
    #expect(try TrackcBinary.run("lint", Self.warningsOnly).status == 0)
    #expect(try TrackcBinary.run("lint", "--strict", Self.warningsOnly).status == 1)
  }

  @Test func quietPrintsOnlyErrors() throws {
    let quiet = try TrackcBinary.run("lint", "--quiet", Self.broken)
    #expect(quiet.status == 1)
    #expect(!quiet.standardOutput.contains("warning:"))
    #expect(quiet.standardOutput.contains("error:"))
    let quietWarnings = try TrackcBinary.run("lint", "--quiet", Self.warningsOnly)
    #expect(quietWarnings.status == 0)
    #expect(quietWarnings.standardOutput.isEmpty)
  }

  @Test func findingsOfSeveralFilesAreSortedByFileThenPosition() throws {
    let output = try TrackcBinary.run("lint", Self.warningsOnly, Self.broken)
    let files = output.standardOutput.split(separator: "\n").filter { !$0.contains(": note: ") }.map { $0.split(separator: ":")[0] }
    #expect(files == files.sorted())
    #expect(Set(files).count == 2)
  }

  @Test func jsonOutputIsOneDocument() throws {
    let output = try TrackcBinary.run("lint", "--format", "json", Self.broken)
    #expect(output.status == 1)
    let document = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
    let summary = try #require(document?["summary"] as? [String: Int])
    #expect(summary == ["errors": 4, "warnings": 1])
    #expect((document?["diagnostics"] as? [Any])?.count == 5)
  }

  @Test func sarifOutputIsSARIF210() throws {
    let output = try TrackcBinary.run("lint", "--format", "sarif", Self.broken)
    #expect(output.status == 1)
    let log = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
    #expect(log["version"] as? String == "2.1.0")
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    #expect((run["results"] as? [Any])?.count == 5)
    let driver = (run["tool"] as? [String: Any])?["driver"] as? [String: Any]
    #expect((driver?["rules"] as? [Any])?.count == RuleCatalog.all.count)
  }

  /// The SARIF of findings with notes, fix-its, Swift files and none at all validates against the OASIS
  /// SARIF 2.1.0 schema; a log with its version removed does not (the validator can fail).
  @Test(.requires(.sarifSchema)) func sarifValidatesAgainstTheSARIF210Schema() throws {
    let scratch = try ScratchDirectory("sarif")
    defer { scratch.remove() }
    let runs = [
      ("broken", ["lint", "--format", "sarif", Self.broken, Self.warningsOnly]),
      ("code", ["lint", "--format", "sarif", "--no-cache", "Tests/Fixtures/app/config-to-code.yaml"]),
      ("code-to-config", ["lint", "--format", "sarif", "--no-cache", "Tests/Fixtures/app/code-to-config.yaml"]),
      ("fixes", ["lint", "--format", "sarif", "Tests/Fixtures/fix/typos.yaml"]),
      ("clean", ["lint", "--format", "sarif", Self.example]),
    ]
    var files: [String] = []
    for (name, arguments) in runs {
      let output = try TrackcBinary.run(arguments)
      #expect(!output.standardOutput.isEmpty, "\(name): \(output.standardError)")
      files.append(try scratch.write("\(name).sarif", output.standardOutput))
    }
    var withoutVersion = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: files[0]))) as? [String: Any])
    withoutVersion["version"] = nil
    let invalid = try scratch.write("invalid.sarif", bytes: Array(try JSONSerialization.data(withJSONObject: withoutVersion)))
    let output = try PythonEnvironment.run(
      PythonPackages.sarif, [Fixtures.repositoryRoot.appendingPathComponent("Tests/Schema/validate_sarif.py").path] + files + [invalid])
    try #require(output.status == 0, "validate_sarif.py failed: \(output.standardError)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: [String]])
    for file in files { #expect(report[file] == [], "\(file): \(report[file] ?? ["not validated"])") }
    #expect(report[invalid]?.isEmpty == false, "a log without its version must not validate")
  }

  @Test func usageErrorsExit64() throws {
    #expect(try TrackcBinary.run("lint").status == 64)
    #expect(try TrackcBinary.run("lint", "--format", "xml", Self.example).status == 64)
    #expect(try TrackcBinary.run("lint", "--no-such-flag", Self.example).status == 64)
    #expect(try TrackcBinary.run("frobnicate").status == 64)
  }

  @Test func unreadableInputsExit66() throws {
    let missing = try TrackcBinary.run("lint", "no/such/tracking.yaml")
    #expect(missing.status == 66)
    #expect(missing.standardError.contains("cannot read 'no/such/tracking.yaml': No such file or directory"))
    #expect(try TrackcBinary.run("lint", "Examples").status == 66)
    // The readable file is still checked and reported.
    let mixed = try TrackcBinary.run("lint", "no/such/tracking.yaml", Self.broken)
    #expect(mixed.status == 66)
    #expect(mixed.standardOutput.contains("[event-id-pattern]"))
  }

  @Test func versionAndHelp() throws {
    let version = try TrackcBinary.run("--version")
    #expect(version.status == 0)
    #expect(version.standardOutput == TrackcVersion.current + "\n")
    let help = try TrackcBinary.run("--help")
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("Examples:"))
    let lintHelp = try TrackcBinary.run("lint", "--help")
    #expect(lintHelp.standardOutput.contains("trackc lint --format json tracking.yaml"))
    #expect(lintHelp.standardOutput.contains("--strict"))
  }

  @Test func rulesListsEveryRule() throws {
    let output = try TrackcBinary.run("rules")
    #expect(output.status == 0)
    for rule in RuleCatalog.all {
      #expect(output.standardOutput.contains(rule.id), "\(rule.id)")
    }
  }
}
