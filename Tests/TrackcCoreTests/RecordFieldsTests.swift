import Foundation
import Testing

@testable import TrackcCore

/// The one description of scans and registries (`FieldRecord.fields`) and the forms read from it: the
/// binary form (scan and link caches, worker answers) and JSON (`trackc scan`'s file, `--handlers`).
@Suite struct RecordFieldsTests {
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
      problems: [ScanProblem(line: 5, column: 6, message: "this is not valid Swift")],
      uses: [
        ScannedUse(kind: .actionClosureCall, name: "onTap(_:)", via: "UIAction", position: ScannedPosition(line: 14, column: 7)),
        ScannedUse(kind: .selector, name: "onTap", via: nil, position: ScannedPosition(line: 15, column: 9)),
      ])
    scan.typeAliases = [
      ScannedTypeAlias(
        name: "Outer.ID", genericParameters: ["T"], aliased: "Box<T>", access: .public, conditional: true,
        position: ScannedPosition(line: 2, column: 13)),
      ScannedTypeAlias(
        name: "Plain", genericParameters: [], aliased: "String", access: nil, conditional: false, position: ScannedPosition(line: 3, column: 1)),
    ]
    return scan
  }()

  /// A registry with every field set to something other than its default.
  static let registry: HandlerRegistry = {
    func at(_ line: Int, _ file: String = "Sources/Shop/Home.swift") -> RegistryLocation {
      RegistryLocation(file: file, line: line, column: 3)
    }
    let signature = MethodSignature(
      parameters: [
        MethodSignature.Parameter(label: "item", name: "product", type: "Product", hasDefaultValue: true),
        MethodSignature.Parameter(label: nil, type: "Int..."),
      ], returnType: "[String]", effects: "async throws")
    let method = DeclaredMethod(
      name: "open(item:_:)", isStatic: true, access: .open, attributes: ["@objc(openWith::)", "@available(iOS 17, *)"],
      objcSelector: "openWith::", derivedSelector: "openWithItem::", inGenericContext: true, conditional: true,
      documentation: "Opens é🏠.", location: at(7), signature: signature)
    var property = DeclaredProperty(
      name: "total", type: "Double?", typeIsInferred: true, isStatic: true, isComputed: true, isConstant: true, access: .package,
      attributes: ["@objc(sum)"], objcName: "sum", hasEffectfulGetter: true, conditional: true, location: at(9, "Sources/Shop/Extra.swift"))
    property.requirements = [SameTypeRequirement(left: "Value", right: "String")]
    let initializer = DeclaredInitializer(
      name: "init(feed:)", failability: "?", access: .public, attributes: ["convenience"], inGenericContext: true, conditional: true,
      documentation: "Makes one.", location: at(11),
      signature: MethodSignature(parameters: [.init(label: "feed", type: "Feed")], returnType: nil, effects: "throws"))
    let type = DeclaredType(
      name: "Home.Screen", module: "Shop", kind: .actor, inheritance: ["UIViewController", "Sendable"], attributes: ["@MainActor"],
      isGeneric: true, genericParameters: ["Item"], objcMembers: true, conditional: true, access: .fileprivate, location: at(2),
      extensions: [at(20, "Sources/Shop/Extra.swift")], methods: [method], properties: [property], initializers: [initializer],
      subscripts: [
        DeclaredSubscript(parameterTypes: ["Int"], resultType: "Item?", isStatic: true, access: .public, conditional: true, location: at(12))
      ], imports: ["Foundation", "UIKit"])
    return HandlerRegistry(
      types: [
        type,
        DeclaredType(
          name: "UIViewController", kind: .external, isGeneric: false, objcMembers: false, conditional: false, access: .open,
          location: at(20, "Sources/Shop/Extra.swift"), extensions: [], methods: []),
      ],
      viewReferences: [
        ViewReference(
          kind: .returns, names: ["card", "ReceiptView"], owner: "Home.Screen", module: "Shop", location: at(30), root: "some View",
          modifiers: ["padding"])
      ],
      methodUses: [MethodUse(kind: .actionClosureCall, name: "open(item:_:)", via: "UIAction", location: at(31))],
      typeAliases: [
        DeclaredTypeAlias(
          name: "Home.ID", module: "Shop", genericParameters: ["T"], aliased: "Box<T>", access: .public, conditional: true, location: at(1))
      ])
  }()

  // MARK: One list of fields

  /// Every stored property of every record in the samples is in its record's field list (a property
  /// left out would be lost by every form), and the samples set every field, so that the round trips
  /// below check each one.
  @Test func everyStoredPropertyIsAFieldAndTheSamplesSetThemAll() {
    var census = Census()
    census.visit(Self.sample)
    census.visit(Self.registry)
    for (type, keys) in census.keys.sorted(by: { $0.key < $1.key }) {
      #expect(keys == census.properties[type], "\(type): the fields are not the stored properties")
      #expect(keys == census.set[type], "\(type): the samples leave \(keys.subtracting(census.set[type] ?? [])) unset")
    }
    // Every kind of record is reached (a record type the samples miss would escape the checks above).
    #expect(
      Set(census.keys.keys) == [
        "FileScan", "ScannedDeclaration", "ScannedMethod", "ScannedParameters", "ScannedProperty", "ScannedInitializer",
        "ScannedPosition", "ScannedReference", "ScanProblem", "ScannedUse", "ScannedTypeAlias", "SameTypeRequirement",
        "HandlerRegistry", "DeclaredType", "DeclaredMethod", "DeclaredProperty", "DeclaredInitializer", "MethodSignature", "Parameter",
        "RegistryLocation", "ViewReference", "MethodUse", "DeclaredTypeAlias", "ScannedSubscript", "DeclaredSubscript",
      ])
  }

  /// Walks a value's tree, recording for each record type its fields, its stored properties and the
  /// fields some instance sets to something other than empty.
  struct Census {
    var keys: [String: Set<String>] = [:]
    var properties: [String: Set<String>] = [:]
    var set: [String: Set<String>] = [:]

    mutating func visit(_ value: Any) {
      if let record = value as? any FieldRecord { census(record) }
      for child in Mirror(reflecting: value).children { visit(child.value) }
    }

    private mutating func census<Record: FieldRecord>(_ record: Record) {
      let type = String(describing: Record.self)
      var lister = FieldLister()
      var copy = record
      copy.fields(&lister)
      keys[type] = Set(lister.keys)
      properties[type] = Set(Mirror(reflecting: record).children.compactMap(\.label))
      set[type, default: []].formUnion(lister.setKeys)
    }
  }

  struct FieldLister: FieldCoder {
    typealias Failure = Never
    var keys: [String] = []
    var setKeys: [String] = []

    mutating func field<Value: FieldValue>(_ key: StaticString, _ value: inout Value, _ presence: FieldPresence) {
      keys.append(key.description)
      if !value.isEmptyField { setKeys.append(key.description) }
    }

    mutating func path(_ key: StaticString, _ value: inout String) { field(key, &value, .always) }
    func require(_ condition: @autoclosure () -> Bool) {}
  }

  // MARK: The binary form

  static func decoded(_ bytes: [UInt8]) -> FileScan? {
    bytes.withUnsafeBytes { FileScan.decodeBinary($0) }
  }

  static func decodedRegistry(_ bytes: [UInt8]) -> HandlerRegistry? {
    bytes.withUnsafeBytes { HandlerRegistry.decodeBinary($0) }
  }

  @Test func theBinaryFormKeepsEveryField() {
    #expect(Self.decoded(Self.sample.binaryEncoded()) == Self.sample)
    #expect(Self.decoded(FileScan().binaryEncoded()) == FileScan())
    #expect(Self.decodedRegistry(Self.registry.binaryEncoded()) == Self.registry)
    let empty = HandlerRegistry(types: [])
    #expect(Self.decodedRegistry(empty.binaryEncoded()) == empty)
  }

  @Test func everyTruncationIsRejected() {
    for bytes in [Self.sample.binaryEncoded(), Self.registry.binaryEncoded()] {
      for length in 0..<bytes.count {
        #expect(Self.decoded(Array(bytes.prefix(length))) == nil, "accepted \(length) of \(bytes.count) bytes")
        #expect(Self.decodedRegistry(Array(bytes.prefix(length))) == nil, "accepted \(length) of \(bytes.count) bytes")
      }
    }
  }

  /// Random bytes and single-byte damage never crash, hang or allocate wildly; they decode or are rejected.
  @Test func damagedBytesNeverCrash() {
    var state: UInt64 = 42
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    for bytes in [Self.sample.binaryEncoded(), Self.registry.binaryEncoded()] {
      for _ in 0..<2000 {
        var damaged = bytes
        damaged[Int(next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: next())
        _ = Self.decoded(damaged)
        _ = Self.decodedRegistry(damaged)
        let random = (0..<Int(next() % 200)).map { _ in UInt8(truncatingIfNeeded: next()) }
        _ = Self.decoded(random)
        _ = Self.decodedRegistry(random)
      }
    }
    // A count claiming more elements than there are bytes is rejected before anything is allocated.
    #expect(Self.decoded([0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]) == nil)
    // A location whose path is not in the table.
    let one = HandlerRegistry(types: [DeclaredType(name: "A", location: RegistryLocation(file: "A.swift", line: 1, column: 7))])
    let body = Array(one.binaryEncoded().dropFirst(2 + "A.swift".utf8.count))
    #expect(Self.decodedRegistry([1, 7] + Array("A.swift".utf8) + body) == one)
    #expect(Self.decodedRegistry([0] + body) == nil)
  }

  /// A reference's owner must be one of the file's declarations: a cache that says otherwise is damaged.
  @Test func aReferenceToNoDeclarationIsRejected() {
    var scan = FileScan()
    scan.declarations = [
      ScannedDeclaration(
        kind: .struct, name: "A", inheritance: ["View"], isGeneric: false, conditional: false, position: ScannedPosition(line: 1, column: 8))
    ]
    scan.references = [ScannedReference(kind: .tracked, names: ["a"], owner: 0, position: ScannedPosition(line: 2, column: 3))]
    #expect(Self.decoded(scan.binaryEncoded()) == scan)
    scan.references[0].owner = 1
    #expect(Self.decoded(scan.binaryEncoded()) == nil)
    scan.references[0].owner = -1
    #expect(Self.decoded(scan.binaryEncoded()) == nil)
  }

  @Test func workerAnswersRoundTrip() throws {
    let answer = ScanWorker.Response(scan: Self.sample, hash: "abc")
    let decoded = try #require(answer.encoded().withUnsafeBytes { ScanWorker.Response.decode($0) })
    #expect(decoded.hash == "abc")
    #expect(decoded.scan == Self.sample)
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

  // MARK: JSON

  /// The registry file `trackc scan` writes reads back whole.
  @Test func theRegistryFileKeepsEveryField() throws {
    let decoded = HandlerRegistry.decode(InputBytes(Self.registry.jsonBytes()))
    #expect(decoded.problems.isEmpty)
    #expect(decoded.registry == Self.registry)
    // Written as JSONEncoder writes it with sorted keys (but for its spacing), so that it means the same.
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let fromEncoder = try JSONSerialization.jsonObject(with: encoder.encode(Self.registry)) as? NSDictionary
    let fromWriter = try JSONSerialization.jsonObject(with: Data(Self.registry.jsonBytes())) as? NSDictionary
    #expect(fromEncoder != nil && fromEncoder == fromWriter)
  }

  /// The scan's types are `Codable` through the same list.
  @Test func scansRoundTripThroughJSON() throws {
    let json = try JSONEncoder().encode(Self.sample)
    #expect(try JSONDecoder().decode(FileScan.self, from: json) == Self.sample)
  }

  /// The fields added after registry files were first written may be missing, and read as false or nil;
  /// the others are required, and a missing one is reported where the record is.
  @Test func olderRegistryFilesStillRead() throws {
    let old = """
      {
        "types": [
          {
            "access": "internal", "conditional": false, "extensions": [], "inheritance": [], "isGeneric": false, "kind": "class",
            "location": {"column": 7, "file": "A.swift", "line": 1},
            "methods": [], "name": "A", "objcMembers": false,
            "properties": [
              {
                "access": "internal", "attributes": [], "conditional": false, "isComputed": false, "isConstant": false,
                "isStatic": false, "location": {"column": 3, "file": "A.swift", "line": 2}, "name": "count", "type": "Int"
              }
            ]
          }
        ],
        "version": 1
      }
      """
    let decoded = HandlerRegistry.decode(InputBytes(Array(old.utf8)))
    #expect(decoded.problems.isEmpty)
    let property = try #require(decoded.registry?.types.first?.properties?.first)
    #expect(property.hasEffectfulGetter == false && property.typeIsInferred == false && property.requirements == nil)
    #expect(decoded.registry?.typeAliases == nil && decoded.registry?.types.first?.genericParameters == nil)
    let missing = HandlerRegistry.decode(InputBytes(Array(old.replacingOccurrences(of: #""isStatic": false, "#, with: "").utf8)))
    #expect(
      missing.problems.contains {
        if case .missingField("isStatic", _) = $0 { return true }
        return false
      })
  }
}
