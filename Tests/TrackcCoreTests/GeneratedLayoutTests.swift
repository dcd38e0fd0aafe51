import Foundation
import SwiftParser
import SwiftSyntax
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// The shape of what `trackc generate` writes: every file swift-syntax parses without an error, no line
/// longer than 120 columns, however long the names and lists of a config, and no comment a config or a
/// registry can end early.
@Suite struct GeneratedLayoutTests {
  /// Every generated file committed in the repository.
  static let goldens: [URL] = [
    "Tests/GenerateFixtures/Sources/GenerateFixtureTracking", "Examples/Shop/Sources/ShopTracking", "Benchmarks/interception/Sources/BenchTracking",
  ].flatMap { folder in
    let directory = Fixtures.repositoryRoot.appendingPathComponent(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".swift") }.sorted().map { directory.appendingPathComponent($0) }
  }

  @Test func thereAreGoldens() {
    #expect(Self.goldens.count >= 10)
  }

  @Test(arguments: goldens)
  func committedGeneratedFilesParseWithoutErrors(file: URL) throws {
    try Self.expectParses(String(contentsOf: file, encoding: .utf8), file.lastPathComponent)
  }

  @Test(arguments: goldens)
  func committedGeneratedFilesHaveNoLineOver120Columns(file: URL) throws {
    Self.expectLinesFit(try String(contentsOf: file, encoding: .utf8), file.lastPathComponent)
  }

  // MARK: Long names and lists

  /// A config of long event IDs, destination lists, property values and names, with a registry whose
  /// signatures are long too.
  struct LongNames {
    var screen = "RecommendedProductsViewController"
    var handler = "didSelectProduct(withIdentifier:atIndexPath:animated:completion:)"
    var selector = "didSelectProductWithIdentifier:atIndexPath:animated:completion:"
    var module = "RecommendedProductsFeature"
    var enter = "PAGE_RECOMMENDED_PRODUCTS_SCREEN_ENTER_EVENT_WITH_AN_IDENTIFIER_AS_LONG_AS_SOME_TEAMS_LIKE_THEM"
    var select = "CTRL_RECOMMENDED_PRODUCTS_DID_SELECT_PRODUCT_WITH_IDENTIFIER_AT_INDEX_PATH_ANIMATED_COMPLETION"

    /// Names no layout can fit: a screen and a handler whose names alone take most of a line.
    static let extreme = LongNames(
      screen: "AnExtraordinarilyLongScreenNameThatKeepsGoingAndGoingUntilItIsNearlyAsLongAsALineViewController",
      handler: "didSelectTheRecommendedProductInTheCarouselOfFeaturedItems(withIdentifier:atIndexPath:animated:completion:)",
      selector: "didSelectTheRecommendedProductInTheCarouselOfFeaturedItemsWithIdentifier:atIndexPath:animated:completion:",
      module: "AnExtraordinarilyLongFeatureModuleNameThatIsLongerThanAnyoneWouldWantToTypeOutInFull",
      enter: "PAGE_" + String(repeating: "VERY_LONG_", count: 12) + "ENTER",
      select: "CTRL_" + String(repeating: "VERY_LONG_", count: 12) + "SELECT")

    func generate(singleFile: Bool = false) -> Generator.Result {
      let destinations = (1...12).map { "destination_with_a_rather_long_name_\($0)" }
      let config = """
        version: 1
        interception: dynamic-replacement
        conventions: {event_id_pattern: '.'}
        destinations: {\(destinations.map { "\($0): {}" }.joined(separator: ", "))}
        screens:
          \(screen):
            page_events:
              enter: \(enter)
            control_events:
              \(handler):
                event: \(select)
                properties:
                  description: "A property value that is long enough on its own to need a line of its own in the rule"
                  position: 3
                  an_extraordinarily_long_property_key_that_is_long: "and a value that is long as well, to go past the line"
              short(_:):
                event: SHORT
                destinations: [\(destinations.prefix(2).joined(separator: ", "))]
        """
      func method(_ name: String, _ selector: String, _ parameters: [String], returns: String? = nil, effects: String? = nil) -> DeclaredMethod {
        DeclaredMethod(
          name: name, isStatic: false, access: .public, attributes: [], objcSelector: nil, derivedSelector: selector, inGenericContext: false,
          conditional: false, documentation: nil, location: RegistryLocation(file: "Screen.swift", line: 2, column: 7),
          signature: MethodSignature(parameters: parameters.map { .init(label: nil, type: $0) }, returnType: returns, effects: effects))
      }
      let type = DeclaredType(
        name: screen, module: module, kind: .class, inheritance: [], isGeneric: false, objcMembers: false, conditional: false,
        access: .public, location: RegistryLocation(file: "Screen.swift", line: 1, column: 7), extensions: [],
        methods: [
          method(
            handler, selector, ["String", "IndexPath", "Bool", "@escaping @Sendable (Result<[RecommendedProduct], any Error>) -> Void"],
            returns: "Int",
            effects: "throws"),
          method("short(_:)", "short:", ["Int"]),
          method("viewDidAppear(_:)", "viewDidAppear:", ["Bool"]),
        ])
      var options = LintOptions()
      options.code = .registry(path: "handlers.json", bytes: InputBytes(Array(HandlerRegistry(types: [type]).json().utf8)))
      let lint = Linter.lint(ConfigSource(path: "tracking.yaml", text: config), options: options)
      return Generator.generate(lint, options: Generator.Options(configFileName: "tracking.yaml", singleFile: singleFile))
    }
  }

  @Test func longNamesAndListsStayWithin120Columns() throws {
    for singleFile in [false, true] {
      let result = LongNames().generate(singleFile: singleFile)
      #expect(!result.diagnostics.hasErrors, "\(TextDiagnosticRenderer.render(result.diagnostics))")
      #expect(result.files.count == (singleFile ? 1 : 2))
      for file in result.files {
        try Self.expectParses(file.contents, file.name)
        Self.expectLinesFit(file.contents, file.name)
      }
    }
  }

  /// Where a single name is too long for any line, the line holding it is all the layout can do: every
  /// line over 120 columns holds a run of 90 or more without a space, one name or literal.
  @Test func onlyANameTooLongForAnyLinePassesTheLimit() throws {
    let result = LongNames.extreme.generate()
    #expect(!result.diagnostics.hasErrors, "\(TextDiagnosticRenderer.render(result.diagnostics))")
    var overlong = 0
    for file in result.files {
      try Self.expectParses(file.contents, file.name)
      for line in file.contents.split(separator: "\n") where line.count > SwiftRenderer.width {
        overlong += 1
        let longestRun = line.split(separator: " ").map(\.count).max() ?? 0
        #expect(longestRun >= 90, "\(file.name): \(line)")
      }
    }
    #expect(overlong > 0)
  }

  /// What does not fit is broken one element a line: arguments, the destination array, the
  /// properties, the parameters of a replacement, the arguments of its call of the original.
  @Test func whatDoesNotFitIsBrokenOneElementALine() throws {
    let files = LongNames().generate().files
    let registry = try #require(files.first?.contents)
    #expect(
      registry.contains(
        """
            case pageRecommendedProductsScreenEnterEventWithAnIdentifierAsLongAsSomeTeamsLikeThem =
              "PAGE_RECOMMENDED_PRODUCTS_SCREEN_ENTER_EVENT_WITH_AN_IDENTIFIER_AS_LONG_AS_SOME_TEAMS_LIKE_THEM"
        """), "\(registry)")
    #expect(
      registry.contains(
        """
            static let recommendedProductsViewController_enter = EventRule(
              eventID: "PAGE_RECOMMENDED_PRODUCTS_SCREEN_ENTER_EVENT_WITH_AN_IDENTIFIER_AS_LONG_AS_SOME_TEAMS_LIKE_THEM",
              routing: .only([
                "destination_with_a_rather_long_name_1",
                "destination_with_a_rather_long_name_10",
        """), "\(registry)")
    #expect(
      registry.contains(
        """
                "destination_with_a_rather_long_name_9",
              ])
            )
        """), "\(registry)")
    // A constant whose value does not start on its line starts on the next.
    #expect(
      registry.contains(
        """
            static let recommendedProductsViewController_didSelectProduct_withIdentifier_atIndexPath_animated_completion =
              EventRule(
                eventID: "CTRL_RECOMMENDED_PRODUCTS_DID_SELECT_PRODUCT_WITH_IDENTIFIER_AT_INDEX_PATH_ANIMATED_COMPLETION",
        """), "\(registry)")
    #expect(
      registry.contains(
        """
                properties: [
                  "an_extraordinarily_long_property_key_that_is_long": .string(
                    "and a value that is long as well, to go past the line"
                  ),
                  "description": .string(
                    "A property value that is long enough on its own to need a line of its own in the rule"
                  ),
                  "position": .int(3),
                ]
              )
        """), "\(registry)")
    // What fits stays on one line.
    #expect(
      registry.contains(
        """
            static let recommendedProductsViewController_short_ = EventRule(
              eventID: "SHORT",
              routing: .only(["destination_with_a_rather_long_name_1", "destination_with_a_rather_long_name_2"])
            )
        """), "\(registry)")
    // A case whose return does not fit returns on the next line; its patterns one a line when they do not fit.
    #expect(
      registry.contains(
        """
              case "CTRL_RECOMMENDED_PRODUCTS_DID_SELECT_PRODUCT_WITH_IDENTIFIER_AT_INDEX_PATH_ANIMATED_COMPLETION":
                return Rules.recommendedProductsViewController_didSelectProduct_withIdentifier_atIndexPath_animated_completion
              case "PAGE_RECOMMENDED_PRODUCTS_SCREEN_ENTER_EVENT_WITH_AN_IDENTIFIER_AS_LONG_AS_SOME_TEAMS_LIKE_THEM":
                return Rules.recommendedProductsViewController_enter
              case "SHORT": return Rules.recommendedProductsViewController_short_
        """), "\(registry)")
    // Patterns that do not fit one a line.
    #expect(
      registry.contains(
        """
              case "didSelectProduct(withIdentifier:atIndexPath:animated:completion:)",
                "didSelectProductWithIdentifier:atIndexPath:animated:completion:":
                return Handler.didSelectProduct_withIdentifier_atIndexPath_animated_completion
        """), "\(registry)")
    let interceptors = try #require(files.last?.contents)
    #expect(
      interceptors.contains(
        """
          private func __trackc_didSelectProduct(
            withIdentifier p0: String,
            atIndexPath p1: IndexPath,
            animated p2: Bool,
            completion p3: @escaping @Sendable (Result<[RecommendedProduct], any Error>) -> Void
          ) throws -> Int {
            let call = Interception.beginControl(
              self,
              Tracking.Handler.didSelectProduct_withIdentifier_atIndexPath_animated_completion
            )
            defer { call.end() }
            return try didSelectProduct(withIdentifier: p0, atIndexPath: p1, animated: p2, completion: p3)
          }
        """), "\(interceptors)")
  }

  // MARK: Comments

  /// A config file name with line breaks and comment markers stays inside the header comment and the
  /// doc comment that name it.
  @Test func fileNamesCannotEndTheirComment() throws {
    let lint = Linter.lint(ConfigSource(path: "t.yaml", text: "version: 1\nscreens:\n  Home: {page_events: {enter: HOME_ENTER}}\n"))
    for name in ["evil\n} import Evil\n//.yaml", "evil */ import Evil /*.yaml", "evil\r\nimport Evil\u{2028}\u{85}.yaml"] {
      let result = Generator.generate(lint, options: Generator.Options(configFileName: name))
      let file = try #require(result.files.first)
      let tree = try Self.expectParses(file.contents, name)
      // Code is one import (the runtime) and the namespace: nothing from the name became code.
      let imports = tree.statements.compactMap { $0.item.as(ImportDeclSyntax.self) }
      #expect(imports.map { $0.path.trimmedDescription } == ["TrackcRuntime"])
      #expect(!file.contents.contains("\nimport Evil"), "\(file.contents)")
      #expect(file.contents.hasPrefix("// Generated by trackc from evil"))
    }
  }

  // MARK: Helpers

  /// Parses `source` with swift-syntax: no errors, and it prints back to exactly itself.
  @discardableResult
  static func expectParses(_ source: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> SourceFileSyntax {
    let tree = Parser.parse(source: source)
    #expect(!tree.hasError, "\(name) does not parse", sourceLocation: sourceLocation)
    #expect(tree.description == source, sourceLocation: sourceLocation)
    return tree
  }

  /// No line is longer than 120 characters.
  static func expectLinesFit(_ source: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.count > SwiftRenderer.width {
      Issue.record("\(name):\(number + 1) has \(line.count) columns: \(line)", sourceLocation: sourceLocation)
    }
  }
}
