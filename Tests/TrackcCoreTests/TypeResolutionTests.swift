import Testing
import TrackcTestSupport

@testable import TrackcCore

/// Types read as the Swift compiler reads them, in every place trackc resolves one: aliases (the app's,
/// across modules, generic ones, chains of them, the SDK's), generic arguments along binding paths
/// (stored and computed properties, nested generics, constrained extensions, superclasses), type-erased
/// hosting roots, a name that is one parameter's and another's label, entry-point parameters and screen
/// kinds through aliases.
@Suite struct TypeResolutionTests {
  static func lint(_ yaml: String, _ files: [String: String]) -> LintResult {
    var options = LintOptions()
    options.code = .sources(.files(files.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
    options.scan.useCache = false
    return Linter.lint(ConfigSource(path: "tracking.yaml", text: yaml), options: options)
  }

  static func findings(_ result: LintResult) -> [String] {
    result.diagnostics.map { "\($0.severity): \($0.message) [\($0.ruleID)]" }
  }

  /// The resolutions of the plan's bindings, in plan order.
  static func resolutions(_ result: LintResult) throws -> [BindingResolution] {
    let code = try #require(result.code)
    return code.plan.bindings.map { code.resolution(of: $0.id) }
  }

  static func value(_ resolution: BindingResolution) -> BoundValue? {
    if case .resolved(let value) = resolution { return value }
    return nil
  }

  static func handlerPlan(_ screen: String, _ handler: String, _ properties: String, privacy: Bool = false) -> String {
    """
    version: 1
    interception: dynamic-replacement
    \(privacy ? "privacy:\n  identity: {anonymous_id: {data: device_id}}\ndestinations:\n  firebase: {wire_name: Firebase, purposes: [app_functionality]}\n" : "")screens:
      \(screen):
        control_events:
          \(handler): {event: EVENT, properties: \(properties)}
    """
  }

  // MARK: Aliases

  @Test func anAliasOfTheAppInAnotherModuleIsFollowed() throws {
    let result = Self.lint(
      Self.handlerPlan("ProductViewController", "open(id:)", "{product_id: {from: id}, code: {from: id, type: string}}"),
      [
        "Sources/Core/IDs.swift": "public typealias ProductID = String\n",
        "Sources/Shop/Product.swift": "import Core\nfinal class ProductViewController {\n  func open(id: ProductID) {}\n}\n",
      ])
    #expect(Self.findings(result).isEmpty, "\(Self.findings(result))")
    let values = try Self.resolutions(result).map(Self.value)
    #expect(values.map { $0?.wireType } == [.string, .string])
    #expect(values.first??.aliases == ["ProductID"])
    #expect(values.first??.writtenType == "ProductID")
  }

  @Test func genericAliasesAliasesOfAliasesAndNestedAliases() throws {
    let result = Self.lint(
      Self.handlerPlan(
        "Screen", "open()", "{a: {from: self.count}, b: {from: self.boxed.value}, c: {from: self.product.id}, d: {from: self.qualified}}"),
      [
        "Sources/App/Screen.swift": """
        typealias Count = Amount
        typealias Amount = Int
        typealias Boxed<T> = Box<T>
        struct Box<Value> { var value: Value }
        struct Product {
          typealias ID = String
          var id: ID
        }
        final class Screen {
          var count: Count = 0
          var boxed: Boxed<Double>
          var product: Product
          var qualified: Product.ID
          func open() {}
        }
        """
      ])
    #expect(Self.findings(result).isEmpty, "\(Self.findings(result))")
    let values = try Self.resolutions(result).map(Self.value)
    #expect(values.map { $0?.wireType } == [.int, .double, .string, .string])
    #expect(values[0]?.aliases == ["Count", "Amount"])
  }

  @Test func theSDKAliasesStandForTheirTypes() throws {
    let result = Self.lint(
      Self.handlerPlan(
        "MapViewController", "open()",
        "{a: {from: self.latitude}, b: {from: self.duration}, c: {from: self.width}, d: {from: self.legacy}, e: {from: self.wide}}"),
      [
        "Sources/Map/Map.swift": """
        import CoreLocation
        final class MapViewController {
          var latitude: CLLocationDegrees = 0
          var duration: TimeInterval = 0
          var width: CGFloat = 0
          var legacy: NSTimeInterval = 0
          var wide: Foundation.TimeInterval? = nil
          func open() {}
        }
        """
      ])
    // The one finding: the latitude is personal data the plan does not classify (as any plan is told).
    #expect(
      Self.findings(result) == [
        "warning: property 'a' of handler 'open()' of 'MapViewController' looks like personal data (precise_location) but does not say what data it is [unclassified-personal-data]"
      ], "\(Self.findings(result))")
    let values = try Self.resolutions(result).map(Self.value)
    #expect(values.map { $0?.wireType } == [.double, .double, .double, .double, .double])
    #expect(values.map { $0?.conversion } == [.direct, .direct, .floatingPoint, .direct, .direct])
    #expect(values[4]?.isOptional == true)
  }

  /// `unclassified-personal-type` reads the aliases: a latitude is a precise location.
  @Test func aPersonalTypeBehindAnSDKAliasIsRecognised() {
    let result = Self.lint(
      Self.handlerPlan("MapViewController", "open()", "{spot: {from: self.pin}}", privacy: true),
      ["Sources/Map/Map.swift": "final class MapViewController {\n  var pin: CLLocationDegrees = 0\n  func open() {}\n}\n"])
    #expect(
      Self.findings(result) == [
        "warning: property 'spot' of handler 'open()' of 'MapViewController' reads a 'CLLocationDegrees', which looks like personal data (precise_location), but does not say what data it is [unclassified-personal-type]"
      ])
  }

  // MARK: Generic arguments

  static let generics = """
    struct Box<Value> {
      var value: Value
      var maybe: Value? { nil }
    }
    extension Box where Value == Int {
      var doubled: Int { value * 2 }
    }
    extension Box where Value == String {
      var doubled: String { value + value }
    }
    struct Product { var name: String }
    class ListScreen<Item> {
      var selected: Item?
      var items: Box<Item>
    }
    final class ProductsScreen: ListScreen<Product> {
      var box: Box<String>
      var nested: Box<Box<Int>>
      var counter: Box<Int>
      func open() {}
    }
    final class AnyScreen<T> {
      var item: T
      func open() {}
    }
    """

  @Test func genericArgumentsAreSubstitutedAlongThePath() throws {
    let result = Self.lint(
      Self.handlerPlan(
        "ProductsScreen", "open()",
        "{a: {from: self.box.value}, b: {from: self.box.maybe}, c: {from: self.nested.value.value}, d: {from: self.counter.doubled}, e: {from: self.box.doubled}, f: {from: self.selected.name}, g: {from: self.items.value.name}}"
      ), ["Sources/App/Screens.swift": Self.generics])
    #expect(Self.findings(result).isEmpty, "\(Self.findings(result))")
    let values = try Self.resolutions(result).map(Self.value)
    #expect(values.map { $0?.wireType } == [.string, .string, .int, .int, .string, .string, .string])
    #expect(values.map { $0?.isOptional } == [false, true, false, false, false, true, false])
  }

  @Test func aGenericParameterWhoseArgumentIsNotKnownIsSaidSo() {
    let result = Self.lint(Self.handlerPlan("AnyScreen", "open()", "{a: {from: self.item}}"), ["Sources/App/Screens.swift": Self.generics])
    #expect(
      Self.findings(result).filter { $0.hasSuffix("[unsupported-property-type]") } == [
        "error: property 'a' of handler 'open()' of 'AnyScreen' reads 'self.item', of type 'T', a generic parameter of 'AnyScreen' whose argument the path does not tell, so its type cannot be known without the compiler; bind it through a property whose type names the argument ('Box<String>') [unsupported-property-type]"
      ])
  }

  // MARK: Type erasure

  static let receipt = """
    import SwiftUI
    struct ReceiptView: View {
      var body: some View { Text("Receipt") }
    }
    struct Card<Content: View>: View {
      var content: Content
      var body: some View { content }
    }
    extension View {
      func eraseToAnyView() -> AnyView { AnyView(self) }
    }

    """

  static func hostingPlan(_ interception: String = "objc-runtime") -> String {
    "version: 1\ninterception: \(interception)\nscreens:\n  ReceiptView: {page_events: {enter: RECEIPT_ENTER}}\n"
  }

  @Test(arguments: [
    "UIHostingController(rootView: AnyView(ReceiptView()))",
    "UIHostingController(rootView: Card(content: ReceiptView()))",
    "UIHostingController(rootView: ReceiptView().eraseToAnyView())",
    "{ let root: AnyView = AnyView(ReceiptView()); return UIHostingController(rootView: root) }()",
    "UIHostingController<AnyView>(rootView: AnyView(ReceiptView()))",
  ])
  func aTypeErasedRootReportsNoScreen(_ hosting: String) throws {
    let result = Self.lint(
      Self.hostingPlan(), ["Sources/Receipt/Receipt.swift": Self.receipt + "func makeReceipt() -> UIViewController { \(hosting) }\n"])
    let finding = try #require(result.diagnostics.first { $0.ruleID == "unreached-screen" }, "\(Self.findings(result))")
    #expect(finding.severity == .error)
    #expect(
      finding.message.contains("which erases the view's type, so the hosting controller reports no screen; add '.tracked(.receiptView)' to its body"))
    #expect(result.code?.index.swiftUI.hostedViews.isEmpty == true)
  }

  @Test(arguments: [
    "UIHostingController(rootView: ReceiptView())",
    "UIHostingController(rootView: ReceiptView().padding().environmentObject(Model()))",
    "UIHostingController<ReceiptView>(rootView: ReceiptView())",
  ])
  func aRootOfTheViewsOwnTypeIsReported(_ hosting: String) {
    let result = Self.lint(
      Self.hostingPlan(), ["Sources/Receipt/Receipt.swift": Self.receipt + "func makeReceipt() -> UIViewController { \(hosting) }\n"])
    #expect(Self.findings(result).isEmpty, "\(Self.findings(result))")
  }

  @Test func aHostingSubclassOfAnErasedRootReportsNoScreen() throws {
    let result = Self.lint(
      Self.hostingPlan(),
      ["Sources/Receipt/Receipt.swift": Self.receipt + "final class ReceiptHost: UIHostingController<Card<ReceiptView>> {}\n"])
    #expect(result.diagnostics.map(\.ruleID) == ["unreached-screen"], "\(Self.findings(result))")
  }

  // MARK: Parameters

  @Test func aNameThatIsAParameterAndAnotherLabelReadsTheParameterAndSaysSo() throws {
    let result = Self.lint(
      Self.handlerPlan("SwapViewController", "swap(a:b:)", "{first: {from: a}, second: {from: b}}"),
      ["Sources/Swap/Swap.swift": "final class SwapViewController {\n  func swap(a b: Int, b a: String) {}\n}\n"])
    let values = try Self.resolutions(result).map(Self.value)
    #expect(values.map { $0?.root } == [.parameter(index: 1), .parameter(index: 0)])
    #expect(values.map { $0?.wireType } == [.string, .int])
    #expect(result.diagnostics.map(\.ruleID) == ["ambiguous-binding-parameter", "ambiguous-binding-parameter"])
    #expect(result.diagnostics.allSatisfy { $0.severity == .warning })
  }

  @Test func anEntryPointParameterThroughAnAlias() {
    let result = Self.lint(
      """
      version: 1
      screens:
        ProductViewController: {page_events: {enter: PRODUCT_ENTER}}
      links: {schemes: [shop]}
      entry_points:
        product: {screen: ProductViewController, links: ["shop://product/{product_id:string}?ref={ref:int?}"]}
      """,
      [
        "Sources/Core/IDs.swift": "public typealias ProductID = String\npublic typealias Referrer = Int\n",
        "Sources/Shop/Product.swift":
          "import UIKit\nimport Core\nclass ProductViewController: UIViewController {\n  init(productID: ProductID, ref: Referrer?) { super.init(nibName: nil, bundle: nil) }\n  required init?(coder: NSCoder) { nil }\n}\n",
      ])
    #expect(Self.findings(result).isEmpty, "\(Self.findings(result))")
  }

  // MARK: Screen kinds

  @Test func screenKindsThroughAliases() throws {
    let scanned = SourceScanner.scan(
      .files([
        (
          "Sources/App/Kinds.swift",
          """
          import UIKit
          import SwiftUI
          typealias PlatformViewController = UIViewController
          typealias Screen = View & Identifiable
          typealias Base = BaseViewController
          class BaseViewController: PlatformViewController {}
          final class HomeViewController: Base {}
          struct HomeView: Screen {
            var id: Int
            var body: some View { Text("") }
          }
          """
        )
      ]), options: ScanOptions(useCache: false))
    let index = CodeIndex(scanned.registry)
    let home = try #require(index.byNameLookup("HomeViewController").first)
    let base = try #require(index.byNameLookup("BaseViewController").first)
    let view = try #require(index.byNameLookup("HomeView").first)
    #expect(index.lineage(of: home) == [home, base])
    #expect(index.screenKind(of: home) == .viewController)
    #expect(index.screenKind(of: view) == .swiftUIView)
  }

  // MARK: Hostile sources

  /// Aliases that double at each step, and a cycle: resolved (or given up) at once, never exponentially.
  @Test func aliasesThatDoubleOrLoopStopEarly() throws {
    var source = "struct Pair<A, B> { var a: A }\ntypealias A0 = Int\n"
    for level in 1...40 { source += "typealias A\(level) = Pair<A\(level - 1), A\(level - 1)>\n" }
    source += "typealias Loop = Loop2\ntypealias Loop2 = Loop\n"
    source += "final class Screen {\n  var deep: A40\n  var loop: Loop\n  func open() {}\n}\n"
    let clock = ContinuousClock()
    var result: LintResult?
    let elapsed = clock.measure {
      result = Self.lint(Self.handlerPlan("Screen", "open()", "{a: {from: self.deep}, b: {from: self.loop}}"), ["Sources/App/Screen.swift": source])
    }
    let findings = Self.findings(try #require(result))
    #expect(findings.count == 2 && findings.allSatisfy { $0.hasSuffix("[unsupported-property-type]") }, "\(findings)")
    #expect(elapsed < .seconds(TimeLimits.seconds(10)), "\(elapsed)")
  }
}
