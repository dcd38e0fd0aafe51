import Foundation
import Testing
import TrackcCore
import TrackcTestSupport

/// The documentation says what the code does: the rules page is the catalog's, the commands exist, every
/// file and section a page links to or names exists, and the pages speak of the project alone.
@Suite struct DocumentationTests {
  static let root = Fixtures.repositoryRoot
  static let readme = (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

  /// The README, CONTRIBUTING.md and every page under docs/ (docs/development/ included), by their path
  /// in the repository.
  static let pages: [(path: String, text: String)] = {
    var pages = [("README.md", readme)]
    for file in ["CONTRIBUTING.md", "CHANGELOG.md"] {
      pages.append((file, (try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)) ?? ""))
    }
    for folder in ["docs", "docs/development"] {
      let directory = root.appendingPathComponent(folder)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
      for name in names.sorted() where name.hasSuffix(".md") {
        pages.append((folder + "/" + name, (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""))
      }
    }
    return pages
  }()

  /// The pages a user reads: what trackc does and what to expect. Maintainers' pages (how it is built,
  /// measured and fuzzed) are docs/development/ and CONTRIBUTING.md; the rules page is generated.
  static var userPages: [(path: String, text: String)] {
    pages.filter { !$0.path.hasPrefix("docs/development/") && !["CONTRIBUTING.md", "docs/rules.md"].contains($0.path) }
  }

  @Test func theRulesPageIsWhatTrackcRulesPrints() {
    Golden.check(RuleDocumentation.markdown, matches: Self.root.appendingPathComponent("docs/rules.md"))
  }

  @Test func theTwoCommandsAreThere() {
    #expect(Self.readme.contains("swift run trackc lint Examples/Shop/tracking.yaml"))
    #expect(Self.readme.contains("swift test"))
    #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("Examples/Shop/tracking.yaml").path))
  }

  @Test func ciRunsTheREADMECommands() throws {
    let ci = try String(contentsOf: Self.root.appendingPathComponent(".ci/run"), encoding: .utf8)
    #expect(ci.contains("swift test"))
    #expect(ci.contains("swift run trackc lint"))
  }

  /// Every relative link goes to a file that exists, and every `#anchor` to a heading of that page.
  @Test func everyLinkReachesAFileAndASection() throws {
    #expect(Self.pages.count > 10, "the docs/ pages were not found")
    let link = try Regex(#"\]\(([^)\s]+)\)"#)
    var checked = 0
    defer { #expect(checked > 40, "only \(checked) links were checked: has the pages' link syntax changed?") }
    for page in Self.pages {
      let folder = (page.path as NSString).deletingLastPathComponent
      for match in page.text.matches(of: link) {
        let target = String(match.output[1].substring!)
        if target.contains("://") || target.hasPrefix("mailto:") { continue }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let file = parts[0].isEmpty ? page.path : normalized(folder.isEmpty ? String(parts[0]) : folder + "/" + parts[0])
        let url = Self.root.appendingPathComponent(file)
        checked += 1
        guard FileManager.default.fileExists(atPath: url.path) else {
          Issue.record("\(page.path) links to \(target), which does not exist")
          continue
        }
        if parts.count == 2, file.hasSuffix(".md") {
          let text = try String(contentsOf: url, encoding: .utf8)
          #expect(Self.anchors(of: text).contains(String(parts[1])), "\(page.path) links to \(target): no such section")
        }
      }
    }
  }

  /// A path of the repository named in code spans (`Tests/Docs/drive_chromium.py`) exists.
  @Test func everyFileAPageNamesExists() throws {
    let span = try Regex(#"`((?:Sources|Tests|Examples|Benchmarks|Scripts|Fuzz|Schemas|Plugins|docs|\.ci|\.github)/[^`\s]*)`"#)
    var checked = 0
    defer { #expect(checked > 40, "only \(checked) paths were checked: has the pages' syntax changed?") }
    for page in Self.pages {
      for match in page.text.matches(of: span) {
        let path = String(match.output[1].substring!)
        // Placeholders and patterns name no one file.
        if path.contains(where: { "<>*{}".contains($0) }) || path.contains("NAME") || path.contains("...") { continue }
        // What a fuzz run or a benchmark writes (git ignores both) is not in the repository.
        if path.hasPrefix("Fuzz/artifacts") || path.hasPrefix("Benchmarks/.work") { continue }
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        checked += 1
        #expect(
          FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(trimmed).path), "\(page.path) names \(path), which does not exist")
      }
    }
  }

  /// The pages speak to users and contributors about the project, not about tickets or papers they cannot see.
  @Test func pagesSpeakOfTheProjectAlone() throws {
    let private_ = try Regex(#"(?i)\bthe (channel )?seed\b|\bthe issue\b|\bissue #?[0-9]+|\bticket\b"#)
    for page in Self.pages {
      for match in page.text.matches(of: private_) {
        Issue.record("\(page.path) speaks of '\(page.text[match.range])', which a reader cannot see")
      }
    }
  }

  /// A page that says how the product behaves reports no test run and no machine: measured figures,
  /// with how to reproduce them, the machine's load, commits and dates, and run logs are the maintainers'
  /// pages' (docs/development/). Code blocks are examples of what a user types and sees, and are not read.
  @Test func userPagesReportNoTestRunsMachinesOrCommits() throws {
    let patterns: [(what: String, regex: Regex<AnyRegexOutput>)] = [
      (
        "a test run or the machine's load",
        try Regex(
          #"(?i)\bload (average|about|of) [0-9]|\bload [0-9]+(\.[0-9]+)? ?[-–] ?[0-9]|\b(loaded|quiet|shared) machine\b|\bone run\b|\bmedians? of [0-9]|\bthree runs\b|\bsince replaced\b|\bwhich it used before\b|\bCPU-(minutes|seconds)\b"#
        )
      ),
      ("a date", try Regex(#"\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\b"#)),
      ("a run log", try Regex(#"#[0-9]+\s+(INITED|NEW|REDUCE|pulse|DONE)\b|\bci: [a-z].*: [0-9]+ s\b"#)),
    ]
    // A commit: 7 to 12 hexadecimal digits with a letter and a digit among them, standing alone (not part
    // of a UUID, a path or an anchor).
    let hexadecimal = try Regex(#"(?:^|[^-\w/.#])([0-9a-f]{7,12})(?![-\w])"#)
    var checked = 0
    for page in Self.userPages {
      checked += 1
      let prose = Self.prose(of: page.text)
      for (what, regex) in patterns {
        for match in prose.matches(of: regex) {
          Issue.record("\(page.path) reports \(what), '\(prose[match.range])': measurements and their runs go to docs/development/")
        }
      }
      for match in prose.matches(of: hexadecimal) {
        guard let digits = match.output[1].substring, digits.contains(where: \.isNumber), digits.contains(where: \.isLetter) else { continue }
        Issue.record("\(page.path) names a commit, '\(digits)': measurements and their runs go to docs/development/")
      }
    }
    #expect(checked > 10)
  }

  /// The part of the maintainers' pages this test must not pass: the figures are there.
  @Test func maintainersPagesHoldTheMeasurements() throws {
    let benchmarks = try #require(Self.pages.first { $0.path == "docs/development/benchmarks.md" }, "docs/development/benchmarks.md")
    #expect(benchmarks.text.contains("load"), "the benchmarks page says under what load each figure was measured")
    #expect(Self.pages.contains { $0.path == "docs/development/fuzzing.md" })
    #expect(Self.pages.contains { $0.path == "docs/development/architecture.md" })
  }

  /// A page without its fenced code blocks.
  static func prose(of markdown: String) -> String {
    var inFence = false
    var lines: [Substring] = []
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
        inFence.toggle()
        continue
      }
      if !inFence { lines.append(line) }
    }
    return lines.joined(separator: "\n")
  }

  /// GitHub's anchors: each heading lower-cased, without punctuation but '-' and '_', spaces as '-'.
  static func anchors(of markdown: String) -> Set<String> {
    var anchors: Set<String> = []
    var inFence = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") { inFence.toggle() }
      guard !inFence, line.hasPrefix("#") else { continue }
      let title = line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces)
      var anchor = ""
      for character in title.lowercased() {
        if character.isLetter || character.isNumber || character == "-" || character == "_" {
          anchor.append(character)
        } else if character == " " {
          anchor.append("-")
        }
      }
      anchors.insert(anchor)
    }
    return anchors
  }

  private func normalized(_ path: String) -> String {
    var components: [Substring] = []
    for component in path.split(separator: "/") {
      if component == ".." { _ = components.popLast() } else if component != "." { components.append(component) }
    }
    return components.joined(separator: "/")
  }
}
