import Foundation
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// The generated privacy manifest: Python's `plistlib` (a reader that is not trackc's) reads it back as
/// exactly what the plan says, and no string in a config can add a key, a value or an element to it.
@Suite(.requires(.plistlib)) struct PrivacyManifestTests {
  struct ReadBack: Decodable {
    var plists: [String: Manifest]
    var errors: [String: String]
  }

  struct Manifest: Decodable, Equatable {
    struct Collected: Decodable, Equatable {
      var NSPrivacyCollectedDataType: String
      var NSPrivacyCollectedDataTypeLinked: Bool
      var NSPrivacyCollectedDataTypeTracking: Bool
      var NSPrivacyCollectedDataTypePurposes: [String]
    }
    var NSPrivacyAccessedAPITypes: [String]
    var NSPrivacyCollectedDataTypes: [Collected]
    var NSPrivacyTracking: Bool
    var NSPrivacyTrackingDomains: [String]
  }

  /// Reads `files` (name and contents) with plistlib.
  static func readBack(_ files: [(name: String, contents: String)]) throws -> ReadBack {
    let scratch = try ScratchDirectory("privacy-manifest")
    defer { scratch.remove() }
    let paths = try files.map { try scratch.write($0.name, $0.contents) }
    let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Schema/read_plists.py").path
    let output = try PythonEnvironment.run(PythonPackages.standardLibrary, [script] + paths)
    try #require(output.status == 0, "read_plists.py failed: \(output.standardError)")
    var read = try JSONDecoder().decode(ReadBack.self, from: Data(output.standardOutput.utf8))
    // By the names given, not the scratch paths.
    for (path, name) in zip(paths, files.map(\.name)) {
      read.plists[name] = read.plists.removeValue(forKey: path)
      read.errors[name] = read.errors.removeValue(forKey: path)
    }
    return read
  }

  /// What the manifest must say, worked out from the plan independently of the writer.
  static func expected(_ plan: ResolvedPlan) -> Manifest {
    Manifest(
      NSPrivacyAccessedAPITypes: [],
      NSPrivacyCollectedDataTypes: plan.privacy.collected.map {
        Manifest.Collected(
          NSPrivacyCollectedDataType: $0.dataType.manifestValue, NSPrivacyCollectedDataTypeLinked: $0.linked,
          NSPrivacyCollectedDataTypeTracking: $0.tracking, NSPrivacyCollectedDataTypePurposes: $0.purposes.map(\.manifestValue))
      }, NSPrivacyTracking: plan.privacy.tracking, NSPrivacyTrackingDomains: plan.privacy.trackingDomains)
  }

  @Test func theFixtureManifestReadsBackAsThePlan() throws {
    let config = Fixtures.directory.appendingPathComponent("valid/privacy.yaml")
    let lint = try Fixtures.lint(config)
    let generated = Generator.generate(lint, options: Generator.Options(configFileName: "privacy.yaml"))
    #expect(!generated.diagnostics.hasErrors)
    let manifest = try #require(generated.platformFiles.first { $0.name == "Generated/PrivacyInfo.xcprivacy" })
    let read = try Self.readBack([("PrivacyInfo.xcprivacy", manifest.contents)])
    #expect(read.errors.isEmpty, "\(read.errors)")
    let plan = try #require(lint.plan)
    #expect(read.plists["PrivacyInfo.xcprivacy"] == Self.expected(plan))
    // What the fixture declares, spelt out: eight data types in Apple's order (the events are product
    // interaction, the context other diagnostic data), tracking through two domains.
    #expect(
      read.plists["PrivacyInfo.xcprivacy"]?.NSPrivacyCollectedDataTypes.map(\.NSPrivacyCollectedDataType) == [
        "NSPrivacyCollectedDataTypeEmailAddress", "NSPrivacyCollectedDataTypePreciseLocation", "NSPrivacyCollectedDataTypeSearchHistory",
        "NSPrivacyCollectedDataTypeUserID", "NSPrivacyCollectedDataTypeDeviceID", "NSPrivacyCollectedDataTypeProductInteraction",
        "NSPrivacyCollectedDataTypeCrashData", "NSPrivacyCollectedDataTypeOtherDiagnosticData",
      ])
    #expect(read.plists["PrivacyInfo.xcprivacy"]?.NSPrivacyTrackingDomains == ["ads.example.com", "xn--bcher-kva.example"])
  }

  /// The example app's manifest, as committed, is what its plan says: the events (product interaction),
  /// the identity (device and user IDs), the device's context (other diagnostic data) and its purchase
  /// properties, for the two destinations' purposes.
  @Test func theShopManifestIsItsPlan() throws {
    let config = Fixtures.repositoryRoot.appendingPathComponent("Examples/Shop/tracking.yaml")
    let plan = try #require(try Fixtures.lint(config).plan)
    let committed = try String(
      contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Examples/Shop/Sources/ShopTracking/PrivacyInfo.xcprivacy"), encoding: .utf8)
    let read = try Self.readBack([("shop.xcprivacy", committed)])
    #expect(read.errors.isEmpty, "\(read.errors)")
    let manifest = try #require(read.plists["shop.xcprivacy"])
    #expect(manifest == Self.expected(plan))
    #expect(
      manifest.NSPrivacyCollectedDataTypes.map(\.NSPrivacyCollectedDataType) == [
        "NSPrivacyCollectedDataTypeUserID", "NSPrivacyCollectedDataTypeDeviceID", "NSPrivacyCollectedDataTypePurchaseHistory",
        "NSPrivacyCollectedDataTypeProductInteraction", "NSPrivacyCollectedDataTypeOtherDiagnosticData",
      ])
    let purposes = ["NSPrivacyCollectedDataTypePurposeAnalytics", "NSPrivacyCollectedDataTypePurposeProductPersonalization"]
    #expect(
      manifest.NSPrivacyCollectedDataTypes.allSatisfy { $0.NSPrivacyCollectedDataTypePurposes == purposes && $0.NSPrivacyCollectedDataTypeLinked })
    #expect(!manifest.NSPrivacyTracking && manifest.NSPrivacyTrackingDomains.isEmpty)
    // The order ID of the shipped-order notification is purchase history too.
    #expect(plan.privacy.uses.contains { $0.source == .routeParameter(event: plan.event(ofEntryPoint: 1)!.id, name: "order_id") })
  }

  /// The runtime's own manifest declares exactly the required-reason API categories its sources call,
  /// found by the API names Apple lists for each ("Describing use of required reason API").
  @Test func theRuntimeDeclaresTheRequiredReasonAPIsItCalls() throws {
    let apis: [String: [String]] = [
      "NSPrivacyAccessedAPICategoryFileTimestamp": [
        "creationDate", "modificationDate", "fileModificationDate", "contentModificationDateKey", "creationDateKey", "getattrlist(",
        "getattrlistbulk(", "fgetattrlist(", " stat(", "fstat(", "fstatat(", "lstat(", "getattrlistat(",
      ],
      "NSPrivacyAccessedAPICategorySystemBootTime": ["systemUptime", "mach_absolute_time("],
      "NSPrivacyAccessedAPICategoryDiskSpace": [
        "volumeAvailableCapacityKey", "volumeAvailableCapacityForImportantUsageKey", "volumeAvailableCapacityForOpportunisticUsageKey",
        "volumeTotalCapacityKey", "systemFreeSize", "systemSize", "statfs(", "statvfs(", "fstatfs(", "fstatvfs(", "getattrlist(",
      ],
      "NSPrivacyAccessedAPICategoryActiveKeyboards": ["activeInputModes"],
      "NSPrivacyAccessedAPICategoryUserDefaults": ["UserDefaults", "NSUserDefaults"],
    ]
    let sources = Fixtures.repositoryRoot.appendingPathComponent("Sources/TrackcRuntime")
    var used: Set<String> = []
    let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
    for case let file as URL in files where file.pathExtension == "swift" {
      let code = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").filter {
        !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
      }
      .joined(separator: "\n")
      for (category, names) in apis where names.contains(where: { code.contains($0) }) { used.insert(category) }
    }
    let manifest = try String(contentsOf: sources.appendingPathComponent("PrivacyInfo.xcprivacy"), encoding: .utf8)
    let script = """
      import json, plistlib, sys
      m = plistlib.load(open(sys.argv[1], "rb"))
      print(json.dumps({e["NSPrivacyAccessedAPIType"]: e["NSPrivacyAccessedAPITypeReasons"] for e in m["NSPrivacyAccessedAPITypes"]}))
      """
    let scratch = try ScratchDirectory("runtime-manifest")
    defer { scratch.remove() }
    let path = try scratch.write("PrivacyInfo.xcprivacy", manifest)
    let output = try PythonEnvironment.run(PythonPackages.standardLibrary, ["-c", script, path])
    try #require(output.status == 0, "\(output.standardError)")
    let declared = try JSONDecoder().decode([String: [String]].self, from: Data(output.standardOutput.utf8))
    #expect(Set(declared.keys) == used, "declared \(declared.keys.sorted()), the sources call \(used.sorted())")
    // The reasons docs/privacy.md gives for each.
    #expect(
      declared == [
        "NSPrivacyAccessedAPICategoryFileTimestamp": ["C617.1"], "NSPrivacyAccessedAPICategorySystemBootTime": ["35F9.1"],
        "NSPrivacyAccessedAPICategoryUserDefaults": ["CA92.1"],
      ])
  }

  /// Privacy by default: the example app's plan with its `privacy` section (and the consent categories
  /// its destinations name) taken out still generates a manifest, beside the generated code, declaring
  /// what the runtime sends with every event (the anonymous ID, the events, the device's context) and
  /// what the plan's declared properties still say (purchase history), for the destinations' purposes.
  @Test func theShopWithoutItsPrivacySectionStillDeclaresWhatTheRuntimeSends() throws {
    let config = Fixtures.repositoryRoot.appendingPathComponent("Examples/Shop/tracking.yaml")
    var lines: [Substring] = []
    var inPrivacy = false
    for line in try String(contentsOf: config, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("privacy:") {
        inPrivacy = true
        continue
      }
      if inPrivacy && (line.isEmpty || line.hasPrefix(" ") || line.hasPrefix("#")) { continue }
      inPrivacy = false
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("consent:") { continue }
      lines.append(line)
    }
    let stripped = lines.joined(separator: "\n")
    #expect(!stripped.contains("privacy:") && !stripped.contains("consent:"))
    // Under its own directory, so that its sources resolve (the file itself is never written).
    let path = config.deletingLastPathComponent().appendingPathComponent("without-privacy.yaml").path
    let lint = Linter.lint(ConfigSource(path: path, text: stripped), options: Fixtures.options)
    #expect(!lint.diagnostics.hasErrors, "\(TextDiagnosticRenderer.render(lint.diagnostics))")
    let generated = Generator.generate(lint, options: Generator.Options(configFileName: "without-privacy.yaml"))
    #expect(generated.platformFiles.allSatisfy { !$0.name.hasSuffix("PrivacyInfo.xcprivacy") })
    let manifest = try #require(generated.resources.first { $0.name == "PrivacyInfo.xcprivacy" }, "the manifest goes beside the code")
    let read = try Self.readBack([("shop.xcprivacy", manifest.contents)])
    #expect(read.errors.isEmpty, "\(read.errors)")
    let plist = try #require(read.plists["shop.xcprivacy"])
    #expect(plist == Self.expected(try #require(lint.plan)))
    #expect(
      plist.NSPrivacyCollectedDataTypes.map(\.NSPrivacyCollectedDataType) == [
        "NSPrivacyCollectedDataTypeDeviceID", "NSPrivacyCollectedDataTypePurchaseHistory", "NSPrivacyCollectedDataTypeProductInteraction",
        "NSPrivacyCollectedDataTypeOtherDiagnosticData",
      ])
    #expect(plist.NSPrivacyCollectedDataTypes.allSatisfy { $0.NSPrivacyCollectedDataTypeLinked && !$0.NSPrivacyCollectedDataTypeTracking })
    #expect(!plist.NSPrivacyTracking)
  }

  /// Strings meant to break out of a `<string>` or the comment: lint refuses every one of them as a
  /// tracking domain, so the manifest is written here from the plan directly, as a config that slipped
  /// past lint would be. Each must come back as exactly itself, except the characters XML 1.0 cannot
  /// hold at all, which come back as U+FFFD; and the manifest must hold the four keys and nothing else.
  @Test func noStringInAConfigCanInjectIntoTheManifest() throws {
    let hostile = [
      "</string><key>NSPrivacyTracking</key><true/><string>",
      "]]><!-- --> <![CDATA[x]]>",
      "&amp; &#x0; &lt;dict&gt; &unknown;",
      "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY a \"b\">]>&a;",
      "line\nbreak\r\nreturn\ttab",
      "\u{202E}override \u{2028} \u{200B} façade 🏠 \"quoted\" 'single'",
      "nul \u{0} bell \u{7} escape \u{1B} noncharacter \u{FFFE}\u{FFFF}",
    ]
    let domains = hostile.map { "\"" + Self.yamlEscaped($0) + "\"" }.joined(separator: ", ")
    let source = """
      version: 1
      privacy: {manifest: PrivacyInfo.xcprivacy, identity: {anonymous_id: {data: device_id, tracking: true}}}
      destinations:
        ads: {purposes: [third_party_advertising], tracking_domains: [\(domains)]}
      screens: {}
      """
    let lint = Linter.lint(ConfigSource(path: "hostile.yaml", text: source))
    #expect(lint.diagnostics.filter { $0.ruleID == TrackingDomainRule.id }.count == hostile.count, "lint refuses every hostile domain")
    let plan = try #require(lint.plan)
    #expect(plan.privacy.trackingDomains.count == hostile.count, "the YAML read every string")
    let contents = PrivacyManifest.propertyList(plan, configFileName: "--> <plist>evil</plist> <!--\n.yaml")
    let read = try Self.readBack([("hostile.xcprivacy", contents)])
    #expect(read.errors.isEmpty, "\(read.errors)")
    let manifest = try #require(read.plists["hostile.xcprivacy"])
    #expect(manifest == Self.expected(plan).replacingDomains(with: plan.privacy.trackingDomains.map(Self.xmlRepresentable)))
    #expect(manifest.NSPrivacyTracking)
    // One comment, one line, still a comment.
    #expect(contents.split(separator: "\n")[2].hasPrefix("<!-- Generated by trackc from "))
    #expect(contents.components(separatedBy: "-->").count == 2)
  }

  @Test func writingEscapesWhatMarkupMeansAndWhatXMLCannotHold() {
    #expect(TextEscaping.markup("a & b < c > d \"e\" 'f' 🏠") == "a &amp; b &lt; c &gt; d &quot;e&quot; &#39;f&#39; 🏠")
    #expect(TextEscaping.markup("\r\n\t\u{0}\u{FFFE}") == "&#xD;&#xA;&#x9;\u{FFFD}\u{FFFD}")
    #expect(!TextEscaping.markupComment("a -- b --> c\nd ---").contains("--"))
    #expect(!TextEscaping.markupComment("a -- b --> c\nd ---").contains("\n"))
  }

  /// A plan that says only where its manifest goes still collects what the runtime sends (its events,
  /// the anonymous ID, the device's context), for analytics since no destination says otherwise, to
  /// every destination the app registers (which lint reports).
  @Test func aPlanThatSaysOnlyWhereTheManifestGoes() throws {
    let lint = Linter.lint(
      ConfigSource(
        path: "plain.yaml", text: "version: 1\nprivacy: {manifest: PrivacyInfo.xcprivacy}\nscreens: {Home: {page_events: {enter: HOME}}}\n"))
    #expect(lint.diagnostics.map(\.ruleID).contains(PurposeNotCoveredRule.id))
    let plan = try #require(lint.plan)
    let read = try Self.readBack([("plain.xcprivacy", PrivacyManifest.propertyList(plan, configFileName: "plain.yaml"))])
    let collected = ["DeviceID", "ProductInteraction", "OtherDiagnosticData"].map {
      Manifest.Collected(
        NSPrivacyCollectedDataType: "NSPrivacyCollectedDataType" + $0, NSPrivacyCollectedDataTypeLinked: true,
        NSPrivacyCollectedDataTypeTracking: false, NSPrivacyCollectedDataTypePurposes: ["NSPrivacyCollectedDataTypePurposeAnalytics"])
    }
    #expect(
      read.plists["plain.xcprivacy"]
        == Manifest(NSPrivacyAccessedAPITypes: [], NSPrivacyCollectedDataTypes: collected, NSPrivacyTracking: false, NSPrivacyTrackingDomains: []))
  }

  /// The text of a YAML double-quoted scalar that reads as `text`, in ASCII (libyaml refuses some
  /// characters written as themselves).
  static func yamlEscaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case _ where scalar.value < 0x20 || scalar.value >= 0x7F:
        result += String(format: "\\U%08X", scalar.value)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// What XML 1.0 can hold of `text`: every character it cannot, as U+FFFD.
  static func xmlRepresentable(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { scalar in
          switch scalar.value {
          case 0x09, 0x0A, 0x0D: return scalar
          case 0x00..<0x20, 0xFFFE, 0xFFFF: return "\u{FFFD}"
          default: return scalar
          }
        }))
  }
}

extension PrivacyManifestTests.Manifest {
  func replacingDomains(with domains: [String]) -> Self {
    var copy = self
    copy.NSPrivacyTrackingDomains = domains
    return copy
  }
}
