import Testing

@testable import TrackcCore

/// What trackc tells of a type where Swift can tell it, and what it says where it cannot: the associated
/// types standard protocols give, personal-data kinds through generic arguments, Objective-C forms through
/// nested aliases, labels renamed, and types impossible as property values told apart from types trackc
/// cannot resolve. Each test tries several members of its class.
@Suite struct TypeKnowledgeTests {
  typealias Helper = TypeResolutionTests

  static func errors(_ result: LintResult, _ rule: String) -> [String] {
    result.diagnostics.filter { $0.ruleID == rule }.map { "\($0.severity): \($0.message)" }
  }

  // MARK: Associated types

  static let identified = """
    struct Product: Identifiable {
      let id: UUID
      var again: Self.ID { id }
    }
    struct Order: Identifiable {
      let id: Int
      func same() -> ID { id }
    }
    enum Tab: String { case all }
    struct Flags: OptionSet { let rawValue: UInt8 }
    struct Wrapper: RawRepresentable {
      var rawValue: Double
    }
    final class Screen {
      var product: Product.ID
      var again: Product
      var order: Order.ID
      var tab: Tab.RawValue
      var flags: Flags.RawValue
      var wrapped: Wrapper.RawValue
      func open() {}
    }
    """

  @Test func theAssociatedTypesOfStandardProtocolsAreReadFromTheConformingType() throws {
    let result = Helper.lint(
      Helper.handlerPlan(
        "Screen", "open()",
        "{a: {from: self.product, type: string}, b: {from: self.order}, c: {from: self.tab}, d: {from: self.flags}, e: {from: self.wrapped}, f: {from: self.again.again, type: string}}"
      ), ["Sources/App/Screen.swift": Self.identified])
    #expect(Helper.findings(result).isEmpty, "\(Helper.findings(result))")
    let values = try Helper.resolutions(result).map(Helper.value)
    #expect(values.map { $0?.wireType } == [.string, .int, .string, .int, .double, .string])
    #expect(values.map { $0?.valueType.name } == ["UUID", "Int", "String", "UInt8", "Double", "UUID"])
    #expect(values.first??.aliases == ["Product.ID"])
  }

  @Test func anAssociatedTypeOfATypeThatDoesNotConformStaysUnknown() {
    let result = Helper.lint(
      Helper.handlerPlan("Screen", "open()", "{a: {from: self.item}}"),
      ["Sources/App/Screen.swift": "struct Item { let id: Int }\nfinal class Screen {\n  var item: Item.ID\n  func open() {}\n}\n"])
    #expect(
      Self.errors(result, "unsupported-property-type") == [
        "error: property 'a' of handler 'open()' of 'Screen' reads 'self.item', of type 'Item.ID', which trackc cannot resolve (declared outside the sources and none of the standard value types (an SDK alias of a number, such as 'OSStatus', or a class)); if it is a value, declare the property's 'type:' ('int', 'double', 'string' or 'bool'), which the generated capture then takes and the compiler checks"
      ])
  }

  /// Associated types inferred from members other than properties: a collection's subscript, a sequence's
  /// iterator and the iterator's `next()`, defaults (`OptionSet`, `CaseIterable`, a collection's iterator),
  /// a generic parameter of the same name, and members a protocol of the sources declares.
  static let collections = """
    struct Book { let title: String }
    struct Shelf: Collection {
      var books: [Book]
      var startIndex: Int { 0 }
      var endIndex: Int { books.count }
      func index(after i: Int) -> Int { i + 1 }
      subscript(position: Int) -> Book { books[position] }
      subscript(bounds: Range<Int>) -> Slice<Shelf> { Slice(base: self, bounds: bounds) }
    }
    struct Tags: RandomAccessCollection {
      var tags: [String]
      var startIndex: Int { 0 }
      var endIndex: Int { tags.count }
    }
    extension Tags {
      subscript(i: Int) -> String { tags[i] }
    }
    struct Countdown: Sequence {
      let from: Int
      func makeIterator() -> CountdownIterator { CountdownIterator(left: from) }
    }
    struct CountdownIterator: IteratorProtocol {
      var left: Int
      mutating func next() -> Int? { left > 0 ? left : nil }
    }
    struct Names: Sequence {
      func makeIterator() -> AnyIterator<String> { AnyIterator { nil } }
    }
    struct Pages: Sequence {
      func makeIterator() -> IndexingIterator<[Double]> { [1.0].makeIterator() }
    }
    struct Flags: OptionSet { let rawValue: UInt8 }
    enum Size: CaseIterable { case small, large }
    struct Stack<Element>: Sequence {
      var items: [Element]
      func makeIterator() -> IndexingIterator<[Element]> { items.makeIterator() }
    }
    protocol Entity: Identifiable {}
    extension Entity { var id: String { "" } }
    struct Row: Entity {}
    final class Base: Identifiable { let id = 0 }
    final class Node: Identifiable {}
    final class Box { subscript(i: Int) -> Book { Book(title: "") } }
    struct Loop: Sequence {
      func makeIterator() -> LoopIterator { LoopIterator() }
    }
    struct LoopIterator: IteratorProtocol {
      mutating func next() -> Element? { nil }
    }
    final class Screen {
      var first: Shelf.Element
      var tag: Tags.Element
      var left: Countdown.Element
      func open() {}
    }
    """

  @Test func associatedTypesAreInferredFromSubscriptsIteratorsAndDefaults() throws {
    let result = Helper.lint(Helper.handlerPlan("Screen", "open()", "{a: {from: self.tag}}"), ["Sources/App/Shelf.swift": Self.collections])
    let resolver = try #require(result.code?.index.types)
    let inferred = [
      "Shelf.Element", "Shelf.Index", "Shelf.Iterator", "Tags.Element", "Tags.Index", "Countdown.Element", "Countdown.Iterator",
      "Names.Element", "Pages.Element", "Flags.Element", "Size.AllCases", "Stack<Book>.Element", "Stack<Int>.Iterator",
      "Row.ID", "Base.ID", "Node.ID",
    ].map { resolver.describe(resolver.type($0, in: TypeScope())) }
    #expect(
      inferred == [
        "Book", "Int", "IndexingIterator<Shelf>", "String", "Int", "Int", "CountdownIterator", "String", "Double", "Flags", "[Size]",
        "Book", "IndexingIterator<[Int]>", "String", "Int", "ObjectIdentifier",
      ])
    // What does not conform, or cannot be inferred without itself (the compiler refuses it), stays unknown.
    #expect(resolver.type("Box.Element", in: TypeScope()) == .external("Box.Element", arguments: []))
    #expect(resolver.type("Loop.Element", in: TypeScope()) == .external("Loop.Element", arguments: []))
  }

  @Test func aValueReadThroughAnInferredElementIsBoundLikeAnyOther() throws {
    let result = Helper.lint(
      Helper.handlerPlan("Screen", "open()", "{a: {from: self.tag}, b: {from: self.first.title}, c: {from: self.left}}"),
      ["Sources/App/Shelf.swift": Self.collections])
    #expect(Helper.findings(result).isEmpty, "\(Helper.findings(result))")
    let values = try Helper.resolutions(result).map(Helper.value)
    #expect(values.map { $0?.valueType.name } == ["String", "String", "Int"])
    #expect(values.first??.aliases == ["Tags.Element"])
  }

  @Test func anElementThatIsNoValueIsToldSo() {
    let result = Helper.lint(Helper.handlerPlan("Screen", "open()", "{a: {from: self.first}}"), ["Sources/App/Shelf.swift": Self.collections])
    #expect(
      Self.errors(result, "unsupported-property-type") == [
        "error: property 'a' of handler 'open()' of 'Screen' reads 'self.first', of type 'Book', which cannot be a property value; a property is a String, an integer, a floating-point number, a Bool, an optional of those, or an enum with such a raw type"
      ])
  }

  // MARK: Personal data through generic arguments

  @Test func whatAGenericArgumentMeansForPrivacyComesAlong() {
    let result = Helper.lint(
      Helper.handlerPlan(
        "Screen", "open()", "{a: {from: self.holder.value}, b: {from: self.boxed.value}, c: {from: self.plain.value}}", privacy: true),
      [
        "Sources/App/Screen.swift": """
        typealias EmailAddress = String
        typealias Where = CLLocationDegrees
        struct Holder<T> { var value: T }
        typealias Boxed<T> = Holder<T>
        final class Screen {
          var holder: Holder<EmailAddress>
          var boxed: Boxed<Where>
          var plain: Holder<String>
          func open() {}
        }
        """
      ])
    #expect(
      Self.errors(result, "unclassified-personal-type") == [
        "warning: property 'a' of handler 'open()' of 'Screen' reads a 'EmailAddress', which looks like personal data (email_address), but does not say what data it is",
        "warning: property 'b' of handler 'open()' of 'Screen' reads a 'CLLocationDegrees', which looks like personal data (precise_location), but does not say what data it is",
      ], "\(Helper.findings(result))")
  }

  @Test func aTypeOutsideTheSourcesReachedThroughAGenericArgumentIsNamed() {
    let result = Helper.lint(
      """
      version: 1
      interception: objc-runtime
      privacy:
        identity: {anonymous_id: {data: device_id}}
      destinations:
        firebase: {wire_name: Firebase, purposes: [app_functionality]}
      screens:
        MapViewController:
          control_events:
            open(_:): {event: OPEN, properties: {a: {from: self.holder.value.altitude, type: double}}}
      """,
      [
        "Sources/App/Map.swift": """
        import UIKit
        import CoreLocation
        struct Holder<T> { var value: T }
        final class MapViewController: UIViewController {
          var holder: Holder<CLLocation>
          @objc func open(_ sender: Any) {}
        }
        """
      ])
    #expect(Self.errors(result, "unclassified-personal-type").count == 1, "\(Helper.findings(result))")
  }

  // MARK: Objective-C forms of nested aliases

  static let tickets = """
    import UIKit
    struct Ticket {
      typealias ID = String
      typealias Count = Int
    }
    struct Seat: Identifiable { let id: Int }
    typealias Total = Int
    final class Paper: NSObject {}
    struct Tray: Collection {
      var startIndex: Int { 0 }
      var endIndex: Int { 0 }
      func index(after i: Int) -> Int { i + 1 }
      subscript(position: Int) -> Paper { Paper() }
    }
    protocol Entity: Identifiable {}
    extension Entity { var id: String { "" } }
    struct Row: Entity {}
    typealias Place = Seat
    struct Unnamed { var count: Int }
    final class TicketViewController: UIViewController, Identifiable {
      let id = 0
      @objc func open(_ id: Ticket.ID) {}
      @objc func count(_ count: Ticket.Count) {}
      @objc func seat(_ seat: Seat.ID) {}
      @objc func total(_ total: Total) {}
      @objc func paper(_ paper: Tray.Element) {}
      @objc func row(_ row: Row.ID) {}
      @objc func place(_ place: Place.ID) {}
      @objc func mine(_ id: ID) {}
    }
    """

  @Test func nestedAliasesHaveTheObjectiveCFormOfWhatTheyStandFor() throws {
    let plan = """
      version: 1
      interception: objc-runtime
      screens:
        TicketViewController:
          control_events:
            open(_:): {event: OPEN}
            count(_:): {event: COUNT}
            total(_:): {event: TOTAL}
      """
    let result = Helper.lint(plan, ["Sources/App/Tickets.swift": Self.tickets])
    #expect(Helper.findings(result).isEmpty, "\(Helper.findings(result))")
    let index = try #require(result.code?.index)
    let screen = try #require(index.byNameLookup("TicketViewController").first)
    let forms = Dictionary(
      uniqueKeysWithValues: index[screen].methods.map { method in
        (method.name, (try? ObjCSignature.of(method, in: index, owner: screen).get())?.parameters)
      })
    // A top-level alias of `Int` is a scalar too, not the object its plain name would suggest.
    #expect(
      forms == [
        "open(_:)": [.object], "count(_:)": [.scalar("Int")], "seat(_:)": [.scalar("Int")], "total(_:)": [.scalar("Int")],
        "paper(_:)": [.object], "row(_:)": [.object], "place(_:)": [.scalar("Int")], "mine(_:)": [.scalar("Int")],
      ])
  }

  /// A plan without bindings links no members but those of the types that signatures name through an
  /// associated type (and what those types lean on), which the Objective-C forms read.
  @Test func onlyTheTypesSignaturesNameThroughAssociatedTypesHaveTheirMembersLinked() throws {
    let plan = "version: 1\ninterception: objc-runtime\nscreens:\n  TicketViewController:\n    control_events:\n      seat(_:): SEAT\n"
    let result = Helper.lint(plan, ["Sources/App/Tickets.swift": Self.tickets])
    #expect(Helper.findings(result).isEmpty, "\(Helper.findings(result))")
    let index = try #require(result.code?.index)
    func linked(_ name: String) throws -> Bool { index[try #require(index.byNameLookup(name).first)].properties != nil }
    // Named (`Seat.ID`, `Tray.Element`, `Row.ID`, a bare `ID`), an alias's (`Place.ID`), inherited from (`Entity`).
    for name in ["Seat", "Tray", "Row", "Entity", "TicketViewController", "Ticket"] { #expect(try linked(name), "\(name)") }
    for name in ["Unnamed", "Paper"] { #expect(try !linked(name), "\(name)") }
  }

  // MARK: Page events of a Swift root class

  /// Under objc-runtime page events come from view controllers' appearance: a class whose chain ends in a
  /// Swift root class (no superclass, or protocols only) never reports them, and lint says so; a chain
  /// ending in a class outside the sources that trackc does not know stays unjudged.
  @Test func pageEventsOfASwiftRootClassAreSaidNeverToFire() {
    let plan = """
      version: 1
      screens:
        Coordinator: {page_events: {enter: A}}
        Flow: {page_events: {enter: B}}
        Listed: {page_events: {enter: C}}
        Screen: {page_events: {enter: D}}
        Vendor: {page_events: {enter: E}}
      """
    let swift = """
      import UIKit
      protocol Routing {}
      final class Coordinator {}
      class Base: Routing {}
      final class Flow: Base {}
      final class Listed: Equatable { static func == (a: Listed, b: Listed) -> Bool { true } }
      final class Screen: UIViewController {}
      final class Vendor: VendorKitViewController {}
      """
    let result = Helper.lint(plan, ["Sources/App/Flows.swift": swift])
    let watched = "its enter event (interception: objc-runtime, which watches view controllers' appearance) would never fire"
    #expect(
      result.diagnostics.filter { $0.ruleID == "screen-lifecycle" }.map { "\($0.severity): \($0.message)" } == [
        "warning: 'Coordinator' is not a view controller (it has no superclass): \(watched)",
        "warning: 'Flow' is not a view controller (its superclasses: Base; the last has none): \(watched)",
        "warning: 'Listed' is not a view controller (it has no superclass): \(watched)",
      ])
  }

  // MARK: Did-you-mean for a renamed label

  @Test(arguments: [
    ("openProduct(identifier:position:)", "openProduct(id:position:)"),
    ("openProduct(id:index:)", "openProduct(id:position:)"),
    ("openProductWithIdentifier:position:", "openProductWithId:position:"),
    ("select(item:)", "select(_:)"),
  ])
  func aRenamedLabelIsSuggested(_ written: String, _ suggested: String) {
    let result = Helper.lint(
      "version: 1\ninterception: objc-runtime\nscreens:\n  ShopViewController:\n    control_events:\n      \(written): {event: OPEN}\n",
      [
        "Sources/App/Shop.swift":
          "import UIKit\nfinal class ShopViewController: UIViewController {\n  @objc func openProduct(id: String, position: Int) {}\n  @objc func select(_ item: Any) {}\n  @objc func close() {}\n}\n"
      ])
    #expect(
      Self.errors(result, "unknown-handler") == ["error: 'ShopViewController' has no handler '\(written)'; did you mean '\(suggested)'?"])
  }

  @Test func twoMethodsThatAgreeAsMuchAreNotGuessedBetween() {
    let result = Helper.lint(
      "version: 1\ninterception: objc-runtime\nscreens:\n  ShopViewController:\n    control_events:\n      open(identifier:):\n        event: OPEN\n",
      [
        "Sources/App/Shop.swift":
          "import UIKit\nfinal class ShopViewController: UIViewController {\n  @objc func open(product: String) {}\n  @objc func open(category: String) {}\n}\n"
      ])
    #expect(Self.errors(result, "unknown-handler").allSatisfy { !$0.contains("did you mean") }, "\(Helper.findings(result))")
  }

  // MARK: Impossible, or unknown to trackc

  static let unknowns = """
    protocol Labeled { var label: String { get } }
    typealias Loop = Loop2
    typealias Loop2 = Loop
    final class Screen {
      var status: OSStatus
      var frames: AVAudioFrameCount
      var labeled: any Labeled
      var opaque: some Labeled
      var failure: any Error
      var shared: Shared
      var loop: Loop
      var action: () -> Void
      var pair: (Int, Int)
      func open() {}
    }
    """

  static let sharedAliases = [
    "Sources/Core/Shared.swift": "public typealias Shared = Int\n",
    "Sources/Design/Shared.swift": "public typealias Shared = String\n",
  ]

  @Test func whatCannotBeAValueIsToldFromWhatTrackcCannotResolve() {
    let properties =
      "{a: {from: self.status}, b: {from: self.frames}, c: {from: self.labeled.label}, d: {from: self.opaque.label}, e: {from: self.failure}, f: {from: self.shared}, g: {from: self.loop}, h: {from: self.action}, i: {from: self.pair}}"
    let result = Helper.lint(
      Helper.handlerPlan("Screen", "open()", properties), Self.sharedAliases.merging(["Sources/App/Screen.swift": Self.unknowns]) { a, _ in a })
    let unresolved =
      "which trackc cannot resolve"
    let found = Self.errors(result, "unsupported-property-type")
    #expect(found.count == 7, "\(found)")
    let byProperty = Dictionary(found.map { (String($0.dropFirst("error: property '".count).prefix(1)), $0) }) { a, _ in a }
    for key in ["a", "b", "e", "f"] { #expect(byProperty[key]?.contains(unresolved) == true, "\(key): \(byProperty[key] ?? "-")") }
    #expect(byProperty["a"]?.contains("of type 'OSStatus'") == true)
    #expect(byProperty["e"]?.contains("an existential whose value's type is hidden") == true)
    #expect(byProperty["f"]?.contains("declared in 'Core' and 'Design'") == true)
    #expect(byProperty["g"]?.contains("whose aliases form a cycle ('Loop' = 'Loop2' = 'Loop')") == true, "\(byProperty["g"] ?? "-")")
    for key in ["h", "i"] { #expect(byProperty[key]?.contains("which cannot be a property value") == true, "\(key): \(byProperty[key] ?? "-")") }
    // `any Labeled` and `some Labeled` are read through the protocol's requirement.
    #expect(byProperty["c"] == nil && byProperty["d"] == nil)
  }

  @Test func aDeclaredTypeIsTrustedForWhatTrackcCannotResolve() throws {
    let properties =
      "{a: {from: self.status, type: int}, b: {from: self.frames, type: int}, e: {from: self.failure, type: string}, f: {from: self.shared, type: int}}"
    let result = Helper.lint(
      Helper.handlerPlan("Screen", "open()", properties), Self.sharedAliases.merging(["Sources/App/Screen.swift": Self.unknowns]) { a, _ in a })
    #expect(Self.errors(result, "unsupported-property-type").isEmpty, "\(Helper.findings(result))")
    let values = try Helper.resolutions(result).map(Helper.value)
    #expect(values.map { $0?.isTrusted } == [true, true, true, true])
    #expect(values.map { $0?.conversion } == [.integer, .integer, .description, .integer])
  }

  @Test func aCycleOrAClosureIsNotTrustedWhateverTheTypeSays() {
    let result = Helper.lint(
      Helper.handlerPlan("Screen", "open()", "{g: {from: self.loop, type: int}, h: {from: self.action, type: string}}"),
      ["Sources/App/Screen.swift": Self.unknowns])
    #expect(Self.errors(result, "unsupported-property-type").count == 2, "\(Helper.findings(result))")
  }

  @Test func aScreenListedUnderAnAliasIsFound() {
    let result = Helper.lint(
      "version: 1\ninterception: objc-runtime\nscreens:\n  Checkout:\n    control_events:\n      pay(_:): {event: PAY}\n  Shop.Basket:\n    control_events:\n      pay(_:): {event: BASKET_PAY}\n",
      [
        "Sources/Shop/Checkout.swift":
          "import UIKit\ntypealias Checkout = CheckoutViewController\ntypealias Basket = CheckoutViewController\nfinal class CheckoutViewController: UIViewController {\n  @objc func pay(_ sender: Any) {}\n}\n"
      ])
    #expect(Self.errors(result, "unknown-screen").isEmpty, "\(Helper.findings(result))")
  }

  // MARK: Erasure through any call, opaque results

  static let factories = """
    typealias ErasedScreen = AnyView
    func erase<V: View>(_ view: V) -> ErasedScreen { AnyView(view) }
    enum Factory {
      static func erase<V: View>(_ view: V) -> AnyView { AnyView(view) }
    }
    final class Coordinator {
      func wrap<V: View>(_ view: V) -> ErasedScreen { AnyView(view) }
      func start() -> UIViewController { UIHostingController(rootView: wrap(ReceiptView())) }
    }

    """

  @Test(arguments: [
    "UIHostingController(rootView: erase(ReceiptView()))",
    "UIHostingController(rootView: Factory.erase(ReceiptView()))",
    "UIHostingController(rootView: NavigationStack { ReceiptView() })",
    "UIHostingController(rootView: TabView { ReceiptView() }.padding())",
  ])
  func aRootErasedByAnyCallOrAContainerReportsNoScreen(_ hosting: String) throws {
    let result = Helper.lint(
      Helper.hostingPlan(),
      [
        "Sources/Receipt/Receipt.swift": Helper.receipt
          + Self.factories.replacingOccurrences(of: "rootView: wrap(ReceiptView())", with: "rootView: OtherView()")
          + "func makeReceipt() -> UIViewController { \(hosting) }\n"
      ])
    let finding = try #require(result.diagnostics.first { $0.ruleID == "unreached-screen" }, "\(Helper.findings(result))")
    #expect(finding.message.contains("which erases the view's type"), "\(finding.message)")
    #expect(result.code?.index.swiftUI.hostedViews.isEmpty == true)
  }

  @Test func aRootErasedByAMethodOfTheOwnerReportsNoScreen() throws {
    let result = Helper.lint(Helper.hostingPlan(), ["Sources/Receipt/Receipt.swift": Helper.receipt + Self.factories])
    #expect(result.diagnostics.map(\.ruleID) == ["unreached-screen"], "\(Helper.findings(result))")
  }

  static let opaque = """
    struct Screens {
      func makeOpaque() -> some View { ReceiptView() }
      func makePadded() -> some View {
        return ReceiptView().padding()
      }
      var settingsScreen: some View { ReceiptView() }
      var wrapped: some View { AnyView(ReceiptView()) }
    }
    func makeFree() -> some View { ReceiptView() }

    """

  @Test(arguments: [
    "Screens().makeOpaque()", "Screens().makePadded()", "Screens().settingsScreen", "makeFree()",
  ])
  func anOpaqueRootIsTheViewItsBodyReturns(_ root: String) {
    let source =
      Helper.receipt
      + Self.opaque.replacingOccurrences(
        of: "struct Screens {",
        with:
          "struct Screens {\n  func host() -> UIViewController { UIHostingController(rootView: \(root.replacingOccurrences(of: "Screens().", with: ""))) }"
      )
    let result = Helper.lint(Helper.hostingPlan(), ["Sources/Receipt/Receipt.swift": source])
    #expect(Helper.findings(result).isEmpty, "\(Helper.findings(result))")
    #expect(result.code?.index.swiftUI.hostedViews.count == 1)
  }

  @Test func anOpaqueRootWhoseBodyErasesReportsNoScreen() {
    let source =
      Helper.receipt
      + Self.opaque.replacingOccurrences(
        of: "struct Screens {", with: "struct Screens {\n  func host() -> UIViewController { UIHostingController(rootView: wrapped) }")
    let result = Helper.lint(Helper.hostingPlan(), ["Sources/Receipt/Receipt.swift": source])
    #expect(result.diagnostics.map(\.ruleID) == ["unreached-screen"], "\(Helper.findings(result))")
  }

  // MARK: Lifecycle methods the body reaches

  static func lifecycle(_ members: String) -> [String: String] {
    [
      "Sources/Receipt/ReceiptView.swift":
        "import SwiftUI\nstruct ReceiptView: View {\n\(members)\n  func onAppear() {}\n  func onDisappear() {}\n}\n"
    ]
  }

  static let lifecyclePlan =
    "version: 1\ninterception: dynamic-replacement\nscreens:\n  ReceiptView: {page_events: {enter: RECEIPT_ENTER, leave: RECEIPT_LEAVE}}\n"

  @Test func aLifecycleMethodCalledOnlyFromCodeTheBodyNeverReachesIsUncalled() {
    let result = Helper.lint(
      Self.lifecyclePlan,
      Self.lifecycle(
        """
          var body: some View { Text("Receipt") }
          func start() { onAppear() }
          init() { helper() }
          func helper() { onDisappear() }
        """))
    let messages = result.diagnostics.filter { $0.ruleID == "uncalled-lifecycle-method" }.map(\.message)
    #expect(messages.count == 2, "\(Helper.findings(result))")
    #expect(messages.first?.hasPrefix("SwiftUI screen 'ReceiptView' declares 'onAppear()', which carries its enter event") == true)
    #expect(messages.last?.hasPrefix("SwiftUI screen 'ReceiptView' declares 'onDisappear()', which carries its leave event") == true)
  }

  @Test func aLifecycleMethodTheBodyReachesThroughMethodsAndPropertiesIsCalled() {
    let result = Helper.lint(
      Self.lifecyclePlan,
      Self.lifecycle(
        """
          var body: some View { content.onAppear { start() } }
          var content: some View { Text("Receipt").onDisappear(perform: self.finish) }
          func start() { load() }
          func load() { self.onAppear() }
          func finish() { onDisappear() }
        """))
    #expect(Helper.findings(result).isEmpty, "\(Helper.findings(result))")
  }
}
