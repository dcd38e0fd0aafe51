import Foundation
import Testing
import TrackcInvariants
import TrackcTestSupport

@testable import TrackcCore

/// The every-shape fixture (`Tests/GenerateFixtures/EveryShape`): a plan per interception over an iOS
/// app's sources that uses every shape the generator writes. Its sources import UIKit and SwiftUI, so
/// `Scripts/typecheck-ios.sh` generates it afresh and type-checks the result against the iOS SDK; here,
/// on Linux, both plans lint clean (so their generated code must compile), generate without a finding,
/// parse, and keep using every shape, so that the iOS check keeps covering them.
@Suite struct EveryShapeTests {
  static let fixture = Fixtures.repositoryRoot.appendingPathComponent("Tests/GenerateFixtures/EveryShape")

  static func generate(_ config: String, name: String) throws -> (lint: LintResult, result: Generator.Result) {
    let lint = try Fixtures.lint(inPlace: fixture.appendingPathComponent(config))
    return (lint, Generator.generate(lint, options: Generator.Options(name: name, configFileName: config)))
  }

  static func contents(_ result: Generator.Result, _ name: String) throws -> String {
    try #require(result.files.first { $0.name == name }, "no \(name) among \(result.files.map(\.name))").contents
  }

  @Test(arguments: [("tracking.yaml", "Tracking"), ("objc-runtime.yaml", "ObjCTracking")])
  func lintsCleanAndGeneratesCodeThatParses(config: String, name: String) throws {
    let (lint, result) = try Self.generate(config, name: name)
    #expect(lint.diagnostics.isEmpty, "\(TextDiagnosticRenderer.render(lint.diagnostics))")
    #expect(result.diagnostics.isEmpty, "\(TextDiagnosticRenderer.render(result.diagnostics))")
    #expect(Invariants.generatedCodeViolations(lint) == [])
    for file in result.files {
      _ = try GeneratedLayoutTests.expectParses(file.contents, file.name)
      GeneratedLayoutTests.expectLinesFit(file.contents, file.name)
    }
  }

  /// Code that names what is newer than the app's floor, or deprecated, says so too.
  @Test func generatedCodeRepeatsTheAvailabilityOfWhatItNames() throws {
    let (_, result) = try Self.generate("tracking.yaml", name: "Tracking")
    let feature = try Self.contents(result, "Tracking+ShapesFeature.swift")
    for expected in [
      "@available(iOS 17, macOS 14, *)\nextension WishlistModel {",
      "@available(iOS 17, *)\nextension ARPreviewViewController {",
      "@available(*, deprecated)\nextension LegacyPromoViewController {",
      "  @_dynamicReplacement(for: share(_:))\n  @available(iOS 17, *)\n  private func __trackc_share(",
      "\nextension CatalogViewController {",
    ] {
      #expect(feature.contains(expected), "no \(expected.debugDescription) in Tracking+ShapesFeature.swift")
    }
    // The base class's lifecycle reads the newer screen's state only where that screen exists.
    let kit = try Self.contents(result, "Tracking+ShapesKit.swift")
    #expect(kit.contains("\nextension BaseViewController {"))
    #expect(
      kit.contains(
        """
              if #available(iOS 17, *) {
                properties.string("model", (self as? ARPreviewViewController)?.modelName, required: false)
              }
        """))
  }

  /// The shapes the fixture exists to cover: if one goes, the iOS check stops covering it.
  @Test func thePlansKeepUsingEveryShape() throws {
    let (lint, result) = try Self.generate("tracking.yaml", name: "Tracking")
    let code = try #require(lint.code)
    let index = code.index
    let kinds = Set(code.mappedTypes.compactMap { index.externalBase(of: $0) })
    #expect(kinds.isSuperset(of: ["UIViewController", "UITableViewController", "UIHostingController"]), "\(kinds)")
    let attributes = code.mappedTypes.flatMap { index[$0].attributes ?? [] }
    #expect(attributes.contains("@Observable"))
    #expect(code.mappedTypes.contains { index[$0].inheritance.contains("ObservableObject") })
    #expect(index.swiftUI.trackedUses.count >= 3)

    let all = result.files.map(\.contents).joined(separator: "\n")
    // Every conversion of a bound value, and each wire type required and optional.
    for call in ["string", "int", "double", "bool"] {
      #expect(all.contains("properties.\(call)(") && all.contains("required: true)") && all.contains("required: false)"))
    }
    for call in ["integer", "integerAsDouble", "floatingPoint"] { #expect(all.contains("properties.\(call)("), "no \(call)") }
    #expect(all.contains(".rawValue, required:") && all.contains(".description, required:"))
    #expect(all.contains("?.rawValue, required: false)") && all.contains("?.name, required: false)"))
    // Every entry-point source and parameter type, the application events, the SwiftUI screens, the
    // privacy manifest.
    let routes = try Self.contents(result, "Tracking+Routes.swift")
    for piece in [
      "id: Int,", "year: Int64,", "name: String)", "id: UUID,", "tab: OrderTab)", "rest: [String])", "to: URL)", "ref: String?)",
      "route(notification payload:", "public static let shortcuts", "conditions: [\"signed_in\"]",
    ] {
      #expect(routes.contains(piece), "no \(piece.debugDescription) in the routes")
    }
    for event in ["installed", "updated", "opened", "backgrounded"] { #expect(all.contains("case .\(event):"), "no \(event)") }
    let swiftUI = try #require(result.swiftUIFile)
    #expect(swiftUI.contents.contains("case accountView") && swiftUI.contents.contains("case ordersView"))
    #expect(
      result.platformFiles.map(\.name).sorted() == [
        "Generated/AndroidManifest.xml", "Generated/PrivacyInfo.xcprivacy", "Generated/apple-app-site-association",
      ])

    let (objcLint, objc) = try Self.generate("objc-runtime.yaml", name: "ObjCTracking")
    let registry = try Self.contents(objc, "ObjCTracking.swift")
    #expect(registry.contains("root: .argument(0)") && registry.contains("root: .argument(1)") && registry.contains("root: .screen"))
    // A hook per handler of every shape of Objective-C signature, an override's, a nested class's.
    for piece in [
      "(@convention(c) (AnyObject, Selector) -> Void)", "(@convention(c) (AnyObject, Selector, AnyObject?) -> ObjCBool)",
      "(@convention(c) (AnyObject, Selector, AnyObject?, AnyObject?) -> Void)", "(@convention(c) (AnyObject, Selector, CGPoint, CGFloat) -> Void)",
      "(@convention(c) (AnyObject, Selector, Int, Int) -> Void)", "(@convention(c) (AnyObject, Selector, ObjCBool) -> Void)",
      "(@convention(c) (AnyObject, Selector, UnsafeMutableRawPointer?) -> ObjCBool)", "import CoreGraphics",
      // Apple's C structs by value, its enums and option sets by their raw types (the SDK's table).
      "(@convention(c) (AnyObject, Selector, UIEdgeInsets) -> Void)", "(@convention(c) (AnyObject, Selector, NSDirectionalEdgeInsets) -> Void)",
      "(@convention(c) (AnyObject, Selector, CLLocationCoordinate2D) -> Void)", "(@convention(c) (AnyObject, Selector, CMTime) -> Void)",
      "(@convention(c) (AnyObject, Selector, Int32) -> Void)", "(@convention(c) (AnyObject, Selector, UInt) -> Void)",
      "import CoreLocation", "import CoreMedia", "import UIKit",
      #"className: .objc("ShapesLegacy.PromoFeedViewController")"#, #"selector: "tableView:didSelectRowAtIndexPath:""#,
      #"className: .objc("_TtCC12ShapesLegacy26StoriesTableViewController20FilterViewController")"#, #"selector: "saveDraftAndReturnError:""#,
    ] {
      #expect(registry.contains(piece), "no \(piece.debugDescription) in ObjCTracking.swift")
    }
    #expect(objcLint.code?.index.swiftUI.trackedUses.isEmpty == false)
  }
}
