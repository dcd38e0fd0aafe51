import Foundation
import Testing
import TrackcTestSupport

/// `trackc docs`, `diff`, `export` and `lint --fix` as CI and a reviewer use them: files written, exit
/// statuses, a diff against a git revision, and bad input reported with its place.
@Suite struct PlanToolsCommandTests {
  static let old = "Tests/Fixtures/plantools/diff-old.yaml"
  static let new = "Tests/Fixtures/plantools/diff-new.yaml"

  @Test func docsWritesOnePage() throws {
    let scratch = try ScratchDirectory("docs-cli")
    defer { scratch.remove() }
    let page = scratch.path + "/plan.html"
    let run = try TrackcBinary.run("docs", "Examples/Shop/tracking.yaml", "--output", page, "--no-cache")
    #expect(run.status == 0, "\(run.standardError)")
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("CTRL_CART_CHECKOUT") && html.contains("Sources/Cart/CartViewController.swift:"))
    // A config that cannot be read writes nothing.
    let broken = try scratch.write("broken.yaml", "version: 1\nscreens: [\n")
    let failed = try TrackcBinary.run("docs", broken, "--output", scratch.path + "/broken.html")
    #expect(failed.status == 1 && failed.standardError.contains("broken.yaml:3:1: error:"))
    #expect(!FileManager.default.fileExists(atPath: scratch.path + "/broken.html"))
    #expect(try TrackcBinary.run("docs", scratch.path + "/missing.yaml").status == 66)
  }

  @Test func diffExitStatuses() throws {
    let compared = try TrackcBinary.run("diff", Self.old, Self.new)
    #expect(compared.status == 0)
    #expect(compared.standardOutput.split(separator: "\n").count == 17)
    #expect(compared.standardError == "trackc: 17 changes to the tracking plan, 8 breaking\n")
    let failing = try TrackcBinary.run("diff", Self.old, Self.new, "--fail-on", "breaking", "--format", "json")
    #expect(failing.status == 1)
    #expect(failing.standardOutput.contains("\"breaking\" : 8"))
    #expect(try TrackcBinary.run("diff", Self.new, Self.new, "--fail-on", "breaking").status == 0)
    #expect(try TrackcBinary.run("diff", Self.old, "missing.yaml").status == 66)
    #expect(try TrackcBinary.run("diff", Self.old).status == 64)
  }

  /// A config that does not parse: its errors, with their places, and exit 65.
  @Test func diffOfUnparsableConfigSaysWhere() throws {
    let scratch = try ScratchDirectory("diff-broken")
    defer { scratch.remove() }
    let broken = try scratch.write("new.yaml", "version: 1\nscreens:\n  Home: {page_events: {enter: [A}\n")
    let run = try TrackcBinary.run("diff", Self.old, broken)
    #expect(run.status == 65)
    #expect(run.standardOutput.hasPrefix("\(broken):3:"), "\(run.standardOutput)")
    #expect(run.standardOutput.contains("[yaml-syntax]"))
    #expect(run.standardError.contains("could not be read as a tracking config"))
    let github = try TrackcBinary.run("diff", Self.old, broken, "--format", "github")
    #expect(github.status == 65 && github.standardOutput.hasPrefix("::error file="))
  }

  @Test func diffAgainstAGitRevision() throws {
    let scratch = try ScratchDirectory("diff-git")
    defer { scratch.remove() }
    func git(_ arguments: String...) throws {
      let run = try ProcessRunner.run("/usr/bin/env", ["git", "-C", scratch.path, "-c", "user.name=t", "-c", "user.email=t@t"] + arguments)
      try #require(run.status == 0, "git \(arguments): \(run.standardError)")
    }
    try git("init", "-q")
    try scratch.write("app/tracking.yaml", try String(contentsOfFile: Fixtures.repositoryRoot.path + "/" + Self.old, encoding: .utf8))
    try git("add", ".")
    try git("commit", "-q", "-m", "old")
    try scratch.write("app/tracking.yaml", try String(contentsOfFile: Fixtures.repositoryRoot.path + "/" + Self.new, encoding: .utf8))
    // From any working directory: the repository's root, or elsewhere.
    let run = try TrackcBinary.run("diff", "--git", "HEAD", "app/tracking.yaml", "--format", "markdown", in: scratch.url)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("17 changes, **8 breaking changes**"))
    #expect(run.standardOutput.contains("HEAD\\:app/tracking.yaml\\:19"))
    let elsewhere = try TrackcBinary.run("diff", "--git", "HEAD", scratch.path + "/app/tracking.yaml")
    #expect(elsewhere.status == 0 && elsewhere.standardOutput.split(separator: "\n").count == 17)
    let unknown = try TrackcBinary.run("diff", "--git", "no-such-rev", "app/tracking.yaml", in: scratch.url)
    #expect(unknown.status == 66 && unknown.standardError.contains("cannot read 'no-such-rev:app/tracking.yaml'"))
    // A revision that looks like an option never reaches git (it would be read as one).
    let option = try TrackcBinary.run("diff", "--git=--output=x", "app/tracking.yaml", in: scratch.url)
    #expect(option.status == 66 && option.standardError.contains("a revision cannot start with '-'"), "\(option.standardError)")
    #expect(!FileManager.default.fileExists(atPath: scratch.path + "/x"))
  }

  @Test func exportSchemasAndCSV() throws {
    let scratch = try ScratchDirectory("export")
    defer { scratch.remove() }
    let directory = scratch.path + "/schemas"
    let run = try TrackcBinary.run("export", "--format", "jsonschema", "Examples/Shop/tracking.yaml", "--output", directory, "--no-cache")
    #expect(run.status == 0, "\(run.standardError)")
    let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    // 25 events of screens, the open events of the 3 entry points and the 4 application events.
    #expect(
      files.count == 32 && files.contains("APP_OPENED.schema.json") && files.contains("CTRL_CART_CHECKOUT.schema.json")
        && files.contains("OPEN_PRODUCT.schema.json"))
    let open = try String(contentsOfFile: directory + "/OPEN_PRODUCT.schema.json", encoding: .utf8)
    #expect(open.contains("\"source\"") && open.contains("\"id\"") && open.contains("\"ref\"") && open.contains("through entry point product"))
    // A schema for an event no longer in the plan is removed; other files stay.
    try scratch.write("schemas/CTRL_GONE.schema.json", "{}")
    try scratch.write("schemas/README.md", "mine")
    #expect(try TrackcBinary.run("export", "--format", "jsonschema", "Examples/Shop/tracking.yaml", "-o", directory, "--no-cache").status == 0)
    let after = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(!after.contains("CTRL_GONE.schema.json") && after.contains("README.md") && after.count == 33)
    let csv = try TrackcBinary.run("export", "--format", "csv", "Examples/Shop/tracking.yaml", "--no-cache")
    #expect(csv.status == 0 && csv.standardOutput.components(separatedBy: "\r\n").count == 34)
    #expect(csv.standardOutput.contains("CartViewController,open,cart,OPEN_CART,\"firebase, mixpanel\","))
    #expect(
      csv.standardOutput.contains(
        "HomeViewController,control,onFavBtnPressed(_:),CTRL_HOME_FAVORITE,\"firebase, mixpanel\",,69,Sources/Home/HomeViewController.swift:14"))
    #expect(try TrackcBinary.run("export", "--format", "jsonschema", "Examples/Shop/tracking.yaml").status == 64)
  }

  @Test func lintFixWritesAndDryRunPrintsADiff() throws {
    let scratch = try ScratchDirectory("fix-cli")
    defer { scratch.remove() }
    let original = try String(contentsOfFile: Fixtures.directory.path + "/fix/typos.yaml", encoding: .utf8)
    let config = try scratch.write("tracking.yaml", original)
    let dryRun = try TrackcBinary.run("lint", "--fix", "--dry-run", config)
    #expect(dryRun.status == 0, "\(dryRun.standardError)")
    #expect(dryRun.standardOutput.hasPrefix("--- a/\(config)\n+++ b/\(config)\n@@ "))
    #expect(dryRun.standardOutput.contains("-version: 2 ") && dryRun.standardOutput.contains("+version: 1 "))
    #expect(try scratch.read("tracking.yaml") == original, "--dry-run writes nothing")
    // The diff applies with git apply.
    let patch = try scratch.write("fix.diff", dryRun.standardOutput.replacingOccurrences(of: config, with: "tracking.yaml"))
    let applied = try ProcessRunner.run("/usr/bin/env", ["git", "apply", "--check", "--directory=", patch], currentDirectory: scratch.url)
    #expect(applied.status == 0, "\(applied.standardError)")

    let fixed = try TrackcBinary.run("lint", "--fix", config)
    #expect(fixed.status == 0, "\(fixed.standardOutput)")
    #expect(fixed.standardOutput.isEmpty && fixed.standardError.contains("9 fixes applied"))
    #expect(try scratch.read("tracking.yaml") == (try String(contentsOfFile: Fixtures.directory.path + "/fix/typos.after", encoding: .utf8)))
    #expect(try TrackcBinary.run("lint", config).status == 0)
    #expect(try TrackcBinary.run("lint", "--dry-run", config).status == 64)
  }

  /// What cannot be fixed stays, with the reason, and the lint that follows reports it.
  @Test func lintFixLeavesWhatItCannotFix() throws {
    let scratch = try ScratchDirectory("fix-cli-left")
    defer { scratch.remove() }
    let original = try String(contentsOfFile: Fixtures.directory.path + "/fix/unfixable.yaml", encoding: .utf8)
    let config = try scratch.write("tracking.yaml", original)
    let run = try TrackcBinary.run("lint", "--fix", config)
    #expect(run.status == 1)
    #expect(run.standardError.contains("note: fix not applied (replace with 'screens'): with it, duplicate key 'screens'"))
    #expect(run.standardOutput.contains("[unknown-key]"))
    #expect(try scratch.read("tracking.yaml") == original)
  }

  @Test func lintGitHubFormat() throws {
    let run = try TrackcBinary.run("lint", "--format", "github", "Tests/Fixtures/fix/unfixable.yaml")
    #expect(run.status == 1)
    #expect(run.standardOutput.hasPrefix("::error file=Tests/Fixtures/fix/unfixable.yaml,line=3,col=1,endLine=3,endColumn=7,title=unknown-key::"))
  }
}

/// Every hostile input through each plan tool: a clear status, within the time limit and memory ceiling
/// the linter keeps.
@Suite struct PlanToolsHostileInputTests {
  /// Each command with `FILE` for the input, and the statuses it may end with.
  static let commands: [(arguments: [String], statuses: Set<Int32>)] = [
    (["docs", "FILE", "--output", "/dev/null"], [0, 1]),
    (["diff", "FILE", "FILE", "--format", "github"], [0, 65]),
    (["export", "--format", "csv", "FILE", "--output", "/dev/null"], [0, 1]),
    (["lint", "--fix", "--dry-run", "FILE"], [0, 1]),
  ]

  @Test(arguments: HostileInputTests.inputs())
  func plansToolsRejectCleanlyWithinBounds(input: String) throws {
    let (file, cleanUp) = try HostileInputTests().path(for: input)
    defer { cleanUp() }
    for command in Self.commands {
      let arguments = command.arguments.map { $0 == "FILE" ? file : $0 }
      let name = arguments.prefix(2).joined(separator: " ")
      let run = try MeasuredRun.run(TrackcBinary.path, arguments, timeout: HostileInputTests.timeLimitSeconds)
      #expect(!run.timedOut, "\(name) took longer than \(HostileInputTests.timeLimitSeconds) s")
      #expect(command.statuses.contains(run.status), "\(name) exit \(run.status): \(run.standardError.prefix(500))")
      // Every hostile input has errors: a tool that goes on (docs and export write the plan they could read)
      // still reports them, with a position. `diff` reads plans, not findings: a config that reads (its
      // errors are the plan's, such as a link pattern 20,000 segments deep) compared with itself has no
      // changes.
      let errors = run.standardOutput + run.standardError
      let comparedCleanly = arguments[0] == "diff" && run.status == 0 && run.standardError.contains("no changes to the tracking plan")
      #expect(
        comparedCleanly || errors.contains(": error: ") || errors.contains("::error "), "\(name) exit \(run.status) without reporting an error")
      #expect(run.peakStaysUnder(HostileInputTests.memoryCeilingKilobytes), "\(name) peak memory \(run.maxResidentKilobytes / 1024) MB")
    }
  }
}
