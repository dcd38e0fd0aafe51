import Foundation
import SwiftParser
import SwiftSyntax
import TrackcCore

/// The code fuzzed binding configs are checked against: the generator's cross-module fixture (a base
/// module, GenerateFixtureUI, whose lifecycle methods and a handler carry the events of screens in
/// GenerateFixtureCart, with aliases and a generic type), and SwiftUI screens hosted through roots that
/// erase their type (`views`), scanned once and kept as the registry `trackc scan` writes.
public enum CrossModuleFixture {
  static let modules = ["GenerateFixtureUI", "GenerateFixtureCart"]

  /// The two modules' registry, as JSON.
  public static let registryJSON: [UInt8] = {
    var files: [(path: String, text: String)] = []
    for module in modules {
      let folder = CodeFixture.directory + "/Sources/" + module
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".swift") }.sorted()
      for name in names {
        let path = "Sources/\(module)/\(name)"
        files.append((path, String(decoding: CodeFixture.read(path), as: UTF8.self)))
      }
    }
    files.append(("Sources/GenerateFixtureViews/Views.swift", views))
    return SourceScanner.scan(.files(files), options: ScanOptions(useCache: false)).registry.jsonBytes()
  }()

  /// SwiftUI screens (never compiled: Linux has no SwiftUI) hosted through type-erasing roots, generic
  /// views and aliases of them, for configs that list them.
  static let views = """
    import SwiftUI
    import GenerateFixtureUI

    public typealias ReceiptRoot = AnyView
    public typealias Pair<T> = (T, T)
    public typealias Label = Box<String>

    public struct ReceiptView: View {
      public var total: Cents
      public var label: Label
      public var body: some View { Text("receipt") }
    }

    public struct OrderView: View {
      public var pair: Pair<Int>
      public var body: some View { Text("order").onAppear(perform: onAppear) }
      public func onAppear() {}
    }

    public struct Card<Content: View>: View {
      var content: Content
      public var body: some View { content }
    }

    extension View {
      func eraseToAnyView() -> AnyView { AnyView(self) }
    }

    final class ReceiptHost: UIHostingController<Card<ReceiptView>> {}

    func hosts() -> [UIViewController] {
      let erased: ReceiptRoot = AnyView(OrderView(pair: (1, 2)))
      return [
        UIHostingController(rootView: AnyView(ReceiptView(total: 1, label: Box("a")))),
        UIHostingController(rootView: Card(content: OrderView(pair: (1, 2)))),
        UIHostingController(rootView: ReceiptView(total: 2, label: Box("b")).eraseToAnyView()),
        UIHostingController(rootView: erased),
        UIHostingController<ReceiptRoot>(rootView: AnyView(OrderView(pair: (3, 4)))),
        UIHostingController(rootView: makeTicket()),
        UIHostingController(rootView: erase(SeatView())),
        UIHostingController(rootView: NavigationStack { SeatView() }),
      ]
    }

    // Associated types, opaque results and nested aliases in Objective-C signatures.
    public struct Ticket: Identifiable {
      public typealias Count = Int
      public typealias Code = String
      public let id: UUID
      public var seat: Seat.ID
      public var kind: Kind.RawValue
      public var counted: Counted
      public var holder: Holder<EmailAddress>
    }
    public struct Seat: Identifiable { public let id: Int }
    public enum Kind: String { case adult }
    public typealias Counted = Ticket.Count
    public typealias EmailAddress = String
    public struct Holder<T> { public var value: T }
    public protocol Labeled { var label: String { get } }

    public struct TicketView: View {
      public var ticket: Ticket
      public var labeled: any Labeled
      public var status: OSStatus
      public var body: some View { content }
      var content: some View { Text("ticket").onAppear(perform: start) }
      func start() { onAppear() }
      public func onAppear() {}
    }
    public struct SeatView: View {
      public var body: some View { Text("seat") }
    }
    func makeTicket() -> some View { TicketView(ticket: .init(), labeled: nil, status: 0).padding() }
    func erase(_ view: some View) -> ReceiptRoot { AnyView(view) }

    // Associated types inferred from a subscript and from an iterator's next().
    public struct Shelf: Collection {
      public var startIndex: Int { 0 }
      public var endIndex: Int { 0 }
      public func index(after i: Int) -> Int { i + 1 }
      public subscript(position: Int) -> Seat { Seat(id: position) }
    }
    public struct Countdown: Sequence {
      public func makeIterator() -> CountdownIterator { CountdownIterator() }
    }
    public struct CountdownIterator: IteratorProtocol {
      public mutating func next() -> Int? { nil }
    }

    public final class TicketViewController: UIViewController {
      public var ticket: Ticket
      public var first: Shelf.Element
      public var left: Countdown.Element
      @objc public func open(_ id: Ticket.Code) {}
      @objc public func count(_ count: Ticket.Count) {}
      @objc public func seat(_ seat: Seat.ID) {}
      @objc public func counted(_ counted: Counted) {}
      @objc public func shelve(_ left: Countdown.Element, at index: Shelf.Index) {}
    }
    """

  /// The fixture's config: every binding shape that reaches across the two modules.
  public static let config: [UInt8] = CodeFixture.read("cross-module.yaml")
}

extension Invariants {
  /// A config of bindings checked against the cross-module fixture: when it lints clean, the generated
  /// Swift parses and reads back (`generatedCodeViolations`), and each interceptor file imports what its
  /// captures name and read: every type it casts `self` to is declared in a module it imports (or its
  /// own), and a property it reads that every imported module declares non-public comes through a
  /// `@testable` import.
  public static func bindingViolations(_ bytes: [UInt8]) -> [String] {
    let registryBytes = InputBytes(CrossModuleFixture.registryJSON)
    let lint = lint(bytes, code: .registry(path: registryPath, bytes: registryBytes))
    var violations = generatedCodeViolations(lint)
    guard let registry = lint.code?.index.registry else { return violations }
    let result = Generator.generate(lint, options: Generator.Options(name: "Tracking", configFileName: configPath))
    for file in result.files where file.name != "Tracking.swift" && file.name != "Tracking+Routes.swift" {
      violations += importViolations(file, registry: registry)
    }
    return violations
  }

  /// The import law for one generated interceptor file.
  public static func importViolations(_ file: Generator.File, registry: HandlerRegistry) -> [String] {
    let tree = Parser.parse(source: file.contents)
    var imported: [String: Bool] = [:]
    for statement in tree.statements {
      guard let declaration = statement.item.as(ImportDeclSyntax.self) else { continue }
      let testable = declaration.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "testable" }
      imported[declaration.path.trimmedDescription] = testable
    }
    // The file's own module: `Tracking+<Module>.swift`.
    let stem = file.name.dropFirst("Tracking+".count).dropLast(".swift".count)
    let visible = Set(imported.keys).union([String(stem)])
    var violations: [String] = []
    let finder = CaptureFinder(viewMode: .sourceAccurate)
    finder.walk(tree)
    for cast in finder.casts {
      let parts = cast.split(separator: ".").map(String.init)
      let declaring = registry.types.filter {
        $0.kind != .external && $0.name == parts.last! && (parts.count == 1 || $0.module == parts.dropLast().joined(separator: "."))
      }
      if !declaring.contains(where: { $0.module.map(visible.contains) ?? true }) {
        violations.append("\(file.name) casts to '\(cast)', declared in none of the modules it imports (\(visible.sorted()))")
      }
    }
    for member in finder.members {
      let declarations = registry.types.filter { $0.module.map { imported[$0] != nil || $0 == stem } ?? false }.flatMap { type in
        (type.properties ?? []).filter { $0.name == member && !$0.isStatic }.map { (type, $0) }
      }
      guard !declarations.isEmpty, declarations.allSatisfy({ $0.0.access < .public || $0.1.access < .public }) else { continue }
      if !declarations.contains(where: { imported[$0.0.module ?? ""] == true }) {
        violations.append("\(file.name) reads '\(member)', which the modules it imports declare non-public only, without a @testable import of them")
      }
    }
    return violations
  }
}

/// The casts and the members read in a generated file's captures (`properties.int("k", (self as? A)?.b.c, ...)`).
private final class CaptureFinder: SyntaxVisitor {
  var casts: [String] = []
  var members: Set<String> = []

  override func visit(_ node: AsExprSyntax) -> SyntaxVisitorContinueKind {
    casts.append(node.type.trimmedDescription)
    return .visitChildren
  }

  /// Unfolded, `self as? A` is a sequence: `self`, `as?`, the type.
  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
    let elements = Array(node.elements)
    for (index, element) in elements.enumerated() where element.is(UnresolvedAsExprSyntax.self) && index + 1 < elements.count {
      casts.append(elements[index + 1].trimmedDescription)
    }
    return .visitChildren
  }

  override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
    if node.base != nil { members.insert(node.declName.baseName.text.trimmingCharacters(in: CharacterSet(charactersIn: "`"))) }
    return .visitChildren
  }
}
