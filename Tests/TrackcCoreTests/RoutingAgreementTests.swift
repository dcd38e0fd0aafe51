import Foundation
import SwiftParser
import SwiftSyntax
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// The routing the rules check is the routing the generated code carries: both read the plan's, and
/// this keeps it so for every config in the repository, as written into the generated Swift.
///
/// (Before the plan model, the rules intersected `defaults` with the declared destinations and the
/// generator did not, so a config naming an undeclared destination was checked with one routing and
/// would have been generated with another.)
@Suite struct RoutingAgreementTests {
  static let configs: [URL] =
    ["app", "findings", "hostile", "invalid", "valid"].flatMap { Fixtures.configs(in: $0) }
    + [
      "Examples/Shop/tracking.yaml", "Tests/GenerateFixtures/tracking.yaml", "Tests/GenerateFixtures/hostile.yaml",
      "Benchmarks/interception/tracking.yaml",
    ].map { Fixtures.repositoryRoot.appendingPathComponent($0) }

  static let mustGenerate = [
    "Examples/Shop/tracking.yaml", "Tests/GenerateFixtures/tracking.yaml", "Tests/GenerateFixtures/hostile.yaml",
    "Benchmarks/interception/tracking.yaml",
  ]

  @Test(arguments: configs)
  func generatedRoutingIsThePlansRouting(config: URL) throws {
    let lint = try Fixtures.lint(inPlace: config)
    guard let plan = lint.plan else { return }  // no document: nothing is routed
    let model = GenerationModel(plan: plan, code: lint.code)
    // Every event a screen maps once has a rule (a duplicate handler's second event is reported, not generated).
    #expect(Set(model.rules.map(\.event)).count == model.rules.count)

    // For configs that generate, the routing as the generated Swift spells it: the repository's own
    // configs must generate, so that the comparison cannot be skipped for all of them.
    let generated = Generator.generate(lint, options: Generator.Options(configFileName: config.lastPathComponent))
    if Self.mustGenerate.contains(where: { config.path.hasSuffix($0) }) {
      #expect(!generated.files.isEmpty, "\(TextDiagnosticRenderer.render(lint.diagnostics + generated.diagnostics))")
    }
    guard let registry = generated.files.first else { return }
    let written = Self.routings(inGenerated: registry.contents)
    #expect(!written.isEmpty || model.rules.isEmpty)
    let byIdentifier = Dictionary(uniqueKeysWithValues: model.rules.map { ($0.identifier.text, plan[$0.event].routing) })
    #expect(written.count == model.rules.count)
    for (identifier, routing) in written {
      #expect(byIdentifier[identifier] == routing, "\(identifier) in \(config.lastPathComponent)")
    }
  }

  /// The case the two used to disagree on: an undeclared destination (an `unknown-destination` error)
  /// routes nothing, in `defaults`, `destinations` and `exclude` alike.
  @Test func undeclaredDestinationsRouteNothing() throws {
    let source = ConfigSource(
      path: "t.yaml",
      text: """
        version: 1
        destinations: {firebase: {}, mixpanel: {}}
        defaults: {destinations: [firebase, mixpanell]}
        screens:
          Home:
            page_events: {enter: HOME_ENTER}
            control_events:
              onFav(_:): {event: HOME_FAV, destinations: [segment, mixpanel, mixpanel]}
              onShare(_:): {event: HOME_SHARE, exclude: [firebse]}
        """)
    let plan = try #require(Linter.lint(source).plan)
    #expect(plan.defaultDestinations == ["firebase"])
    #expect(plan.events.map(\.routing) == [.only(["firebase"]), .only(["mixpanel"]), .only(["firebase"])])
    let model = GenerationModel(plan: plan, code: nil)
    #expect(Set(model.rules.map(\.routing)) == [.only(["firebase"]), .only(["mixpanel"])])
  }

  /// `static let <identifier> = EventRule(eventID: ..., routing: <routing>, ...)` in generated code.
  static func routings(inGenerated source: String) -> [String: ResolvedPlan.Routing] {
    final class Finder: SyntaxVisitor {
      var found: [String: ResolvedPlan.Routing] = [:]
      override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        for binding in node.bindings {
          guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
            call.calledExpression.trimmedDescription == "EventRule",
            let routing = call.arguments.first(where: { $0.label?.text == "routing" })?.expression
          else { continue }
          found[name] = Self.routing(routing)
        }
        return .skipChildren
      }

      static func routing(_ expression: ExprSyntax) -> ResolvedPlan.Routing? {
        if expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "unrestricted" { return .unrestricted }
        guard let call = expression.as(FunctionCallExprSyntax.self),
          call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "only",
          let array = call.arguments.first?.expression.as(ArrayExprSyntax.self)
        else { return nil }
        return .only(
          array.elements.compactMap { element in
            element.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
          })
      }
    }
    let finder = Finder(viewMode: .sourceAccurate)
    finder.walk(Parser.parse(source: source))
    return finder.found
  }
}
