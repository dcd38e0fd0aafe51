import Foundation
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// The fixture app (`Tests/Fixtures/app`: several modules, extensions across files, a subclass
/// inheriting handlers, overloads, `#if`, private handlers, marked handlers) against its configs: the
/// complete ones are clean, the broken ones give the committed findings, and together they trigger
/// every cross-check rule in both directions.
@Suite struct CodeCheckTests {
  static let app = Fixtures.directory.appendingPathComponent("app")
  static let clean = ["tracking.yaml", "dynamic.yaml", "kinds.yaml", "kinds-dynamic.yaml"].map { app.appendingPathComponent($0) }
  static let broken = [
    "config-to-code.yaml", "code-to-config.yaml", "dynamic-broken.yaml", "bindings-broken.yaml", "kinds-broken.yaml", "privacy-broken.yaml",
  ].map {
    app.appendingPathComponent($0)
  }

  /// Lints a config of the app, scanning its `sources` without a cache; paths in the output are relative
  /// to `Tests/Fixtures`, whichever directory the tests run in.
  static func lint(_ config: URL, code: CodeInput? = nil) throws -> (result: LintResult, rendered: String) {
    let result = try Fixtures.lint(inPlace: config, code: code)
    let rendered = TextDiagnosticRenderer.render(result.diagnostics)
      .replacingOccurrences(of: Fixtures.directory.standardizedFileURL.path + "/", with: "")
    return (result, rendered)
  }

  static func sources() throws -> [(path: String, text: String)] {
    let root = app.appendingPathComponent("Sources")
    let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
    return try enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map {
      ("app/Sources/" + $0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8))
    }
  }

  @Test(arguments: clean)
  func completeConfigsAreClean(config: URL) throws {
    let (result, rendered) = try Self.lint(config)
    #expect(result.diagnostics.isEmpty, "\(rendered)")
  }

  @Test(arguments: broken)
  func brokenConfigsMatchGolden(config: URL) throws {
    let (result, rendered) = try Self.lint(config)
    #expect(result.diagnostics.hasErrors)
    Golden.check(rendered, matches: config.deletingPathExtension().appendingPathExtension("diagnostics.txt"))
  }

  /// Every code rule but the two about unreadable input is triggered by the app, and none by the
  /// complete configs (checked above).
  @Test func theAppTriggersEveryCrossCheckRule() throws {
    var triggered = Set<String>()
    for config in Self.broken { triggered.formUnion(try Self.lint(config).result.diagnostics.map(\.ruleID)) }
    let crossChecks = Set(RuleCatalog.all.filter { $0.phase.kind == .code }.map { $0.id })
    #expect(crossChecks.isSubset(of: triggered), "not triggered: \(crossChecks.subtracting(triggered).sorted())")
  }

  /// The original design's failure: a handler renamed in the code while the config keeps the old name.
  @Test func renamedHandlerIsCaughtWithADidYouMean() throws {
    let renamed = try Self.sources().map { file in
      (file.path, file.text.replacingOccurrences(of: "func onFavBtnPressed(_ sender: UIButton)", with: "func onMyFavBtnPressed(_ sender: UIButton)"))
    }
    #expect(renamed.map(\.1) != (try Self.sources()).map(\.text))
    let (result, rendered) = try Self.lint(Self.clean[0], code: .sources(.files(renamed)))
    #expect(result.diagnostics.count == 1, "\(rendered)")
    #expect(
      rendered.hasPrefix(
        "app/tracking.yaml:15:7: error: 'HomeViewController' has no handler 'onFavBtnPressed(_:)'; did you mean 'onMyFavBtnPressed(_:)'? [unknown-handler]"
      ), "\(rendered)")
  }

  /// A new handler marked for tracking but not yet in the config is caught at its declaration.
  @Test func newMarkedHandlerIsCaughtAtItsDeclaration() throws {
    var files = try Self.sources()
    files.append(
      ("app/Sources/Cart/CartViewController.swift", "class CartViewController: BaseViewController {\n  @objc func onCheckout_UA(_ s: Any) {}\n}\n"))
    let (result, rendered) = try Self.lint(Self.clean[0], code: .sources(.files(files)))
    #expect(result.diagnostics.map(\.ruleID) == ["unmapped-screen", "untracked-handler"], "\(rendered)")
    #expect(
      rendered.contains(
        "app/Sources/Cart/CartViewController.swift:2:14: error: handler 'onCheckout_UA(_:)' of 'CartViewController' is marked for tracking"))
  }

  /// The registry written by a scan, read back with `--handlers`, gives the same findings as the scan.
  @Test(arguments: broken + clean)
  func registryFileGivesTheSameFindingsAsScanning(config: URL) throws {
    // The kinds of screen have sources of their own (`sources: [Kinds/Sources]`).
    let sources = config.lastPathComponent.hasPrefix("kinds") ? "Kinds/Sources" : "Sources"
    let scanned = SourceScanner.scan(.paths([Self.app.appendingPathComponent(sources).path]), options: ScanOptions(useCache: false))
    let registry = InputBytes(Array(scanned.registry.json().utf8))
    let (fromRegistry, _) = try Self.lint(config, code: .registry(path: "handlers.json", bytes: registry))
    let (fromSources, _) = try Self.lint(config)
    #expect(fromRegistry.diagnostics == fromSources.diagnostics)
  }

  @Test func registryRoundTrips() throws {
    let scanned = SourceScanner.scan(.paths([Self.app.appendingPathComponent("Sources").path]), options: ScanOptions(useCache: false))
    let json = scanned.registry.json()
    let decoded = HandlerRegistry.decode(InputBytes(Array(json.utf8)))
    #expect(decoded.problems.isEmpty)
    #expect(decoded.registry == scanned.registry)
    #expect(decoded.registry?.json() == json)
  }

  /// Every string reaches the JSON escaped, whatever it holds.
  @Test func registryJSONEscapesEverything() throws {
    let awkward = "quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} slash / é 🏠 \u{2028}"
    let location = RegistryLocation(file: awkward, line: 1, column: 1)
    let method = DeclaredMethod(
      name: "f(_:)", isStatic: false, access: .internal, attributes: [awkward], objcSelector: nil, derivedSelector: "f:",
      inGenericContext: false, conditional: false, documentation: awkward, location: location)
    let type = DeclaredType(
      name: "T", module: awkward, kind: .class, inheritance: [awkward], isGeneric: false, objcMembers: false, conditional: false,
      access: .public, location: location, extensions: [location], methods: [method])
    let registry = HandlerRegistry(types: [type])
    let json = registry.json()
    let decoded = try JSONDecoder().decode(HandlerRegistry.self, from: Data(json.utf8))
    #expect(decoded == registry)
    #expect(!json.contains("\u{0}"))
  }

  struct BadRegistry: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var line: Int
    var column: Int
    var message: String
    var testDescription: String { name }
  }

  static let badRegistries: [BadRegistry] = [
    BadRegistry(name: "syntax", text: "{\"version\": 1,\n \"types\": [}\n", line: 2, column: 12, message: "expected a value here"),
    BadRegistry(
      name: "missing field", text: "{\"version\": 1,\n \"types\": [\n  {\"name\": \"A\"}\n ]}\n", line: 3, column: 3,
      message: "this registry entry has no 'access'"),
    BadRegistry(
      name: "wrong type", text: "{\"version\": 1,\n \"types\": [{\"name\": 42}]}\n", line: 2, column: 21,
      message: "Expected to decode String but found number"),
    BadRegistry(name: "other version", text: "{\"version\": 7, \"types\": []}\n", line: 1, column: 13, message: "format version 7"),
    BadRegistry(name: "not an object", text: "[1, 2, 3]\n", line: 1, column: 1, message: "this registry value is invalid"),
    BadRegistry(name: "empty", text: "", line: 1, column: 1, message: "the registry file is empty"),
  ]

  @Test(arguments: badRegistries)
  func badRegistryFilesAreErrorsAtTheirPosition(_ bad: BadRegistry) throws {
    let (result, rendered) = try Self.lint(Self.clean[0], code: .registry(path: "handlers.json", bytes: InputBytes(Array(bad.text.utf8))))
    let first = try #require(result.diagnostics.first, "no finding")
    #expect(first.location.file == "handlers.json", "\(rendered)")
    #expect(first.location.line == bad.line && first.location.column == bad.column, "\(rendered)")
    #expect(first.message.contains(bad.message), "\(rendered)")
    #expect(first.severity == .error)
  }

  @Test func binaryJunkRegistryIsAnError() {
    let junk = InputBytes(HostileCorpus.binaryJunk(count: 10_000))
    let decoded = HandlerRegistry.decode(junk)
    #expect(decoded.registry == nil)
    // Not even JSON: the YAML reader says why and where.
    guard case .notJSON(let problems)? = decoded.problems.first, !problems.isEmpty else {
      Issue.record("expected the YAML reader's problems, found \(decoded.problems)")
      return
    }
  }
}
