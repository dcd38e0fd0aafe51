import Foundation
import SwiftParser
import SwiftSyntax
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// `trackc generate`'s output: the committed fixture output (compiled and run by GeneratedCodeTests)
/// is exactly what the generator writes today, and the pieces that keep it safe do what they say.
@Suite struct GeneratorTests {
  static let fixtures = Fixtures.repositoryRoot.appendingPathComponent("Tests/GenerateFixtures")
  static let output = fixtures.appendingPathComponent("Sources/GenerateFixtureTracking")

  static func generate(_ config: String, name: String) throws -> Generator.Result {
    let lint = try Fixtures.lint(inPlace: fixtures.appendingPathComponent(config))
    return Generator.generate(lint, options: Generator.Options(name: name, configFileName: config))
  }

  /// Re-record with `TRACKC_RECORD_GOLDENS=1 swift test` (the run fails while recording).
  @Test(arguments: [
    ("tracking.yaml", "FixtureTracking"), ("hostile.yaml", "HostileTracking"), ("objc-runtime.yaml", "ObjCTracking"),
    ("cross-module.yaml", "CrossModuleTracking"),
  ])
  func generatedCodeMatchesTheCompiledFixture(config: String, name: String) throws {
    let result = try Self.generate(config, name: name)
    #expect(!result.diagnostics.hasErrors, "\(TextDiagnosticRenderer.render(result.diagnostics))")
    #expect(!result.files.isEmpty)
    for file in result.files {
      Golden.check(file.contents, matches: Self.output.appendingPathComponent(file.name))
    }
    // The privacy manifest goes beside the code (none of these plans says where else): the fixture's
    // directory keeps tracking.yaml's.
    #expect(result.resources.map(\.name) == ["PrivacyInfo.xcprivacy"])
    if config == "tracking.yaml" {
      for file in result.resources { Golden.check(file.contents, matches: Self.output.appendingPathComponent(file.name)) }
    }
    if !Golden.isRecording {
      #expect(GeneratedOutput(directory: Self.output.path, name: name).changes(for: result.files) == [], "stale or missing files")
    }
  }

  /// The example's checked-in generated code (compiled and tested by the example's own package).
  @Test func exampleGeneratedCodeMatchesWhatIsCheckedIn() throws {
    let example = Fixtures.repositoryRoot.appendingPathComponent("Examples/Shop")
    let lint = try Fixtures.lint(inPlace: example.appendingPathComponent("tracking.yaml"))
    let result = Generator.generate(lint, options: Generator.Options(configFileName: "tracking.yaml"))
    #expect(!result.diagnostics.hasErrors, "\(TextDiagnosticRenderer.render(result.diagnostics))")
    let output = example.appendingPathComponent("Sources/ShopTracking")
    // The SwiftUI screens' modifier goes to a module the views import (`--swiftui-output`).
    let screens = example.appendingPathComponent("Sources/ShopScreens")
    let swiftUIFile = try #require(result.swiftUIFile)
    let files = result.files.filter { $0.name != swiftUIFile.name }
    for file in files {
      Golden.check(file.contents, matches: output.appendingPathComponent(file.name))
    }
    Golden.check(swiftUIFile.contents, matches: screens.appendingPathComponent(swiftUIFile.name))
    // The apple-app-site-association file and the Android manifest, where its `links` says, and the
    // privacy manifest, where its `privacy` says.
    #expect(
      result.platformFiles.map(\.name) == [
        "Generated/apple-app-site-association", "Generated/AndroidManifest.xml", "Sources/ShopTracking/PrivacyInfo.xcprivacy",
      ])
    #expect(result.resources.isEmpty, "the manifest goes where 'privacy.manifest' says, not also beside the code")
    for file in result.platformFiles {
      Golden.check(file.contents, matches: example.appendingPathComponent(file.name))
    }
    if !Golden.isRecording {
      #expect(GeneratedOutput(directory: output.path, name: "Tracking").changes(for: files) == [])
    }
  }

  /// A feature module named `Routes` (in any case) would share its file with the entry points' routes:
  /// every file gets its own name, so nothing is overwritten.
  @Test(arguments: ["Routes", "routes"])
  func aModuleNamedRoutesKeepsItsOwnFile(module: String) {
    let yaml = """
      version: 1
      interception: dynamic-replacement
      screens:
        HomeScreen:
          page_events: {enter: HOME_ENTER}
          control_events: {onTap(): HOME_TAP}
      links: {schemes: [app]}
      entry_points:
        home: {screen: HomeScreen, links: ["app://home"]}
      """
    var options = LintOptions()
    options.code = .sources(
      .files([("Sources/\(module)/Home.swift", "class HomeScreen {\n  func viewDidAppear(_ animated: Bool) {}\n  func onTap() {}\n}\n")]))
    options.scan.useCache = false
    let lint = Linter.lint(ConfigSource(path: "tracking.yaml", text: yaml), options: options)
    let result = Generator.generate(lint, options: Generator.Options(configFileName: "tracking.yaml"))
    #expect(!result.diagnostics.hasErrors, "\(TextDiagnosticRenderer.render(result.diagnostics))")
    #expect(result.files.map(\.name) == ["Tracking.swift", "Tracking+\(module).swift", "Tracking+Routes-2.swift"])
    #expect(result.files[1].contents.contains("@_dynamicReplacement") && result.files[2].contents.contains("enum Route"))
  }

  /// Type names and lifecycle methods from a registry file reach replacements too: a name that is not a
  /// type name, or a lifecycle method without a signature, stops generation at the config line.
  @Test func hostileRegistryNamesStopGeneration() throws {
    let hostile = "Base {} ; func evil() {} ; extension Base"
    func type(_ name: String, inheritance: [String], methods: [DeclaredMethod]) -> DeclaredType {
      DeclaredType(
        name: name, module: "App", kind: .class, inheritance: inheritance, isGeneric: false, objcMembers: false, conditional: false,
        access: .public, location: RegistryLocation(file: "App.swift", line: 1, column: 7), extensions: [], methods: methods)
    }
    func method(_ name: String, signature: MethodSignature?) -> DeclaredMethod {
      DeclaredMethod(
        name: name, isStatic: false, access: .public, attributes: [], objcSelector: nil, derivedSelector: "x", inGenericContext: false,
        conditional: false, documentation: nil, location: RegistryLocation(file: "App.swift", line: 2, column: 7), signature: signature)
    }
    let onFav = method("onFav(_:)", signature: MethodSignature(parameters: [.init(label: nil, type: "Int")], returnType: nil, effects: nil))
    let registries = [
      HandlerRegistry(types: [type("Home", inheritance: [hostile], methods: []), type(hostile, inheritance: [], methods: [onFav])]),
      HandlerRegistry(types: [type("Home", inheritance: [], methods: [onFav, method("viewDidAppear(_:)", signature: nil)])]),
    ]
    for (registry, expected) in zip(
      registries, ["tracking.yaml:6:22: error: the registry's type name", "tracking.yaml:5:19: error: the registry does not give"])
    {
      var options = LintOptions()
      options.code = .registry(path: "handlers.json", bytes: InputBytes(Array(registry.json().utf8)))
      let config =
        "version: 1\ninterception: dynamic-replacement\nscreens:\n  Home:\n    page_events: {enter: HOME_ENTER}\n"
        + "    control_events: {onFav(_:): HOME_FAV}\n"
      let lint = Linter.lint(ConfigSource(path: "tracking.yaml", text: config), options: options)
      let result = Generator.generate(lint, options: Generator.Options(configFileName: "tracking.yaml"))
      #expect(result.files.isEmpty)
      #expect(TextDiagnosticRenderer.render(result.diagnostics).contains(expected), "\(TextDiagnosticRenderer.render(result.diagnostics))")
    }
  }

  @Test func configsWithErrorsGenerateNothing() {
    let lint = Linter.lint(ConfigSource(path: "broken.yaml", text: "version: 1\nscreens:\n  Home: {page_events: {enter: bad id}}\n"))
    let result = Generator.generate(lint, options: Generator.Options(configFileName: "broken.yaml"))
    #expect(result.files.isEmpty)
    #expect(result.diagnostics.hasErrors)
  }

  struct Literal: Sendable, CustomTestStringConvertible {
    var text: String
    var literal: String
    var testDescription: String { literal }
  }

  static let literals: [Literal] = [
    Literal(text: "PLAIN_ID", literal: #""PLAIN_ID""#),
    Literal(text: #"say "hi""#, literal: #""say \"hi\"""#),
    Literal(text: #"back\slash"#, literal: #""back\\slash""#),
    Literal(text: #"\(interpolated)"#, literal: #""\\(interpolated)""#),
    Literal(text: "line\nfeed\rreturn\ttab\u{0}nul", literal: #""line\nfeed\rreturn\ttab\0nul""#),
    Literal(text: "bell\u{7}delete\u{7F}c1\u{85}", literal: #""bell\u{7}delete\u{7F}c1\u{85}""#),
    Literal(text: "rtl\u{202E}zero\u{200B}joiner\u{200D}separator\u{2028}", literal: #""rtl\u{202E}zero\u{200B}joiner\u{200D}separator\u{2028}""#),
    Literal(text: "nbsp\u{A0}", literal: #""nbsp\u{A0}""#),
    Literal(text: "#\"raw\"#", literal: ##""#\"raw\"#""##),
    Literal(text: "café 🏠 日本", literal: #""café 🏠 日本""#),
    Literal(text: "", literal: #""""#),
  ]

  @Test(arguments: literals)
  func stringLiteralsEscapeEverythingThatCouldBreakOut(_ literal: Literal) {
    #expect(TextEscaping.swiftStringLiteral(literal.text) == literal.literal)
  }

  /// Random strings: the literal is one line, starts and ends with the only unescaped quotes, has no
  /// unescaped backslash sequence that Swift would read as interpolation, and swift-syntax reads it back
  /// as exactly the string.
  @Test func randomStringsStayInsideTheirLiteral() throws {
    var state: UInt64 = 7
    let alphabet: [Unicode.Scalar] = ["\"", "\\", "(", ")", "#", "\n", "\r", "\u{0}", "\u{202E}", "\u{2028}", "a", "é", "🏠", " ", "*", "/"]
    for _ in 0..<2_000 {
      var text = ""
      for _ in 0..<12 {
        state = state &* 6_364_136_223_846_793_005 &+ 1
        text.unicodeScalars.append(alphabet[Int(state >> 60) % alphabet.count])
      }
      let literal = TextEscaping.swiftStringLiteral(text)
      #expect(!literal.contains("\n") && !literal.contains("\r"))
      var escaped = false
      for character in literal.dropFirst().dropLast() {
        if escaped {
          #expect(character != "(", "interpolation in \(literal)")
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else {
          #expect(character != "\"", "unescaped quote in \(literal)")
        }
      }
      let tree = Parser.parse(source: "_ = \(literal)\n")
      #expect(!tree.hasError, "\(literal)")
      let parsed = try #require(tree.statements.first?.item.as(SequenceExprSyntax.self)?.elements.last?.as(StringLiteralExprSyntax.self))
      #expect(parsed.representedLiteralValue == text, "\(literal)")
    }
  }

  @Test(arguments: [
    ("PAGE_HOME_ENTER", "pageHomeEnter"), ("page.home-enter", "pageHomeEnter"), ("HomeOpened", "homeOpened"),
    ("CTRL_OPEN_2", "ctrlOpen2"), ("2FA_DONE", "_2faDone"), ("class", "`class`"), ("default", "`default`"),
    ("rawValue", "rawValue_"), ("allCases", "allCases_"), ("init", "init_"), ("ÉTÉ", "uE9tuE9"), ("!!!", "event"),
    ("self", "self_"), ("Type", "type"),
  ])
  func eventIDsBecomeIdentifiers(id: String, identifier: String) {
    #expect(SwiftSource.identifier(fromEventID: id).text == identifier)
  }

  @Test(arguments: [
    ("onFav(_:)", "onFav_"), ("open(item:at:)", "open_item_at"), ("reload()", "reload"), ("f(_:_:)", "f__"),
    ("Home.Cart", "Home_Cart"), ("default(_:)", "default_"), ("touché(_:)", "touchuE9_"), ("onShare:", "onShare_"),
  ])
  func swiftNamesBecomeIdentifiers(name: String, identifier: String) {
    #expect(SwiftSource.identifier(fromSwiftName: name).text == identifier)
  }

  @Test func commentsStayOnOneLine() {
    #expect(SwiftSource.commentText("evil.yaml\n} import Evil\u{202E}") == "evil.yaml?} import Evil?")
  }

  /// Random names become identifiers: swift-syntax reads each as one identifier token.
  @Test func derivedNamesAreAlwaysIdentifiers() {
    var state: UInt64 = 11
    let alphabet: [Unicode.Scalar] = ["a", "Z", "_", "0", "9", ".", "(", ":", ")", " ", "`", "é", "🏠", "\u{202E}", "-", "#"]
    var names = ["", "_", "class", "default", "init", "self", "Type", "0", "__", "`"]
    for _ in 0..<2_000 {
      var text = ""
      for _ in 0..<Int(state >> 61) + 1 {
        state = state &* 6_364_136_223_846_793_005 &+ 1
        text.unicodeScalars.append(alphabet[Int(state >> 60) % alphabet.count])
      }
      names.append(text)
    }
    for name in names {
      for identifier in [SwiftSource.identifier(fromEventID: name), SwiftSource.identifier(fromSwiftName: name), ValidIdentifier(derived: name)] {
        #expect(ValidIdentifier(identifier.text) == identifier, "\(name) -> \(identifier)")
        let tree = Parser.parse(source: "let \(identifier.text) = 0\n")
        #expect(!tree.hasError, "\(name) -> \(identifier)")
      }
    }
  }

  @Test func namesFromOutsideAreCheckedBeforeTheyAreIdentifiers() {
    #expect(ValidIdentifier("onFav") != nil)
    #expect(ValidIdentifier("touché") != nil)
    #expect(ValidIdentifier("`class`") != nil)
    for bad in ["", "class", "a b", "a.b", "a) {}; func evil(", "`a b`", "1a", "a\u{202E}"] {
      #expect(ValidIdentifier(bad) == nil, "\(bad)")
    }
    #expect(ValidIdentifier(escaping: "default")?.text == "`default`")
    #expect(ValidIdentifier(escaping: "a b") == nil)
    #expect(ValidIdentifier.path("Home.Cart")?.map(\.text) == ["Home", "Cart"])
    #expect(ValidIdentifier.path("Base {} ; func evil() {} ; extension Base") == nil)
    #expect(ArgumentLabel("inout")?.text == "`inout`")
    #expect(ArgumentLabel("class")?.text == "class")
    #expect(ArgumentLabel("_") == nil)
    #expect(ArgumentLabel("a\u{200B}b") == nil)
  }

  /// A registry file could put code into a signature; it is parsed once and refused, for the reason the
  /// row is about (a refusal for another reason would hide a hole).
  @Test(
    arguments: [
      ("onFav(_:)", [MethodSignature.Parameter(label: nil, type: "Int) {}; func evil(_ x: Int")], nil, nil, .doesNotParse),
      ("onFav(_:)", [MethodSignature.Parameter(label: nil, type: "Int = 3")], nil, nil, .notAType("Int = 3")),
      ("onFav(_:)", [MethodSignature.Parameter(label: nil, type: "Int")], "Int {} func evil() -> Int", nil, .doesNotParse),
      ("onFav(_:)", [MethodSignature.Parameter(label: nil, type: "Int")], nil, "throws { evil() } func f() throws", .doesNotParse),
      ("onFav(_:)", [MethodSignature.Parameter(label: nil, type: "Int // ")], nil, nil, .doesNotParse),
      ("onFav(_:)", [MethodSignature.Parameter(label: nil, type: "Int...")], nil, nil, .variadic("Int...")),
      ("onFav(_:)", [MethodSignature.Parameter(label: nil, type: "Int")], nil, "async", .async),
      ("onFav(_:)", [], nil, nil, .argumentCount(labels: 1, parameters: 0)),
      ("onFav(_ x:)", [MethodSignature.Parameter(label: nil, type: "Int")], nil, nil, .notASwiftName),
      ("on Fav(_:)", [MethodSignature.Parameter(label: nil, type: "Int")], nil, nil, .notASwiftName),
    ] as [(String, [MethodSignature.Parameter], String?, String?, ReplacementSignature.Problem)])
  func hostileSignaturesAreRefused(
    name: String, parameters: [MethodSignature.Parameter], returnType: String?, effects: String?, reason: ReplacementSignature.Problem
  ) {
    let read = ReplacementSignature.read(name: name, signature: MethodSignature(parameters: parameters, returnType: returnType, effects: effects))
    switch read {
    case .success(let signature): Issue.record("accepted: \(signature)")
    case .failure(let problem): #expect(problem == reason)
    }
  }

  /// What a good signature reads as: the labels of the method's name (not of the registry's parameter
  /// list), the types as nodes, and what the call needs (`&`, `try`).
  @Test func goodSignaturesReadAsTheirParts() throws {
    let signature = MethodSignature(
      parameters: [.init(label: "ignored", type: "inout [String: Int]"), .init(label: "completion", type: "@escaping @Sendable () -> Void")],
      returnType: "Result<Int, any Error>", effects: "throws")
    let read = try ReplacementSignature.read(name: "load(_:inout:)", signature: signature).get()
    #expect(read.baseName.text == "load")
    #expect(read.replacementName.text == "__trackc_load")
    #expect(read.parameters.map(\.label?.text) == [nil, "`inout`"])
    #expect(read.parameters.map(\.type.description) == ["inout [String: Int]", "@escaping @Sendable () -> Void"])
    #expect(read.parameters.map(\.isInout) == [true, false])
    #expect(read.isThrowing)
    #expect(read.returnType?.description == "Result<Int, any Error>")
    #expect(
      try ReplacementSignature.read(name: "default()", signature: MethodSignature(parameters: [], returnType: nil, effects: nil)).get().baseName.text
        == "`default`")
  }

  /// A type a registry writes over several lines, or with comments, is repeated on one line without them.
  @Test func typesOverSeveralLinesBecomeOneLine() throws {
    let signature = MethodSignature(
      parameters: [.init(label: nil, type: "@escaping (\n  Int, // the count\n  String /* the name */\n) -> Void")], returnType: nil, effects: nil)
    let read = try ReplacementSignature.read(name: "load(_:)", signature: signature).get()
    #expect(read.parameters.map(\.type.description) == ["@escaping (Int, String) -> Void"])
  }

  /// What an `@available` attribute of the code says, as generated code repeats it: platforms Swift knows
  /// and versions of digits only, whatever a registry file holds.
  @Test(arguments: [
    ("@available(iOS 17, macOS 14, *)", ["@available(iOS 17, macOS 14, *)"]),
    ("@available(iOS, introduced: 17.2, deprecated: 18.0)", ["@available(iOS 17.2, *)", "@available(iOS, deprecated: 18.0)"]),
    ("@available(*, deprecated)", ["@available(*, deprecated)"]),
    ("@available(iOS, deprecated)", ["@available(iOS, deprecated)"]),
    ("@available(visionOS 1.0.1, *)", ["@available(visionOS 1.0.1, *)"]),
    // Nothing generated code can use, or nothing Swift would read.
    ("@available(*, unavailable)", []), ("@available(iOS, unavailable)", []), ("@available(swift 5.9)", []),
    ("@available(iOS 17)", []), ("@available(iOS 17, Linux 1, *)", []), ("@MainActor", []), ("@available(iOS 1.2.3.4, *)", []),
    // A registry's text that is not an availability: never repeated.
    ("@available(iOS 17 } ; func evil() {, *)", []), ("@available(iOS 17\n, *)", []), ("@available(iOS \"17\", *)", []),
    ("@available(iOS, introduced: 17) import Evil", []), ("@available(iOS, introduced: 1e9)", []),
  ])
  func availabilityReadsOnlyPlatformsAndVersions(attribute: String, repeated: [String]) {
    #expect(Availability.read(attribute).map(\.attributeText) == repeated)
  }

  /// The versions a capture needs beyond its replacement's: none when the context ensures them (Swift
  /// warns at a needless `#available`), whatever the spelling (`17` is `17.0`).
  @Test func availabilityBeyondAContext() {
    func versions(_ text: String) -> [Availability.PlatformVersion] { Availability.introduced(Availability.read(text)) }
    #expect(Availability.beyond(versions("@available(iOS 17, *)"), context: versions("@available(iOS 17.0, macOS 14, *)")) == [])
    #expect(
      Availability.beyond(versions("@available(iOS 17.2, macOS 14, *)"), context: versions("@available(iOS 17, *)")).map(\.version) == ["17.2", "14"])
    #expect(
      Availability.introduced(Availability.read("@available(iOS 16, *)") + Availability.read("@available(iOS 17.1, *)")).map(\.version) == ["17.1"])
  }

  /// Under objc-runtime, a generic class's handler is hooked on the non-generic classes below it (the
  /// runtime knows a generic class only by each specialization), and the generic class itself is not.
  @Test func aGenericScreensHandlerIsHookedOnTheClassesBelowIt() throws {
    let plan = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/app/tracking.yaml")
    let lint = try Fixtures.lint(inPlace: plan)
    #expect(lint.diagnostics.isEmpty, "\(TextDiagnosticRenderer.render(lint.diagnostics))")
    let model = GenerationModel(plan: try #require(lint.plan), code: lint.code)
    let hooks = model.objcHooks.filter { $0.selector == "onRowSelected:" }.map(\.className.text)
    #expect(hooks == ["AppCore.ProductListViewController"])
  }

  /// A destination whose wire name is Amplitude's counts sessions: the registry lists it
  /// (`sessionDestinations`), so that the runtime gives it the session ID in `integrations`; a plan
  /// without one leaves the protocol's default (none).
  @Test func amplitudesDestinationIsListedAsCountingSessions() throws {
    let lint = try Fixtures.lint(Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/valid/full.yaml"))
    let generated = Generator.generate(lint, options: Generator.Options(name: "Full", configFileName: "full.yaml"))
    let sources = generated.files.map(\.contents).joined()
    let declaration = try #require(sources.range(of: "public var sessionDestinations: [String] {"))
    #expect(sources[declaration.upperBound...].prefix(40).contains(#"return ["amplitude"]"#))
    let plain = try Self.generate("tracking.yaml", name: "GenerateFixtureTracking").files.map(\.contents).joined()
    #expect(!plain.isEmpty && !plain.contains("sessionDestinations"))
  }
}
