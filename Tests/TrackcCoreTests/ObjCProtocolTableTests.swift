import Foundation
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// `ObjCProtocols`, the UIKit delegate and data-source requirements trackc knows, against the iOS SDK:
/// a `#selector(Protocol.requirement)` of every entry is compiled against the SDK kit (`swiftc-ios
/// -emit-ir`), so every Swift name must be a requirement of its protocol, and the selectors Swift emits
/// for them must be exactly the table's.
@Suite struct ObjCProtocolTableTests {
  @Test(.requires(.iosSDK)) func everySelectorIsTheOneSwiftEmits() throws {
    let compiler = try #require(TestTool.iosCompiler)
    let entries = ObjCProtocols.requirements.flatMap { protocolName, requirements in
      requirements.map { (protocolName: protocolName, swiftName: $0.key, selector: $0.value) }
    }.sorted { ($0.protocolName, $0.swiftName) < ($1.protocolName, $1.swiftName) }
    #expect(entries.count >= 90)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackc-selectors-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let source =
      "import UIKit\n" + entries.enumerated().map { "let s\($0.offset) = #selector(\($0.element.protocolName).\($0.element.swiftName))\n" }.joined()
    try source.write(to: folder.appendingPathComponent("Selectors.swift"), atomically: true, encoding: .utf8)
    let output = try ProcessRunner.run(
      compiler, ["-emit-ir", "-parse-as-library", "Selectors.swift", "-o", "Selectors.ll"], currentDirectory: folder)
    try #require(output.status == 0, "\(output.standardError)")
    let ir = try String(contentsOf: folder.appendingPathComponent("Selectors.ll"), encoding: .utf8)
    // `@"\01L_selector_data(tableView:didSelectRowAtIndexPath:)"`: every selector the file uses.
    var emitted = Set<String>()
    for line in ir.split(separator: "\n") where line.hasPrefix("@\"\\01L_selector_data(") {
      emitted.insert(String(line.dropFirst("@\"\\01L_selector_data(".count).prefix { $0 != ")" }))
    }
    #expect(emitted == Set(entries.map(\.selector)))
  }
}
