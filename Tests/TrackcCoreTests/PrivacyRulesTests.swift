import Foundation
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// The privacy rules beyond their examples: the fix that classifies a value applies in flow and block
/// mappings and reads back; a classification on a binding the code does not have is reported as the
/// binding's problem, not as a privacy one; the plan without privacy is what it was; the hostile inputs
/// are reported quickly.
@Suite struct PrivacyRulesTests {
  static let privacyHead = """
    version: 1
    privacy:
      identity: {anonymous_id: {data: device_id}}
    destinations:
      firebase: {wire_name: Firebase, purposes: [analytics, app_functionality]}

    """

  @Test func theFixClassifiesFlowAndBlockBindingsAndLintsCleanAfterwards() throws {
    let text =
      Self.privacyHead + """
        screens:
          Profile:
            control_events:
              onSave(email:phone:):
                event: PROFILE_SAVE
                properties:
                  email: { from: email }   # flow
                  phone_number:
                    from: phone   # block, with a comment
                    type: string
        """
    let result = ConfigFixer.fix(ConfigSource(path: "fix.yaml", text: text), options: LintOptions())
    #expect(result.applied.map(\.ruleID) == [UnclassifiedPersonalDataRule.id, UnclassifiedPersonalDataRule.id])
    #expect(result.remaining.diagnostics.isEmpty, "\(TextDiagnosticRenderer.render(result.remaining.diagnostics))")
    let fixed = String(decoding: result.fixed, as: UTF8.self)
    #expect(fixed.contains("email: { from: email, data: email_address }   # flow"))
    #expect(fixed.contains("from: phone\n            data: phone_number   # block, with a comment"))
    let uses = try #require(result.remaining.plan).privacy.uses.map(\.dataType)
    #expect(uses == [.productInteraction, .deviceID, .otherDiagnosticData, .emailAddress, .phoneNumber])
  }

  /// A classified binding whose path the code does not have: the binding rules say what is wrong; the
  /// privacy rules, which read the plan, take the classification as written.
  @Test func aClassificationOnABindingThatDoesNotResolve() throws {
    let config =
      Self.privacyHead + """
        interception: dynamic-replacement
        screens:
          ProfileViewController:
            control_events:
              save(_:): {event: PROFILE_SAVE, properties: {email: {from: self.user.mail, data: email_address}, phone: {from: number, data: phone_number}}}
        """
    var options = LintOptions()
    options.code = .sources(
      .files([
        (
          "Sources/Profile/Profile.swift",
          """
          struct User { var email: String }
          class ProfileViewController {
            var user = User(email: "")
            func save(_ sender: Any) {}
          }
          """
        )
      ]))
    options.scan.useCache = false
    let result = Linter.lint(ConfigSource(path: "unresolved.yaml", text: config), options: options)
    let rendered = TextDiagnosticRenderer.render(result.diagnostics)
    #expect(result.diagnostics.map(\.ruleID).sorted() == ["unknown-binding-parameter", "unknown-binding-property"], "\(rendered)")
    #expect(rendered.contains("did you mean 'email'?"), "\(rendered)")
    #expect(
      try #require(result.plan).privacy.collected.map(\.dataType) == [
        .emailAddress, .phoneNumber, .deviceID, .productInteraction, .otherDiagnosticData,
      ])
  }

  /// Every config of the repository that says nothing of privacy declares what the runtime sends (the
  /// events, the anonymous ID, the device's context) and nothing more, and the privacy rules say
  /// nothing about it (none of them binds a value whose name looks like personal data).
  @Test func plansWithoutPrivacyDeclareWhatTheRuntimeSends() throws {
    let privacyRules = Set(
      [
        PrivacyTermRule.id, UnknownConsentCategoryRule.id, DestinationWithoutConsentRule.id, PurposeNotCoveredRule.id,
        TrackingWithoutDomainRule.id, TrackingDomainRule.id, UnclassifiedPersonalDataRule.id, UnclassifiedPersonalTypeRule.id,
      ])
    let configs = (Fixtures.configs(in: "valid") + Fixtures.configs(in: "invalid") + Fixtures.configs(in: "findings"))
      .filter { !$0.lastPathComponent.contains("privacy") }
    #expect(configs.count >= 15)
    for config in configs {
      let result = try Fixtures.lint(config)
      #expect(!result.diagnostics.contains { privacyRules.contains($0.ruleID) }, "\(config.lastPathComponent)")
      if let plan = result.plan {
        #expect(!plan.privacy.isDeclared, "\(config.lastPathComponent)")
        #expect(plan.privacy.uses.map(\.source) == [.events, .anonymousID, .context], "\(config.lastPathComponent)")
        #expect(
          plan.privacy.collected.allSatisfy { !$0.tracking && $0.linked && $0.purposes == [.analytics] },
          "\(config.lastPathComponent): \(plan.privacy.collected)")
      }
    }
  }

  /// A purposes list of ten thousand entries, twice (one value repeated, ten thousand unknown ones):
  /// eleven findings per list at most, in well under a second even in a debug build.
  @Test func tenThousandPurposesAreReportedBrieflyAndFast() throws {
    let input = try #require(HostileCorpus.generated.first { $0.name == "generated-purposes-10000" })
    let bytes = input.make()
    let clock = ContinuousClock()
    var result: LintResult?
    let elapsed = clock.measure { result = Linter.lint(ConfigSource(path: "purposes.yaml", bytes: bytes)) }
    let diagnostics = try #require(result).diagnostics
    #expect(diagnostics.count == 12)
    #expect(diagnostics.allSatisfy { $0.ruleID == PrivacyTermRule.id })
    #expect(elapsed < .seconds(TimeLimits.seconds(5)), "\(elapsed)")
  }

  /// Two thousand destinations, each gated by a category the plan does not declare (150 names, out of a
  /// hundred it does): one error each, a did-you-mean for the first hundred names, notes that list ten
  /// categories, not a hundred. (Ten thousand took ten seconds in a debug build before the suggestions
  /// were bounded, 1.2 s after; the test is smaller because the test process's memory is what the
  /// command-line tests' children are measured on top of.)
  @Test func thousandsOfUnknownCategoriesAreReportedFast() throws {
    let categories = (0..<100).map { "    category_\($0): {}" }.joined(separator: "\n")
    let destinations = (0..<2_000).map { "  dest_\($0): {purposes: [analytics], consent: categry_\($0 % 150)}" }.joined(separator: "\n")
    let config =
      "version: 1\nprivacy:\n  identity: {anonymous_id: {data: device_id}}\n  consent:\n\(categories)\ndestinations:\n\(destinations)\nscreens: {}\n"
    let clock = ContinuousClock()
    var result: LintResult?
    let elapsed = clock.measure { result = Linter.lint(ConfigSource(path: "categories.yaml", text: config)) }
    let all = try #require(result).diagnostics
    // No destination names a declared category: each of the hundred is also unused (a warning).
    #expect(all.filter { $0.ruleID == UnusedConsentCategoryRule.id }.count == 100)
    let diagnostics = all.filter { $0.ruleID != UnusedConsentCategoryRule.id }
    #expect(diagnostics.count == 2_000 && diagnostics.allSatisfy { $0.ruleID == UnknownConsentCategoryRule.id })
    // The first hundred names (categry_0 to categry_99) are named 14 or 13 times each: 50 * 14 + 50 * 13.
    #expect(diagnostics.filter { $0.message.hasSuffix("?") }.count == 1_350, "a did-you-mean for the first hundred names")
    #expect(diagnostics[0].message == "consent category 'categry_0' of destination 'dest_0' is not declared; did you mean 'category_0'?")
    #expect(diagnostics.allSatisfy { $0.notes.allSatisfy { $0.message.count < 200 } })
    #expect(elapsed < .seconds(TimeLimits.seconds(20)), "\(elapsed)")
  }

  /// docs/privacy.md lists every data type and purpose with the values trackc writes.
  @Test func thePrivacyPageListsTheVocabulary() throws {
    let page = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/privacy.md"), encoding: .utf8)
    for type in PersonalDataType.allCases {
      let label = type.category == type.label ? type.label : "\(type.category): \(type.label)"
      #expect(page.contains("| `\(type.rawValue)` | `\(type.manifestValue)` | \(label) |"), "\(type)")
    }
    for purpose in DataPurpose.allCases {
      #expect(page.contains("| `\(purpose.rawValue)` | `\(purpose.manifestValue)` | \(purpose.label) |"), "\(purpose)")
    }
  }

  @Test func personalDataNamesAreGuessedFromWordsNotLetters() {
    #expect(PersonalDataNames.guess("emailAddress") == .emailAddress)
    #expect(PersonalDataNames.guess("user_email") == .emailAddress)
    #expect(PersonalDataNames.guess("shippingAddress") == .physicalAddress)
    #expect(PersonalDataNames.guess("ip_address") == .coarseLocation)
    #expect(PersonalDataNames.guess("CLLocationCoordinate2D") == .preciseLocation)
    #expect(PersonalDataNames.guess("advertisingIdentifier") == .deviceID)
    #expect(PersonalDataNames.guess("PersonNameComponents") == .name)
    #expect(PersonalDataNames.guess("URLEmailLink") == .emailAddress)
    // Words that merely contain the letters are not the words.
    #expect(PersonalDataNames.guess("translate") == nil)
    #expect(PersonalDataNames.guess("template") == nil)
    #expect(PersonalDataNames.guess("product_id") == nil)
    #expect(PersonalDataNames.guess("position") == nil)
    #expect(PersonalDataNames.guess("") == nil)
    #expect(PersonalDataNames.words("URLHostName2D") == ["url", "host", "name", "d"])
  }
}
