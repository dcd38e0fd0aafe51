import Foundation
import Testing
import TrackcCore
import TrackcTestSupport

/// Output files (`scan --output`, `init --output`, generated code) are written only when they change,
/// atomically, and never by replacing something that is not a regular file.
@Suite struct FileSystemTests {
  @Test func unchangedContentIsNotRewritten() throws {
    let scratch = try ScratchDirectory("fs")
    defer { scratch.remove() }
    let path = scratch.path + "/deep/er/out.json"
    #expect(FileSystem.write(Array("one\n".utf8), to: path) == .written)
    let before = try FileIdentity(path)
    #expect(FileSystem.write(Array("one\n".utf8), to: path) == .unchanged)
    #expect(try FileIdentity(path) == before, "rewritten though unchanged")
    #expect(FileSystem.write(Array("two\n".utf8), to: path) == .written)
    #expect(try FileIdentity(path) != before, "an atomic write replaces the file")
    #expect(try scratch.read("deep/er/out.json") == "two\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/deep/er") == ["out.json"], "no temporary file left")
  }

  @Test func modeIsKept() throws {
    let scratch = try ScratchDirectory("fs")
    defer { scratch.remove() }
    let path = try scratch.write("script.sh", "old")
    try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: path)
    #expect(FileSystem.writeIfChanged("new", to: path))
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o750)
  }

  @Test func symbolicLinksAreWrittenThrough() throws {
    let scratch = try ScratchDirectory("fs")
    defer { scratch.remove() }
    let target = try scratch.write("real/handlers.json", "old")
    let link = scratch.path + "/handlers.json"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/handlers.json")
    #expect(FileSystem.writeIfChanged("new", to: link))
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real/handlers.json")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
  }

  @Test func devicesAreWrittenIntoNotReplaced() throws {
    #expect(FileSystem.writeIfChanged("discarded", to: "/dev/null"))
    let attributes = try FileManager.default.attributesOfItem(atPath: "/dev/null")
    #expect(attributes[.type] as? FileAttributeType == .typeCharacterSpecial)
  }

  @Test func directoriesAreNotReplaced() throws {
    let scratch = try ScratchDirectory("fs")
    defer { scratch.remove() }
    try FileManager.default.createDirectory(atPath: scratch.path + "/out", withIntermediateDirectories: false)
    #expect(!FileSystem.writeIfChanged("text", to: scratch.path + "/out"))
    #expect(FileSystem.isDirectory(scratch.path + "/out"))
  }
}
