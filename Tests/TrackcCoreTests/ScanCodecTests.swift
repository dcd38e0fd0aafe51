import Foundation
import Testing

@testable import TrackcCore

/// The binary form of scans (cache file, worker answers): lossless, and safe on damaged bytes.
@Suite struct ScanCodecTests {
  /// A scan with every field set to something other than its default.
  static let sample: FileScan = {
    var method = ScannedMethod(
      baseName: "open", labels: ["item", nil, "é🏠"], isStatic: true, access: .fileprivate, attributes: ["@objc(openWith:at:)", "final"],
      explicitSelector: "openWith:at:", isGeneric: true, isThrowing: true, isAsync: true, conditional: true,
      documentation: "Opens.\n\n- Note: @tracked", position: ScannedPosition(line: 123_456, column: 78))
    method.parameterTypes = ["Int", "inout [String]", "Int..."]
    method.returnType = "[String: Int]"
    method.effects = "async throws"
    method.deriveNames()
    var plain = method
    plain.access = nil
    plain.explicitSelector = nil
    plain.documentation = nil
    plain.labels = []
    plain.parameterTypes = []
    plain.returnType = nil
    plain.effects = nil
    method.parameters = ScannedParameters(names: ["item", nil, "where"], hasDefault: [false, true, false])
    let property = ScannedProperty(
      name: "total", type: "Double?", typeIsInferred: true, isStatic: true, isComputed: true, isConstant: true, access: .package,
      attributes: ["@objc(sum)", "lazy"], hasEffectfulGetter: true, conditional: true, position: ScannedPosition(line: 7, column: 3))
    let plainProperty = ScannedProperty(
      name: "tab", type: nil, isStatic: false, isComputed: false, isConstant: false, access: nil, attributes: [], conditional: false,
      position: ScannedPosition(line: 8, column: 3))
    let initializer = ScannedInitializer(
      labels: ["feed", nil], parameterTypes: ["Feed", "Int"], parameters: ScannedParameters(names: ["feed", "position"], hasDefault: [false, true]),
      failability: "?", access: .public, attributes: ["convenience"], isGeneric: true, effects: "throws", conditional: true,
      documentation: "Makes one.", position: ScannedPosition(line: 4, column: 5))
    var typeScan = ScannedDeclaration(
      kind: .actor, name: "Outer.Inner", inheritance: ["Base", "Sendable"], attributes: ["@objcMembers", "@MainActor"], isGeneric: true,
      access: .open, conditional: true, position: ScannedPosition(line: 1, column: 2), methods: [method, plain])
    typeScan.properties = [property, plainProperty]
    typeScan.initializers = [initializer]
    typeScan.subscripts = [
      ScannedSubscript(
        parameterTypes: ["Int", "String..."], resultType: "Book?", isStatic: true, access: .fileprivate, conditional: true,
        position: ScannedPosition(line: 10, column: 3)),
      ScannedSubscript(
        parameterTypes: [], resultType: "Int", isStatic: false, access: nil, conditional: false, position: ScannedPosition(line: 11, column: 3)),
    ]
    typeScan.genericParameters = ["Value", "Key"]
    var scan = FileScan(
      declarations: [
        typeScan,
        ScannedDeclaration(
          kind: .extension, name: "Shop.Home", inheritance: ["P"], attributes: ["@objc"], isGeneric: true, access: .private,
          conditional: true, position: ScannedPosition(line: 9, column: 11),
          requirements: [SameTypeRequirement(left: "Value", right: "String")], methods: [plain], properties: [plainProperty],
          initializers: [initializer]),
      ],
      imports: ["Foundation", "ShopUI"],
      references: [
        ScannedReference(kind: .hosts, names: ["SettingsView", "Feature.Other<Int>"], owner: 1, position: ScannedPosition(line: 12, column: 9)),
        ScannedReference(kind: .navigates, names: [], owner: nil, position: ScannedPosition(line: 1, column: 1)),
        ScannedReference(kind: .tracked, names: ["écranView"], owner: 0, position: ScannedPosition(line: 99_999, column: 3)),
        ScannedReference(
          kind: .hosts, names: ["AnyView", "ReceiptView"], owner: 0, position: ScannedPosition(line: 3, column: 4), root: "AnyView",
          modifiers: ["padding", "eraseToAnyView"]),
        ScannedReference(kind: .calls, names: ["onAppear", "load"], owner: 0, position: ScannedPosition(line: 5, column: 6)),
      ],
      problems: [ScanProblem(line: 5, column: 6, message: "this is not valid Swift")])
    scan.typeAliases = [
      ScannedTypeAlias(
        name: "Outer.ID", genericParameters: ["T"], aliased: "Box<T>", access: .public, conditional: true,
        position: ScannedPosition(line: 2, column: 13)),
      ScannedTypeAlias(
        name: "Plain", genericParameters: [], aliased: "String", access: nil, conditional: false, position: ScannedPosition(line: 3, column: 1)),
    ]
    return scan
  }()

  static func encoded(_ scan: FileScan) -> [UInt8] {
    var writer = BinaryWriter()
    ScanCodec.encode(scan, into: &writer)
    return writer.bytes
  }

  static func decoded(_ bytes: [UInt8]) -> FileScan? {
    bytes.withUnsafeBytes { raw in
      var reader = BinaryReader(raw)
      guard let scan = try? ScanCodec.decode(from: &reader), reader.isAtEnd else { return nil }
      return scan
    }
  }

  /// Compared through JSON: the scan types are Codable but not Equatable.
  static func json(_ scan: FileScan?) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return scan.flatMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) } ?? "nil"
  }

  @Test func roundTripKeepsEveryField() {
    #expect(Self.json(Self.decoded(Self.encoded(Self.sample))) == Self.json(Self.sample))
    #expect(Self.json(Self.decoded(Self.encoded(FileScan()))) == Self.json(FileScan()))
  }

  @Test func everyTruncationIsRejected() {
    let bytes = Self.encoded(Self.sample)
    for length in 0..<bytes.count {
      #expect(Self.decoded(Array(bytes.prefix(length))) == nil, "accepted \(length) of \(bytes.count) bytes")
    }
  }

  /// Random bytes and single-byte damage never crash, hang or allocate wildly; they decode or are rejected.
  @Test func damagedBytesNeverCrash() {
    var state: UInt64 = 42
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    let bytes = Self.encoded(Self.sample)
    for _ in 0..<2000 {
      var damaged = bytes
      damaged[Int(next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: next())
      _ = Self.decoded(damaged)
      _ = Self.decoded((0..<Int(next() % 200)).map { _ in UInt8(truncatingIfNeeded: next()) })
    }
    // A count claiming more elements than there are bytes is rejected before anything is allocated.
    #expect(Self.decoded([0xFF, 0xFF, 0xFF, 0xFF, 0x0F]) == nil)
  }

  /// A reference's owner must be one of the file's declarations: a cache that says otherwise is damaged.
  @Test func aReferenceToNoDeclarationIsRejected() {
    var scan = FileScan()
    scan.declarations = [
      ScannedDeclaration(
        kind: .struct, name: "A", inheritance: ["View"], isGeneric: false, conditional: false, position: ScannedPosition(line: 1, column: 8))
    ]
    scan.references = [ScannedReference(kind: .tracked, names: ["a"], owner: 0, position: ScannedPosition(line: 2, column: 3))]
    #expect(Self.json(Self.decoded(Self.encoded(scan))) == Self.json(scan))
    scan.references[0].owner = 1
    #expect(Self.decoded(Self.encoded(scan)) == nil)
  }

  @Test func workerAnswersRoundTrip() throws {
    let answer = ScanWorker.Response(scan: Self.sample, hash: "abc")
    let decoded = try #require(answer.encoded().withUnsafeBytes { ScanWorker.Response.decode($0) })
    #expect(decoded.hash == "abc")
    #expect(Self.json(decoded.scan) == Self.json(Self.sample))
    let failure = try #require(ScanWorker.Response(failure: "too slow").encoded().withUnsafeBytes { ScanWorker.Response.decode($0) })
    #expect(failure.failure == "too slow")
    #expect(failure.scan == nil)
    for request in [
      ScanWorker.Request(path: "Sources/A/é 🏠.swift", text: nil, maxBytes: 8 << 20),
      ScanWorker.Request(path: nil, text: "class A {}\n", maxBytes: 1),
    ] {
      let decoded = try #require(request.encoded().withUnsafeBytes { ScanWorker.Request.decode($0) })
      #expect(decoded.path == request.path && decoded.text == request.text && decoded.maxBytes == request.maxBytes)
    }
  }

  /// Found by the scan-cache fuzz target: integers were read from overlong forms and from bits past the
  /// 64th, so a damaged cache header could still be read. Only the form the writer writes is read now.
  @Test func integersHaveOneForm() throws {
    func read(_ bytes: [UInt8]) -> Int? {
      bytes.withUnsafeBytes { raw in
        var reader = BinaryReader(raw)
        guard let value = try? reader.int(), reader.isAtEnd else { return nil }
        return value
      }
    }
    for value in [0, 1, 127, 128, 300, Int.max, Int.min, -1] {
      var writer = BinaryWriter()
      writer.int(value)
      #expect(read(writer.bytes) == value)
    }
    #expect(read([0x80, 0x00]) == nil)
    #expect(read([0x81, 0x00]) == nil)
    #expect(read([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x05]) == nil)
    #expect(read([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x81, 0x00]) == nil)
  }

  // MARK: The linked registry (the link cache)

  /// A registry with every kind of thing the link records: aliases, generic parameters, constrained
  /// extensions' requirements, hosting roots with modifiers, calls.
  static let registry: HandlerRegistry = SourceScanner.scan(
    .files([
      (
        "Sources/Shop/Shop.swift",
        """
        import SwiftUI
        public typealias ProductID = String
        typealias Boxed<T> = Box<T>
        struct Box<Value> { var value: Value }
        extension Box where Value == Int { var doubled: Int { value * 2 } }
        @objcMembers class Screen<Item>: UIViewController {
          /// Opens.
          @objc(openWith:) func open(_ id: ProductID = "", at position: Int...) async throws -> [String] { [] }
          init?(item: Item) { super.init(nibName: nil, bundle: nil) }
          var total: Double? { nil }
          subscript(position: Int) -> Item? { nil }
        }
        struct ReceiptView: View {
          var body: some View { Text("").onAppear(perform: onAppear) }
          func onAppear() {}
        }
        func host() { _ = UIHostingController(rootView: AnyView(ReceiptView()).padding()) }
        """
      ),
      (
        "Sources/Other/Ext.swift",
        """
        import Shop
        extension UIViewController {
          @objc func onTap() {}
          func wire(_ button: UIButton) {
            button.addTarget(self, action: #selector(onTap), for: .touchUpInside)
            onTap()
          }
        }
        """
      ),
    ]), options: ScanOptions(useCache: false)
  ).registry

  static func encoded(_ registry: HandlerRegistry) -> [UInt8] {
    var writer = BinaryWriter()
    RegistryCodec.encode(registry, into: &writer)
    return writer.bytes
  }

  static func decodedRegistry(_ bytes: [UInt8]) -> HandlerRegistry? {
    bytes.withUnsafeBytes { raw in
      var reader = BinaryReader(raw)
      guard let registry = try? RegistryCodec.decode(from: &reader), reader.isAtEnd else { return nil }
      return registry
    }
  }

  @Test func theLinkedRegistryRoundTrips() {
    #expect(Self.registry.typeAliases?.count == 2)
    #expect(Self.registry.viewReferences?.contains { $0.kind == .calls } == true)
    #expect(Set(Self.registry.methodUses?.map(\.kind) ?? []) == [.selector, .call])
    #expect(Self.registry.types.first { $0.name == "Screen" }?.subscripts?.map(\.resultType) == ["Item?"])
    #expect(Self.decodedRegistry(Self.encoded(Self.registry)) == Self.registry)
    let empty = HandlerRegistry(types: [])
    #expect(Self.decodedRegistry(Self.encoded(empty)) == empty)
  }

  @Test func aDamagedLinkedRegistryIsRejectedOrReadNeverCrashes() {
    let bytes = Self.encoded(Self.registry)
    for length in 0..<bytes.count {
      #expect(Self.decodedRegistry(Array(bytes.prefix(length))) == nil, "accepted \(length) of \(bytes.count) bytes")
    }
    var state: UInt64 = 7
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    for _ in 0..<2000 {
      var damaged = bytes
      damaged[Int(next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: next())
      _ = Self.decodedRegistry(damaged)
    }
  }
}
