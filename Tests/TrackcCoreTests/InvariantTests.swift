import Foundation
import Testing
import TrackcCore
import TrackcInvariants
import TrackcLinks
import TrackcTestSupport

/// The laws the fuzz targets check (`TrackcInvariants`), held here on the fixtures and on every input a
/// fuzzer once broke one with (`Tests/Fixtures/fuzz/<target>/`, each named for what it broke), so that
/// `swift test` keeps them without a fuzzer build. The regressions have a time limit: some were hangs.
@Suite struct InvariantTests {
  static let regressions = Fixtures.directory.appendingPathComponent("fuzz")

  static func regressions(_ target: String) -> [URL] {
    let folder = regressions.appendingPathComponent(target)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().map { folder.appendingPathComponent($0) }
  }

  static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

  /// Every config in the fixture folders, the hostile ones included.
  static let fixtureConfigs = ["valid", "invalid", "findings", "hostile", "app"].flatMap { Fixtures.configs(in: $0) }

  @Test func fixturesAreFound() {
    #expect(Self.fixtureConfigs.count > 40)
  }

  /// The fuzz targets whose regressions a test replays: here, and in the runtime's and the collector's
  /// tests (`RuntimeFuzzingTests`, `CollectorRequestFuzzingTests`).
  static let replayedTargets = ["lint", "names", "registry", "links", "scan-cache", "adopt", "journal", "remote-config", "collector-request"]

  /// A parameterised test over an empty folder runs nothing and passes, so every folder the tests read
  /// inputs from must hold some, and every folder of regressions must be one a test replays.
  @Test func everyInputFolderHasInputs() throws {
    for folder in ["valid", "invalid", "findings", "hostile", "app"] {
      #expect(!Fixtures.configs(in: folder).isEmpty, "no configs in Tests/Fixtures/\(folder)")
    }
    let folders = try FileManager.default.contentsOfDirectory(atPath: Self.regressions.path)
    #expect(Set(folders) == Set(Self.replayedTargets), "regression folders without a replaying test, or the other way round")
    for target in Self.replayedTargets {
      #expect(!Self.regressions(target).isEmpty, "no regressions in Tests/Fixtures/fuzz/\(target)")
    }
  }

  @Test(arguments: fixtureConfigs)
  func diagnosticsPointInsideTheFixture(config: URL) throws {
    #expect(Invariants.lintViolations(try Self.bytes(config)) == [])
  }

  @Test(arguments: HostileCorpus.generated.filter { $0.name != "generated-50mb" })
  func diagnosticsPointInsideGeneratedHostileInput(input: HostileCorpus.Generated) {
    #expect(Invariants.lintViolations(input.make()) == [])
  }

  /// Links keep their laws (`Invariants.linkViolations`): the link fuzz target's committed corpus, and
  /// links built to break them.
  static let links: [[UInt8]] = {
    let corpus = Fixtures.repositoryRoot.appendingPathComponent("Fuzz/corpus/links")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
    return names.sorted().compactMap { try? bytes(corpus.appendingPathComponent($0)) } + regressions("links").compactMap { try? bytes($0) }
      + [
        "shop://a//", "mailto:x", "https:/a",
        // Found by the links target: no host, and a path of one empty segment and a trailing slash.
        "shop:////", "https://h.example/a%2F%2E%2E/%2e?%26=%3D&+=+", "shop://..",
        "https://h.example/" + String(repeating: "%E2%82%AC", count: 400), "https://h.example/a/b/?x=%F0%9F%98%80#f",
        // What Foundation's `URL(string:)` escapes: the text and the URL read alike.
        "https://h.example/%41 b?q=%zz", "https://h.example/a%2?q=a b#c d", "shop://p:/a b", "shop://@x@p/a", "https://bücher.example/a",
      ].map { Array($0.utf8) }
  }()

  /// The law holds trivially for a refused link, so most of the seeds must be read: a reader that refused
  /// everything would fail here.
  @Test func thereAreLinkSeedsAndMostAreRead() {
    #expect(Self.links.count >= 10)
    let links = Self.links.filter { $0.first != UInt8(ascii: "!") }
    let read = links.filter { link in
      if case .success = link.withUnsafeBufferPointer({ ParsedLink.parse(utf8: $0, rules: LinkRules()) }) { return true }
      return false
    }
    #expect(read.count * 2 > links.count, "\(read.count) of \(links.count) links read")
    for link in ["shop://a//", "https://h.example/a%2F%2E%2E/%2e?%26=%3D&+=+", "https://h.example/a/b/?x=%F0%9F%98%80#f"] {
      #expect(read.contains(Array(link.utf8)), "\(link) is not read")
    }
  }

  @Test(arguments: links)
  func linksAreRefusedOrPrintBackToThemselves(link: [UInt8]) {
    #expect(Invariants.linksTargetViolations(link) == [], "\(String(decoding: link, as: UTF8.self))")
  }

  /// The link target's pattern seeds (after `!`) are read as patterns: each lints to a plan whose
  /// patterns and overlaps keep their laws, and a pattern that cannot match is refused by lint.
  @Test func patternSeedsAreReadAsPatterns() throws {
    let seeds = Self.links.filter { $0.first == UInt8(ascii: "!") }
    #expect(seeds.count >= 5)
    // Two patterns no link can share (an int is never a UUID): the law finds nothing to report.
    #expect(Invariants.linksTargetViolations(Array("!\n/a/{x:int}\n/a/{y:uuid}\n\nhttps://shop.example.com/a/1\n".utf8)) == [])
  }

  /// Configs of bindings against the cross-module fixture (`Invariants.bindingViolations`): the binding
  /// target's corpus and the fixture's own config generate code that imports what it reads.
  static let bindingConfigs: [[UInt8]] = {
    let corpus = Fixtures.repositoryRoot.appendingPathComponent("Fuzz/corpus/bindings")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
    return [CrossModuleFixture.config] + names.sorted().compactMap { try? bytes(corpus.appendingPathComponent($0)) }
  }()

  @Test(arguments: bindingConfigs)
  func bindingConfigsGenerateCodeThatImportsWhatItReads(config: [UInt8]) {
    #expect(Invariants.bindingViolations(config) == [], "\(String(decoding: config, as: UTF8.self))")
  }

  /// The import law sees a file that casts to another module's screen without importing it (what the
  /// generator wrote before it imported what captures reach).
  @Test func theImportLawCatchesAMissingImport() throws {
    let lint = Invariants.lint(CrossModuleFixture.config, code: .registry(path: "handlers.json", bytes: InputBytes(CrossModuleFixture.registryJSON)))
    let registry = try #require(lint.code?.index.registry)
    let generated = Generator.generate(lint, options: Generator.Options(name: "Tracking", configFileName: "cross-module.yaml"))
    let file = try #require(generated.files.first { $0.name == "Tracking+GenerateFixtureUI.swift" })
    #expect(Invariants.importViolations(file, registry: registry) == [])
    var broken = file
    broken.contents = file.contents.replacingOccurrences(of: "@testable import GenerateFixtureCart\n", with: "")
    #expect(Invariants.importViolations(broken, registry: registry).contains { $0.contains("casts to 'CartScreen'") })
    broken.contents = file.contents.replacingOccurrences(of: "@testable import GenerateFixtureCart", with: "import GenerateFixtureCart")
    #expect(Invariants.importViolations(broken, registry: registry).contains { $0.contains("reads 'itemCount'") })
  }

  /// The configs that lint clean against their own sources generate Swift that parses and reads back.
  @Test(arguments: [
    "Tests/GenerateFixtures/tracking.yaml", "Tests/GenerateFixtures/hostile.yaml", "Examples/Shop/tracking.yaml", "Tests/Fixtures/app/dynamic.yaml",
  ])
  func generatedCodeParsesAndReadsBack(config: String) throws {
    let lint = try Fixtures.lint(inPlace: Fixtures.repositoryRoot.appendingPathComponent(config))
    #expect(!lint.diagnostics.hasErrors, "\(TextDiagnosticRenderer.render(lint.diagnostics))")
    #expect(Invariants.generatedCodeViolations(lint) == [])
  }

  /// The law is not vacuous: a position past the end of a line, or past the last line, is caught.
  @Test func positionsOutsideTheInputAreCaught() {
    let input = Array("ab\r\ncdé\n".utf8)
    func diagnostic(_ line: Int, _ column: Int) -> Diagnostic {
      Diagnostic(.error, rule: "test", "test", at: SourceLocation(file: "f", line: line, column: column))
    }
    let inside = [diagnostic(1, 3), diagnostic(2, 4), diagnostic(3, 1)]
    #expect(Invariants.positionViolations(in: inside, file: "f", input: input) == [])
    for outside in [diagnostic(1, 4), diagnostic(2, 5), diagnostic(4, 1), diagnostic(0, 1), diagnostic(1, 0)] {
      #expect(Invariants.positionViolations(in: [outside], file: "f", input: input).count == 1)
    }
    #expect(Invariants.positionViolations(in: [diagnostic(9, 9)], file: "other", input: input) == [])
  }

  @Test(.timeLimit(.minutes(TimeLimits.minutes(1))), arguments: regressions("lint"))
  func lintRegression(input: URL) throws {
    #expect(Invariants.lintViolations(try Self.bytes(input)) == [])
  }

  @Test(.timeLimit(.minutes(TimeLimits.minutes(1))), arguments: regressions("names"))
  func namesRegression(input: URL) throws {
    #expect(Invariants.namesViolations(String(decoding: try Self.bytes(input), as: UTF8.self)) == [])
  }

  @Test(.timeLimit(.minutes(TimeLimits.minutes(1))), arguments: regressions("registry"))
  func registryRegression(input: URL) throws {
    #expect(Invariants.registryViolations(try Self.bytes(input)) == [])
  }

  /// `trackc adopt`'s laws (`Invariants.adoptViolations`): each fixture file of the adopt tests (the call
  /// shapes of the apps it was measured on), alone, in snake case, and all in one file.
  static let adoptInputs =
    AdoptFixtures.all.map(\.text) + AdoptFixtures.all.map { "// snake_case\n" + $0.text } + [
      AdoptFixtures.all.map(\.text).joined(separator: "\n")
    ]

  @Test(.timeLimit(.minutes(TimeLimits.minutes(1))), arguments: adoptInputs)
  func adoptLawsHold(_ text: String) {
    #expect(Invariants.adoptViolations(Array(text.utf8)) == [])
  }

  /// The read-back law fails on a plan that says something else than the calls, and the rewrite law on a
  /// rewrite that cuts a byte it should not.
  @Test func adoptLawsCatchWhatTheyGuard() throws {
    let text = AdoptFixtures.all.map(\.text).joined(separator: "\n")
    let options = Invariants.adoptOptions(for: text)
    let result = Adopter.adopt(.files([(Invariants.adoptSourcePath, text)]), options: options)
    let lint = Linter.lint(ConfigSource(path: Invariants.configPath, text: result.plan), options: LintOptions())
    let config = try #require(lint.config)
    #expect(Invariants.planReadBackViolations(result.events, config: config) == [])
    var renamed = result.events
    renamed[0].wireName += " (renamed)"
    #expect(Invariants.planReadBackViolations(renamed, config: config).count == 1)

    let source = Array(text.utf8)
    let removals = result.events.compactMap(\.call.removal)
    let hash = try #require(result.fileHashes[Invariants.adoptSourcePath])
    let rewritten = try CallRemover.remove(removals, from: source, file: Invariants.adoptSourcePath, expectedHash: hash).get()
    #expect(Invariants.rewriteViolations(source, rewritten, removals: removals, result: result, options: options) == [])
    let firstKept = try #require(
      source.indices.first { index in !removals.flatMap(\.statements).contains { $0.contains(index) } && source[index] > 0x20 })
    var cut = rewritten
    cut.remove(at: firstKept)
    #expect(!Invariants.rewriteViolations(source, cut, removals: removals, result: result, options: options).isEmpty)
  }

  @Test(.timeLimit(.minutes(TimeLimits.minutes(1))), arguments: regressions("adopt"))
  func adoptRegression(input: URL) throws {
    #expect(Invariants.adoptViolations(try Self.bytes(input)) == [])
  }
}
