import Foundation
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// The Xcode example (`Examples/ShopApp-iOS`): its project is what its spec (`project.py`) writes, and read
/// back with Python's `pbxproj` parser (`Tests/Xcode/check_project.py`) it gives the app target what trackc
/// needs (every referenced file there, TrackcRuntime linked and TrackcBuildPlugin attached from the local
/// package, the interception's build settings, a lint phase Xcode can skip that finds trackc where users
/// install it or fails saying where it looked, a shared scheme setting TRACKC_COLLECTOR, the local-network
/// usage description); the checker finds each of those missing in a broken copy. Its plan lints clean against the app's sources, and every handler it
/// maps is hooked, the one wired only by a gesture recognizer included. The app's Swift, with the code the
/// plugin generates, is type-checked for iOS by `Scripts/typecheck-ios.sh` (unit `Storefront`).
@Suite struct XcodeExampleTests {
  static let example = Fixtures.repositoryRoot.appendingPathComponent("Examples/ShopApp-iOS")
  static let project = example.appendingPathComponent("Storefront.xcodeproj")
  static let checker = Fixtures.repositoryRoot.appendingPathComponent("Tests/Xcode/check_project.py").path

  struct Report: Decodable {
    var problems: [String]
    var target: String?
    var interception: String?
  }

  static func check(_ project: URL, _ extra: [String] = []) throws -> Report {
    let output = try PythonEnvironment.run(PythonPackages.xcodeProject, [checker, project.path] + extra)
    #expect(output.status == 0, "\(output.standardError)")
    return try JSONDecoder().decode(Report.self, from: Data(output.standardOutput.utf8))
  }

  @Test(.requires(.xcodeProject)) func theProjectIsWhatItsSpecWrites() throws {
    let output = try PythonEnvironment.run(PythonPackages.xcodeProject, [Self.example.appendingPathComponent("project.py").path, "--check"])
    #expect(output.status == 0, "\(output.standardError)")
  }

  @Test(.requires(.xcodeProject)) func theAppTargetHasWhatTrackcNeeds() throws {
    let report = try Self.check(Self.project)
    #expect(report.problems == [])
    #expect(report.target == "Storefront" && report.interception == "objc-runtime")
  }

  /// A copy with the plugin detached, the lint phase's output gone, a source renamed on disk, and the plan
  /// switched to dynamic-replacement without the flags: each is found.
  @Test(.requires(.xcodeProject)) func theCheckerFindsWhatIsMissing() throws {
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("trackc-xcode-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: copy) }
    try FileManager.default.copyItem(at: Self.example, to: copy)
    let file = copy.appendingPathComponent("Storefront.xcodeproj/project.pbxproj")
    var text = try String(contentsOf: file, encoding: .utf8)
    text = text.replacingOccurrences(of: #"\t\t\t\t[0-9A-F]{24} /\* PBXTargetDependency \*/,\n"#, with: "", options: .regularExpression)
    text = text.replacingOccurrences(of: "\t\t\t\t\"$(DERIVED_FILE_DIR)/trackc-lint.stamp\",\n", with: "")
    // The lint phase passing quietly when trackc is missing, as Xcode's PATH would have it.
    #expect(text.contains("exit 1\\n"))
    text = text.replacingOccurrences(of: "exit 1\\n", with: "exit 0\\n")
    try text.write(to: file, atomically: true, encoding: .utf8)
    // No shared scheme (so no TRACKC_COLLECTOR), no local-network usage description.
    try FileManager.default.removeItem(at: copy.appendingPathComponent("Storefront.xcodeproj/xcshareddata"))
    let info = copy.appendingPathComponent("Storefront/Info.plist")
    try String(contentsOf: info, encoding: .utf8).replacingOccurrences(of: "NSLocalNetworkUsageDescription", with: "NSSomethingElse")
      .write(to: info, atomically: true, encoding: .utf8)
    let cart = copy.appendingPathComponent("Storefront/Cart")
    try FileManager.default.moveItem(at: cart.appendingPathComponent("CartViewController.swift"), to: cart.appendingPathComponent("Cart.swift"))
    let plan = copy.appendingPathComponent("Storefront/tracking.yaml")
    try String(contentsOf: plan, encoding: .utf8).replacingOccurrences(of: "interception: objc-runtime", with: "interception: dynamic-replacement")
      .write(to: plan, atomically: true, encoding: .utf8)

    let problems = try Self.check(copy.appendingPathComponent("Storefront.xcodeproj"), ["--package", Fixtures.repositoryRoot.path]).problems
    for expected in [
      "does not have TrackcBuildPlugin attached",
      "the lint phase declares no output",
      "file reference 'CartViewController.swift' points to Storefront/Cart/CartViewController.swift, which does not exist",
      "Storefront/Cart/Cart.swift is in the plan's sources but target 'Storefront' does not compile it",
      "configuration 'Debug': OTHER_SWIFT_FLAGS has none of the interception flags, but interception: dynamic-replacement needs",
      "configuration 'Release': OTHER_SWIFT_FLAGS has none of the interception flags",
      "the lint phase without trackc does not fail with an error",
      "no shared scheme (xcshareddata/xcschemes/*.xcscheme)",
      "Storefront/Info.plist has no NSLocalNetworkUsageDescription",
    ] {
      #expect(problems.contains { $0.contains(expected) }, "no problem saying \(expected.debugDescription) in \(problems)")
    }
  }

  /// The spec writes the other interception's build settings where the plan asks for it.
  @Test(.requires(.xcodeProject)) func underDynamicReplacementTheFlagsAreSet() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackc-xcode-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(at: Self.example, to: folder)
    let plan = folder.appendingPathComponent("Storefront/tracking.yaml")
    try String(contentsOf: plan, encoding: .utf8).replacingOccurrences(of: "interception: objc-runtime", with: "interception: dynamic-replacement")
      .write(to: plan, atomically: true, encoding: .utf8)
    let written = try PythonEnvironment.run(PythonPackages.xcodeProject, [folder.appendingPathComponent("project.py").path])
    #expect(written.status == 0, "\(written.standardError)")
    let report = try Self.check(folder.appendingPathComponent("Storefront.xcodeproj"), ["--package", Fixtures.repositoryRoot.path])
    #expect(report.problems == [] && report.interception == "dynamic-replacement")
    let text = try String(contentsOf: folder.appendingPathComponent("Storefront.xcodeproj/project.pbxproj"), encoding: .utf8)
    #expect(text.contains("-enable-implicit-dynamic") && text.contains("-enable-dynamic-replacement-chaining"))
  }

  /// The plan lints clean against the app target's sources, and every handler it maps is hooked: the
  /// tap gesture recognizer's included, and the handlers a `UIAction` and a SwiftUI button call, which are
  /// `dynamic`.
  @Test func thePlanLintsCleanAndEveryHandlerIsHooked() throws {
    let plan = Self.example.appendingPathComponent("Storefront/tracking.yaml")
    let lint = try Fixtures.lint(inPlace: plan)
    #expect(lint.diagnostics.isEmpty, "\(TextDiagnosticRenderer.render(lint.diagnostics))")
    let model = GenerationModel(plan: try #require(lint.plan), code: lint.code)
    let hooks = model.objcHooks.map { "\($0.className.text) \($0.selector)" }
    #expect(
      hooks == [
        "CartViewController quantityChanged:", "CartViewController startCheckout", "CatalogViewController refresh:",
        "CatalogViewController showCart:", "CatalogViewController tableView:didSelectRowAtIndexPath:", "CheckoutModel placeOrder",
        "ProductViewController addToCart:", "ProductViewController share:", "ProductViewController zoomImage:",
      ])
    // The app target's sources are not in a SwiftPM layout: the runtime finds the classes in the module
    // the registry is generated into, the app target itself.
    #expect(model.objcHooks.allSatisfy { if case .inRegistryModule = $0.className { true } else { false } })
  }
}
