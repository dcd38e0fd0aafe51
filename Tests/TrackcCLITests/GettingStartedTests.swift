import Foundation
import Testing
import TrackcTestSupport

/// Every shell command of `docs/getting-started.md` runs as written. Each ` ```sh ` fence is run line by
/// line with `/bin/sh` (`trackc` is the built binary), in the folder its info string names (`cwd=...`,
/// relative to the repository; the repository itself otherwise), and must exit 0; a fence marked
/// `run=server` starts a collector, which must say where it listens. A fence that cannot run here is
/// preceded by `<!-- not run here: why -->`, and a fence with neither fails this test, so no command goes
/// unchecked silently.
@Suite struct GettingStartedTests {
  struct Fence {
    var line: Int
    var attributes: [String: String]
    var commands: [String]
    /// Why it is not run here, when the page says so.
    var notRun: String?
  }

  static func fences() throws -> [Fence] {
    let page = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/getting-started.md"), encoding: .utf8)
    let lines = page.components(separatedBy: "\n")
    var fences: [Fence] = []
    var index = 0
    while index < lines.count {
      let line = lines[index]
      guard line.hasPrefix("```") else {
        index += 1
        continue
      }
      let info = line.dropFirst(3).split(separator: " ").map(String.init)
      var body: [String] = []
      index += 1
      while index < lines.count, !lines[index].hasPrefix("```") {
        body.append(lines[index])
        index += 1
      }
      index += 1
      guard info.first == "sh" else { continue }
      var attributes: [String: String] = [:]
      for word in info.dropFirst() {
        let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
        attributes[parts[0]] = parts.count > 1 ? parts[1] : ""
      }
      let opening = index - body.count - 2
      let before = lines[..<opening].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
      var notRun: String?
      if before.hasPrefix("<!-- not run here:"), before.hasSuffix("-->") {
        notRun = before.dropFirst("<!-- not run here:".count).dropLast(3).trimmingCharacters(in: .whitespaces)
      }
      fences.append(
        Fence(line: opening + 1, attributes: attributes, commands: body.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }, notRun: notRun))
    }
    return fences
  }

  @Test func everyFenceIsRunOrSaysWhyNot() throws {
    let fences = try Self.fences()
    #expect(fences.count >= 8, "the page's shell commands were not found")
    for fence in fences {
      if let reason = fence.notRun {
        #expect(!reason.isEmpty, "the fence at line \(fence.line) is not run but says no reason")
      }
      for key in fence.attributes.keys { #expect(["cwd", "run"].contains(key), "line \(fence.line): unknown attribute '\(key)'") }
    }
    #expect(fences.filter { $0.notRun == nil }.count >= 5, "most of the page's commands must run here")
  }

  /// The commands that end: each exits 0.
  @Test func theCommandsRunAsWritten() throws {
    let bin = URL(fileURLWithPath: TrackcBinary.path).deletingLastPathComponent().path
    for fence in try Self.fences() where fence.notRun == nil && fence.attributes["run"] == nil {
      let directory = Fixtures.repositoryRoot.appendingPathComponent(fence.attributes["cwd"] ?? ".")
      for command in fence.commands {
        let output = try ProcessRunner.run("/bin/sh", ["-c", "PATH=\"\(bin):$PATH\"; \(command)"], currentDirectory: directory)
        #expect(output.status == 0, "line \(fence.line): `\(command)` exited \(output.status): \(output.standardOutput)\(output.standardError)")
      }
    }
  }

  /// The collectors the page starts: each listens where it says.
  @Test func theCollectorsStart() throws {
    for fence in try Self.fences() where fence.notRun == nil && fence.attributes["run"] == "server" {
      let directory = Fixtures.repositoryRoot.appendingPathComponent(fence.attributes["cwd"] ?? ".")
      for command in fence.commands {
        let words = command.split(separator: " ").map(String.init)
        try #require(
          Array(words.prefix(2)) == ["trackc", "collector"], "line \(fence.line): a server fence runs `trackc collector`, not `\(command)`")
        let collector = try CollectorCommandTests.RunningCollector(Array(words.dropFirst(2)), in: directory)
        let host = words.firstIndex(of: "--host").map { words[$0 + 1] } ?? "127.0.0.1"
        #expect(try collector.port(host: host) == 9000, "line \(fence.line): `\(command)`")
        _ = collector.interrupt()
      }
    }
  }
}
