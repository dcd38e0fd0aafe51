import Foundation
import Testing
import TrackcCore
import TrackcTestSupport

/// What the scanner reads from Swift sources: types, extensions, methods, access, Objective-C exposure,
/// and what it does with files that are not clean Swift.
@Suite struct SourceScannerTests {
  static func scan(_ files: [(path: String, text: String)], module: String? = nil) -> ScanResult {
    SourceScanner.scan(.files(files), options: ScanOptions(module: module, useCache: false))
  }

  static func type(_ name: String, module: String? = nil, in result: ScanResult) throws -> DeclaredType {
    try #require(result.registry.types.first { $0.name == name && (module == nil || $0.module == module) }, "no type \(name)")
  }

  static func method(_ name: String, of type: DeclaredType) throws -> DeclaredMethod {
    try #require(type.methods.first { $0.name == name }, "\(type.name) has no \(name)")
  }

  /// `@available` keeps its platforms and versions (not its message), and a declaration carries those of
  /// the types and extension around it: generated code that names it repeats them.
  @Test func availabilityIsRecordedWithWhatEnclosesIt() throws {
    let result = Self.scan([
      (
        "Sources/Wishlist/Model.swift",
        """
        @available(iOS 17,   macOS 14, *)
        final class Model {
          func add() {}
          @available(iOS, introduced: 17.2, deprecated: 18.0, message: "Use add()")
          func insert() {}
          var count: Int { 0 }
          struct Row {}
        }
        @available(*, deprecated, message: "Gone, \"soon\"")
        class Old {}
        class Screen {}
        @available(iOS 17.4, *)
        extension Screen {
          func newer() {}
        }
        """
      )
    ])
    let model = try Self.type("Model", in: result)
    #expect(model.attributes == ["@available(iOS 17, macOS 14, *)"])
    #expect(try Self.method("add()", of: model).attributes == ["@available(iOS 17, macOS 14, *)"])
    #expect(
      try Self.method("insert()", of: model).attributes == [
        "@available(iOS, introduced: 17.2, deprecated: 18.0)", "@available(iOS 17, macOS 14, *)",
      ])
    #expect(model.properties?.first?.attributes == ["@available(iOS 17, macOS 14, *)"])
    #expect(try Self.type("Model.Row", in: result).attributes == ["@available(iOS 17, macOS 14, *)"])
    #expect(try Self.type("Old", in: result).attributes == ["@available(*, deprecated)"])
    let screen = try Self.type("Screen", in: result)
    #expect(screen.attributes == [])
    #expect(try Self.method("newer()", of: screen).attributes == ["@available(iOS 17.4, *)"])
  }

  @Test func nestedTypesAndExtensionsInOtherFilesAreMerged() throws {
    let result = Self.scan([
      ("Sources/Home/Outer.swift", "class Outer {\n  struct Inner {\n    func a() {}\n  }\n  func b() {}\n}\n"),
      (
        "Sources/Home/Outer+More.swift",
        "extension Outer {\n  func c(_ x: Int) {}\n  enum Nested { case one }\n}\nextension Outer.Inner {\n  func d(label: Int) {}\n}\n"
      ),
    ])
    let outer = try Self.type("Outer", in: result)
    #expect(outer.methods.map(\.name) == ["b()", "c(_:)"])
    #expect(outer.extensions == [RegistryLocation(file: "Sources/Home/Outer+More.swift", line: 1, column: 11)])
    #expect(outer.location == RegistryLocation(file: "Sources/Home/Outer.swift", line: 1, column: 7))
    let inner = try Self.type("Outer.Inner", in: result)
    #expect(inner.kind == .struct)
    #expect(inner.methods.map(\.name) == ["a()", "d(label:)"])
    #expect(try Self.method("d(label:)", of: inner).location == RegistryLocation(file: "Sources/Home/Outer+More.swift", line: 6, column: 8))
    #expect(try Self.type("Outer.Nested", in: result).kind == .enum)
    #expect(result.diagnostics.isEmpty)
  }

  @Test func kindsInheritanceAndModules() throws {
    let result = Self.scan([
      ("App/Sources/Home/Screens.swift", "final class Home: Base, Sendable {}\nactor Store {}\nprotocol Screen: AnyObject {}\n"),
      ("App/Sources/Core/Base.swift", "open class Base: UIViewController {}\n"),
      ("Scripts/loose.swift", "struct Loose {}\n"),
    ])
    let home = try Self.type("Home", in: result)
    #expect(home.module == "Home")
    #expect(home.inheritance == ["Base", "Sendable"])
    #expect(try Self.type("Base", in: result).module == "Core")
    #expect(try Self.type("Base", in: result).access == .open)
    #expect(try Self.type("Store", in: result).kind == .actor)
    #expect(try Self.type("Screen", in: result).kind == .protocol)
    #expect(try Self.type("Loose", in: result).module == nil)
    let overridden = Self.scan([("App/Sources/Home/Screens.swift", "class Home {}\n")], module: "Shop")
    #expect(try Self.type("Home", in: overridden).module == "Shop")
    #expect(SourceScanner.moduleName(forPath: "/repo/Sources/Feature/Sub/File.swift") == "Feature")
    #expect(SourceScanner.moduleName(forPath: "Tests/FeatureTests/File.swift") == "FeatureTests")
    #expect(SourceScanner.moduleName(forPath: "Sources/File.swift") == nil)
    // A plan in its module's folder names the feature modules beside it.
    #expect(SourceScanner.moduleName(forPath: "Sources/AppTracking/../Home/File.swift") == "Home")
    #expect(SourceScanner.moduleName(forPath: "/repo/Sources/AppTracking/./../Home/Sub/File.swift") == "Home")
    #expect(SourceScanner.moduleName(forPath: "Sources/Home/Sub/../File.swift") == "Home")
    #expect(SourceScanner.moduleName(forPath: "Sources/Home/../File.swift") == nil)
    #expect(SourceScanner.moduleName(forPath: "../../Sources/Home/File.swift") == "Home")
  }

  @Test func sameNameInTwoModulesStaysTwoTypes() throws {
    let result = Self.scan([
      ("Sources/Settings/Profile.swift", "class ProfileViewController { func a() {} }\n"),
      ("Sources/Profile/Profile.swift", "class ProfileViewController { func b() {} }\nextension ProfileViewController { func c() {} }\n"),
    ])
    #expect(try Self.type("ProfileViewController", module: "Settings", in: result).methods.map(\.name) == ["a()"])
    #expect(try Self.type("ProfileViewController", module: "Profile", in: result).methods.map(\.name) == ["b()", "c()"])
  }

  @Test func accessIsTheEffectiveOne() throws {
    let result = Self.scan([
      (
        "Sources/App/A.swift",
        """
        public class A {
          func plain() {}
          private func hidden() {}
          open func wide() {}
        }
        private extension A {
          func inPrivateExtension() {}
        }
        public extension A {
          func inPublicExtension() {}
        }
        fileprivate class B {
          public func claimsPublic() {}
        }
        """
      )
    ])
    let a = try Self.type("A", in: result)
    #expect(try Self.method("plain()", of: a).access == .internal)
    #expect(try Self.method("hidden()", of: a).access == .private)
    // `open` in a class that is only public is public.
    #expect(try Self.method("wide()", of: a).access == .public)
    #expect(try Self.method("inPrivateExtension()", of: a).access == .fileprivate)
    #expect(try Self.method("inPublicExtension()", of: a).access == .public)
    #expect(try Self.method("claimsPublic()", of: Self.type("B", in: result)).access == .fileprivate)
  }

  @Test func attributesAndObjectiveCExposure() throws {
    let result = Self.scan([
      (
        "Sources/App/Screens.swift",
        """
        class Base: UIViewController {
          @objc dynamic func tapped(_ sender: Any) {}
          @IBAction private func pressed(_ sender: Any) {}
          @objc(customName:) func renamed(_ x: Int) {}
          final func plain() {}
          override func viewDidLoad() {}
        }
        class Sub: Base {
          override func tapped(_ sender: Any) {}
          override func renamed(_ x: Int) {}
        }
        @objcMembers class Everything: NSObject {
          func one() {}
          @nonobjc func notThis() {}
        }
        @objc extension Base {
          func fromObjCExtension() {}
        }
        struct Value {
          @objc func cannot() {}
        }
        """
      )
    ])
    let base = try Self.type("Base", in: result)
    #expect(try Self.method("tapped(_:)", of: base).attributes == ["@objc", "dynamic"])
    #expect(try Self.method("tapped(_:)", of: base).objcSelector == "tapped:")
    #expect(try Self.method("pressed(_:)", of: base).objcSelector == "pressed:")
    #expect(try Self.method("pressed(_:)", of: base).attributes == ["@IBAction", "private"].filter { $0.hasPrefix("@") })
    #expect(try Self.method("renamed(_:)", of: base).objcSelector == "customName:")
    #expect(try Self.method("renamed(_:)", of: base).attributes == ["@objc(customName:)"])
    #expect(try Self.method("plain()", of: base).objcSelector == nil)
    #expect(try Self.method("plain()", of: base).attributes == ["final"])
    // Overrides of framework methods and of exposed methods are exposed, under the overridden selector.
    #expect(try Self.method("viewDidLoad()", of: base).objcSelector == "viewDidLoad")
    let sub = try Self.type("Sub", in: result)
    #expect(try Self.method("tapped(_:)", of: sub).objcSelector == "tapped:")
    #expect(try Self.method("renamed(_:)", of: sub).objcSelector == "customName:")
    let everything = try Self.type("Everything", in: result)
    #expect(everything.objcMembers)
    #expect(try Self.method("one()", of: everything).objcSelector == "one")
    #expect(try Self.method("notThis()", of: everything).objcSelector == nil)
    #expect(try Self.method("fromObjCExtension()", of: base).objcSelector == "fromObjCExtension")
    #expect(try Self.method("cannot()", of: Self.type("Value", in: result)).objcSelector == nil)
  }

  @Test func conditionalCompilationIsIncludedAndMarked() throws {
    let result = Self.scan([
      (
        "Sources/App/Screen.swift",
        """
        class Screen {
          #if DEBUG
            func debugOnly() {}
          #elseif STAGING
            func stagingOnly() {}
          #else
            func releaseOnly() {}
          #endif
          func always() {}
        }
        #if os(iOS)
        class PhoneOnly {
          func a() {}
        }
        #endif
        """
      )
    ])
    let screen = try Self.type("Screen", in: result)
    for name in ["debugOnly()", "stagingOnly()", "releaseOnly()"] {
      #expect(try Self.method(name, of: screen).conditional, "\(name)")
    }
    #expect(try !Self.method("always()", of: screen).conditional)
    #expect(try Self.type("PhoneOnly", in: result).conditional)
    #expect(try Self.method("a()", of: Self.type("PhoneOnly", in: result)).conditional)
  }

  @Test func genericContexts() throws {
    let result = Self.scan([
      (
        "Sources/App/Generic.swift",
        """
        class List<Item> {
          func select(_ item: Item) {}
          struct Row { func tap() {} }
        }
        class Plain {
          func generic<T>(_ value: T) {}
          func concrete() {}
        }
        extension Array where Element == Int {
          func sum() -> Int { 0 }
        }
        """
      )
    ])
    #expect(try Self.type("List", in: result).isGeneric)
    #expect(try Self.method("select(_:)", of: Self.type("List", in: result)).inGenericContext)
    #expect(try Self.method("tap()", of: Self.type("List.Row", in: result)).inGenericContext)
    let plain = try Self.type("Plain", in: result)
    #expect(try Self.method("generic(_:)", of: plain).inGenericContext)
    #expect(try !Self.method("concrete()", of: plain).inGenericContext)
    let array = try Self.type("Array", in: result)
    #expect(array.kind == .external)
    #expect(try Self.method("sum()", of: array).inGenericContext)
  }

  @Test func staticMethodsAndDocumentation() throws {
    let result = Self.scan([
      (
        "Sources/App/Screen.swift",
        """
        class Screen {
          /// Opens the item.
          ///
          /// - Note: @tracked
          func open() {}
          /** Block comment. */
          static func make() {}
          class func classMethod() {}
          // Not a doc comment.
          func plain() {}
        }
        """
      )
    ])
    let screen = try Self.type("Screen", in: result)
    #expect(try Self.method("open()", of: screen).documentation == "Opens the item.\n\n- Note: @tracked")
    #expect(try Self.method("make()", of: screen).documentation == "Block comment.")
    #expect(try Self.method("make()", of: screen).isStatic)
    #expect(try Self.method("classMethod()", of: screen).isStatic)
    #expect(try Self.method("plain()", of: screen).documentation == nil)
  }

  @Test func handlersResolveThroughSuperclassesAcrossModules() throws {
    let result = Self.scan([
      ("Sources/Core/Base.swift", "open class Base: UIViewController {\n  @objc func help(_ s: Any) {}\n  static func make() {}\n}\n"),
      ("Sources/Home/Home.swift", "class Home: Base {\n  @objc func fav(_ s: Any) {}\n}\nclass Gift: Home {}\n"),
    ])
    let index = CodeIndex(result.registry)
    guard case .found(let gift) = index.resolve(screen: try SwiftTypeName.parse("Gift").get()) else {
      Issue.record("Gift not found")
      return
    }
    #expect(index.lineage(of: gift).map { index[$0].name } == ["Gift", "Home", "Base"])
    #expect(index.externalBase(of: gift) == "UIViewController")
    for handler in ["help(_:)", "fav", "help:"] {
      guard case .found(let reference) = index.resolve(handler: try HandlerName.parse(handler).get(), on: gift) else {
        Issue.record("\(handler) not found on Gift")
        continue
      }
      #expect(index[reference].location.file.hasSuffix(handler.hasPrefix("help") ? "Base.swift" : "Home.swift"))
    }
    guard case .notFound = index.resolve(handler: try HandlerName.parse("make()").get(), on: gift) else {
      Issue.record("a static method must not be a handler")
      return
    }
  }

  /// What a generated replacement must repeat: parameter types, result, effects, `mutating`; and the
  /// imports it needs.
  @Test func signaturesAndImports() throws {
    let result = Self.scan([
      (
        "Sources/App/Screen.swift",
        """
        import Foundation
        @testable import Core
        import struct Shop.Product
        #if canImport(UIKit)
          import UIKit
        #endif

        struct Screen {
          mutating func add(_ item: inout [String], at index: Int = 0, _ rest: Int...) {}
          func load(from url: URL, completion: @escaping (Result<Data, Error>) -> Void) async throws -> [String: Int] { [:] }
          nonisolated func value() throws(MyError) -> Int { 0 }
        }
        """
      )
    ])
    let screen = try Self.type("Screen", in: result)
    #expect(screen.imports == ["Core", "Foundation", "Shop"])
    let add = try Self.method("add(_:at:_:)", of: screen)
    #expect(
      add.signature
        == MethodSignature(
          parameters: [
            .init(label: nil, name: "item", type: "inout [String]"), .init(label: "at", name: "index", type: "Int", hasDefaultValue: true),
            .init(label: nil, name: "rest", type: "Int..."),
          ],
          returnType: nil, effects: nil))
    #expect(add.signature?.parameters[0].isInout == true)
    #expect(add.signature?.parameters[2].isVariadic == true)
    #expect(add.attributes == ["mutating"])
    let load = try Self.method("load(from:completion:)", of: screen)
    #expect(
      load.signature
        == MethodSignature(
          parameters: [
            .init(label: "from", name: "url", type: "URL"),
            .init(label: "completion", name: "completion", type: "@escaping (Result<Data, Error>) -> Void"),
          ],
          returnType: "[String: Int]", effects: "async throws"))
    let value = try Self.method("value()", of: screen)
    #expect(value.signature?.effects == "throws(MyError)")
    #expect(value.signature?.returnType == "Int")
    #expect(value.attributes == ["nonisolated"])
  }

  // MARK: What bindings and entry points need

  static func property(_ name: String, isStatic: Bool = false, of type: DeclaredType) throws -> DeclaredProperty {
    try #require(type.properties?.first { $0.name == name && $0.isStatic == isStatic }, "\(type.name) has no property \(name)")
  }

  static func initializer(_ name: String, of type: DeclaredType) throws -> DeclaredInitializer {
    try #require(type.initializers?.first { $0.name == name }, "\(type.name) has no \(name)")
  }

  @Test func propertiesWithTypeAccessStaticAndConditional() throws {
    let result = Self.scan([
      (
        "Sources/App/Cart.swift",
        """
        public final class CartViewController: UIViewController {
          public private(set) var cart: Cart = Cart()
          var selectedTab: Tab? = nil
          let `default` = 0.5, title = "Cart"
          var a, b: Int
          private var secret: String { "s" }
          static let shared = CartViewController()
          @objc dynamic var couponCode: String?
          @objc(itemCount) var count: Int { get async throws { 0 } }
          lazy var formatter = makeFormatter()
          #if DEBUG
          var debugLabel: String = ""
          #endif
          func checkout() {
            let local = 1
          }
        }
        struct Cart {
          var total: Double
          var items: [Item] = []
        }
        """
      ),
      (
        "Sources/App/Cart+State.swift",
        """
        extension CartViewController {
          var isEmpty: Bool { cart.items.isEmpty }
          static var count: Int { 0 }
        }
        """
      ),
    ])
    let screen = try Self.type("CartViewController", in: result)
    let cart = try Self.property("cart", of: screen)
    #expect(cart.type == "Cart" && !cart.typeIsInferred && cart.access == .public && !cart.isComputed && !cart.isStatic)
    #expect(try Self.property("selectedTab", of: screen).type == "Tab?")
    let defaultValue = try Self.property("default", of: screen)
    #expect(defaultValue.type == "Double" && defaultValue.typeIsInferred && defaultValue.isConstant)
    #expect(try Self.property("title", of: screen).type == "String")
    // `var a, b: Int`: both are Int.
    #expect(try Self.property("a", of: screen).type == "Int")
    #expect(try Self.property("b", of: screen).type == "Int")
    let secret = try Self.property("secret", of: screen)
    #expect(secret.isComputed && secret.access == .private && secret.type == "String")
    let shared = try Self.property("shared", isStatic: true, of: screen)
    #expect(shared.type == "CartViewController" && shared.typeIsInferred)
    let coupon = try Self.property("couponCode", of: screen)
    #expect(coupon.objcName == "couponCode" && coupon.attributes == ["@objc", "dynamic"])
    let count = try Self.property("count", of: screen)
    #expect(count.objcName == "itemCount" && count.hasEffectfulGetter && count.isComputed)
    #expect(try Self.property("count", isStatic: true, of: screen).isComputed)
    // Neither written nor plain from its value: no type, never a guess.
    #expect(try Self.property("formatter", of: screen).type == nil)
    #expect(try Self.property("debugLabel", of: screen).conditional)
    #expect(try !Self.property("cart", of: screen).conditional)
    // Extensions add theirs; a method's locals are not properties.
    let isEmpty = try Self.property("isEmpty", of: screen)
    #expect(isEmpty.isComputed && isEmpty.location.file == "Sources/App/Cart+State.swift")
    #expect(screen.properties?.contains { $0.name == "local" } == false)
    // Sorted by name, instance before static: the same bytes whatever the order of files or members.
    #expect(
      screen.properties?.map(\.name) == [
        "a", "b", "cart", "count", "count", "couponCode", "debugLabel", "default", "formatter",
        "isEmpty", "secret", "selectedTab", "shared", "title",
      ])
    let model = try Self.type("Cart", in: result)
    #expect(try Self.property("total", of: model).type == "Double")
    #expect(try Self.property("items", of: model).type == "[Item]")
  }

  @Test func initializersAndParameterNames() throws {
    let result = Self.scan([
      (
        "Sources/App/Feed.swift",
        """
        final class FeedViewController {
          /// Opens a feed.
          init(feed: Feed, at position: Int = 0, _ source: String) {}
          convenience init?(coder: NSCoder) { nil }
          private init() throws {}
          func open(_ product: Product, at position: Int, `for` reason: String) {}
        }
        extension FeedViewController {
          public convenience init(`default`: Bool) { self.init() }
        }
        """
      )
    ])
    let feed = try Self.type("FeedViewController", in: result)
    #expect(feed.initializers?.map(\.name) == ["init()", "init(coder:)", "init(default:)", "init(feed:at:_:)"])
    let main = try Self.initializer("init(feed:at:_:)", of: feed)
    #expect(
      main.signature.parameters == [
        .init(label: "feed", name: "feed", type: "Feed"), .init(label: "at", name: "position", type: "Int", hasDefaultValue: true),
        .init(label: nil, name: "source", type: "String"),
      ])
    #expect(main.documentation == "Opens a feed.")
    let coder = try Self.initializer("init(coder:)", of: feed)
    #expect(coder.failability == "?" && coder.attributes == ["convenience"])
    let hidden = try Self.initializer("init()", of: feed)
    #expect(hidden.access == .private && hidden.signature.effects == "throws")
    #expect(try Self.initializer("init(default:)", of: feed).signature.parameters == [.init(label: "default", name: "default", type: "Bool")])
    let open = try Self.method("open(_:at:for:)", of: feed)
    #expect(
      open.signature?.parameters == [
        .init(label: nil, name: "product", type: "Product"), .init(label: "at", name: "position", type: "Int"),
        .init(label: "for", name: "reason", type: "String"),
      ])
  }

  @Test func propertiesAndInitializersRoundTripThroughTheRegistryJSON() throws {
    let files: [(path: String, text: String)] = [
      ("Sources/A/A.swift", "class A { var z: Int = 0\n var y = \"\"\n init(x: Int) {}\n }\n"),
      ("Sources/A/A+B.swift", "extension A { var b: Bool { true }\n convenience init() { self.init(x: 0) } }\n"),
    ]
    let forward = Self.scan(files)
    // What was read: the class's stored and computed properties (the extension's too) and both
    // initializers, whatever the order the files come in.
    let a = try Self.type("A", in: forward)
    #expect(a.properties?.map(\.name).sorted() == ["b", "y", "z"])
    #expect(a.initializers?.map(\.name).sorted() == ["init()", "init(x:)"])
    #expect(forward.registry.json() == Self.scan(files.reversed()).registry.json())
    let decoded = HandlerRegistry.decode(InputBytes(Array(forward.registry.json().utf8)))
    #expect(decoded.problems.isEmpty)
    #expect(decoded.registry == forward.registry)
    #expect(decoded.registry?.types.first { $0.name == "A" }?.properties?.count == 3)
  }

  @Test func invalidSwiftYieldsWhatCanBeReadAndAWarning() throws {
    let result = Self.scan([
      (
        "Sources/App/Broken.swift",
        """
        class Before {
          func a() {}
        }
        class Broken {
          func b( {}
          func c() {}
        }
        class After {
          func d() {}
        }
        """
      )
    ])
    #expect(try Self.method("a()", of: Self.type("Before", in: result)).name == "a()")
    #expect(try Self.method("d()", of: Self.type("After", in: result)).name == "d()")
    #expect(try Self.type("Broken", in: result).methods.contains { $0.name == "c()" })
    let warning = try #require(result.diagnostics.first)
    #expect(warning.ruleID == "swift-source")
    #expect(warning.severity == .warning)
    #expect(warning.location.file == "Sources/App/Broken.swift")
    #expect(warning.location.line == 5)
    #expect(warning.message.contains("not valid Swift"))
  }

  /// swift-syntax's diagnostics generator stops the process on an `=` an invalid character touches (its
  /// Fix-It would have no change): the file is still read, with the lexer's words at the `=`. Its siblings,
  /// an `=` without a space on one side, keep the generator's own message.
  @Test func anEqualBesideAnInvalidCharacterIsReportedNotFatal() throws {
    for (text, message) in [
      ("enum E {\n  case a \u{FFFD}= \"b\"\n  case c\n}\n", "'=' must have consistent whitespace on both sides"),
      ("enum E {\n  case a \u{FFFD}=\"b\"\n  case c\n}\n", "invalid character in source file"),
      ("enum E {\n  case a= \"b\"\n  case c\n}\n", "'=' must have consistent whitespace on both sides"),
    ] {
      let result = Self.scan([("Sources/App/Events.swift", text)])
      #expect(try Self.type("E", in: result).name == "E", "\(text)")
      let warning = try #require(result.diagnostics.first, "\(text)")
      #expect(warning.severity == .warning)
      #expect(warning.location.line == 2)
      #expect(warning.message == "this is not valid Swift: \(message); declarations after it may be missed", "\(text)")
    }
  }

  @Test func sameSourcesGiveTheSameBytesInAnyOrder() throws {
    let files: [(path: String, text: String)] = [
      ("Sources/B/B.swift", "class B { func z() {}\n func a() {} }\nextension A { func m() {} }\n"),
      ("Sources/A/A.swift", "class A { func y() {} }\nstruct C {}\n"),
      ("Sources/A/A+Ext.swift", "extension A { func b() {} }\n"),
    ]
    let scanned = Self.scan(files)
    // What the bytes hold: each type once, an extension's methods with its type's.
    #expect(scanned.registry.types.map(\.name).sorted() == ["A", "B", "C"])
    #expect(try Self.type("A", in: scanned).methods.map(\.name).sorted() == ["b()", "m()", "y()"])
    #expect(try Self.type("B", in: scanned).methods.map(\.name).sorted() == ["a()", "z()"])
    #expect(try Self.type("C", in: scanned).methods.isEmpty)
    let forward = scanned.registry.json()
    let backward = Self.scan(files.reversed()).registry.json()
    #expect(forward == backward)
  }

  // MARK: Files on disk

  @Test func nonUTF8FileIsReportedAndTheRestScanned() throws {
    let scratch = try ScratchDirectory("scan")
    defer { scratch.remove() }
    try scratch.write("Sources/App/Latin1.swift", bytes: Array("class Caf".utf8) + [0xE9] + Array(" {}\n".utf8))
    try scratch.write("Sources/App/Good.swift", "class Good { func ok() {} }\n")
    let result = SourceScanner.scan(.paths([scratch.path + "/Sources"]), options: ScanOptions(useCache: false))
    #expect(result.registry.types.map(\.name) == ["Good"])
    let warning = try #require(result.diagnostics.first)
    #expect(warning.location.file == scratch.path + "/Sources/App/Latin1.swift")
    #expect(warning.location.line == 1 && warning.location.column == 10)
    #expect(warning.message.contains("not valid UTF-8"))
  }

  @Test func pathsWithSpacesAndUnicode() throws {
    let scratch = try ScratchDirectory("scan")
    defer { scratch.remove() }
    try scratch.write("My App/Sources/Écran d’accueil/Vue 🏠.swift", "class Accueil { @objc func touché(_ s: Any) {} }\n")
    let result = SourceScanner.scan(.paths([scratch.path + "/My App"]), options: ScanOptions(useCache: false))
    let type = try Self.type("Accueil", in: result)
    #expect(type.module == "Écran d’accueil")
    #expect(type.location.file == scratch.path + "/My App/Sources/Écran d’accueil/Vue 🏠.swift")
    #expect(type.methods.first?.name == "touché(_:)")
    #expect(type.methods.first?.location.column == 28)
  }

  @Test func symbolicLinkLoopsDoNotHang() throws {
    let scratch = try ScratchDirectory("scan")
    defer { scratch.remove() }
    try scratch.write("Sources/App/A.swift", "class A {}\n")
    try FileManager.default.createSymbolicLink(atPath: scratch.path + "/Sources/App/loop", withDestinationPath: "..")
    try FileManager.default.createSymbolicLink(atPath: scratch.path + "/Sources/App/self", withDestinationPath: ".")
    try FileManager.default.createSymbolicLink(atPath: scratch.path + "/Sources/App/Alias.swift", withDestinationPath: "A.swift")
    try FileManager.default.createSymbolicLink(atPath: scratch.path + "/Sources/App/Dangling.swift", withDestinationPath: "Missing.swift")
    let result = SourceScanner.scan(.paths([scratch.path + "/Sources"]), options: ScanOptions(useCache: false))
    #expect(result.fileCount == 1)
    #expect(result.registry.types.map(\.name) == ["A"])
  }

  @Test func hiddenDirectoriesAndOtherFilesAreSkipped() throws {
    let scratch = try ScratchDirectory("scan")
    defer { scratch.remove() }
    try scratch.write("Sources/App/A.swift", "class A {}\n")
    try scratch.write("Sources/App/.build/checkouts/B.swift", "class B {}\n")
    try scratch.write("Sources/App/Notes.md", "class C {}\n")
    let result = SourceScanner.scan(.paths([scratch.path + "/Sources"]), options: ScanOptions(useCache: false))
    #expect(result.registry.types.map(\.name) == ["A"])
  }

  @Test func missingPathIsReported() throws {
    let result = SourceScanner.scan(.paths(["/nonexistent/trackc/Sources"]), options: ScanOptions(useCache: false))
    #expect(result.fileCount == 0)
    #expect(result.diagnostics.first?.ruleID == "swift-source")
  }
}
