#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `trackc export`: the plan in the forms other tools read. Deterministic: the same plan always gives the
/// same bytes.
public enum PlanExport {
  // MARK: JSON Schema

  public struct SchemaOptions: Sendable {
    /// Whether an event may carry properties the plan does not list. False by default: the plan lists
    /// every property the app sends (static properties are sent as written), so an extra property
    /// means the app and the plan disagree, which is what a collector validating against the plan is
    /// there to catch.
    public var allowAdditionalProperties = false
    /// Prefix of each schema's `$id` (`https://example.com/schemas/`); no `$id` when nil.
    public var idBase: String?

    public init(allowAdditionalProperties: Bool = false, idBase: String? = nil) {
      self.allowAdditionalProperties = allowAdditionalProperties
      self.idBase = idBase
    }
  }

  /// One JSON Schema (draft 2020-12) per event ID, describing the event's `properties` object; named
  /// `<EVENT_ID>.schema.json` (an ID that is not a safe file name is spelt safely; names never collide,
  /// even on a case-insensitive file system). An ID mapped from several places with different
  /// properties gets `anyOf` its variants. Sorted by file name.
  public static func jsonSchemas(_ outline: PlanOutline, options: SchemaOptions = SchemaOptions()) -> [Generator.File] {
    var order: [String] = []
    var uses: [String: [WireContract.Event]] = [:]
    for event in WireContract(outline).events {
      if uses[event.id] == nil { order.append(event.id) }
      uses[event.id, default: []].append(event)
    }
    var names = UniqueNames { "\($0)~\($1)" }
    var files: [Generator.File] = []
    for id in order.sorted(by: UTF8Order.less) {
      let mappings = uses[id]!
      let stem = claimFileStem(id, in: &names)
      var schema: [String: JSONValue] = [
        "$schema": .string("https://json-schema.org/draft/2020-12/schema"),
        "title": .string(id),
        "description": .string(mappings.map(\.summary).joined(separator: "; ")),
        "type": .string("object"),
      ]
      if let base = options.idBase { schema["$id"] = .string(base + stem + ".schema.json") }
      var variants: [[String: JSONValue]] = []
      for event in mappings {
        let variant = objectSchema(event.properties, options: options)
        if !variants.contains(variant) { variants.append(variant) }
      }
      if variants.count == 1 {
        schema.merge(variants[0]) { _, new in new }
      } else {
        schema["anyOf"] = .array(variants.map { .object($0) })
      }
      files.append(Generator.File(name: stem + ".schema.json", contents: JSONOutput.encode(JSONValue.object(schema))))
    }
    return files.sorted { UTF8Order.less($0.name, $1.name) }
  }

  /// Whether a file in an export directory is one `jsonSchemas` writes (so it is replaced or removed).
  public static func isSchemaFile(_ name: String) -> Bool { name.hasSuffix(".schema.json") }

  /// The `properties` object of one mapping: a static value is of its type, with its value, and
  /// required; a bound one is of its type when the plan gives one, and may be left out (a nil is not sent).
  private static func objectSchema(_ properties: [WireContract.Property], options: SchemaOptions) -> [String: JSONValue] {
    var schemas: [String: JSONValue] = [:]
    for property in properties {
      var schema: [String: JSONValue] = [:]
      if let type = property.type { schema["type"] = .string(type.jsonType) }
      if let constant = property.constant { schema["const"] = JSONValue(constant) }
      schemas[property.key] = .object(schema)
    }
    var schema: [String: JSONValue] = [
      "properties": .object(schemas),
      "additionalProperties": .bool(options.allowAdditionalProperties),
    ]
    let required = properties.filter(\.isRequired).map(\.key).sorted(by: UTF8Order.less)
    if !required.isEmpty { schema["required"] = .array(required.map { .string($0) }) }
    return schema
  }

  /// A file stem no other event's takes, compared without case: the ID itself when it is made of
  /// letters, digits, `_`, `-` and `.` (and does not start with `.`), otherwise those characters with
  /// the rest as `%XX` bytes.
  private static func claimFileStem(_ id: String, in names: inout UniqueNames) -> String {
    let stem = safeFileStem(id)
    let claimed = names.claim(stem.lowercased())
    // The suffix `UniqueNames` added to the lowercased stem, added to the stem as written.
    return stem + claimed.dropFirst(stem.lowercased().count)
  }

  static func safeFileStem(_ id: String) -> String {
    var stem = ""
    for (index, byte) in id.utf8.enumerated() {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "_"), UInt8(ascii: "-"):
        stem.append(Character(Unicode.Scalar(byte)))
      case UInt8(ascii: ".") where index > 0:
        stem.append(".")
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        stem += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    // Long IDs stay under the usual 255-byte file name limit.
    return stem.isEmpty ? "%" : String(stem.prefix(200))
  }

  // MARK: CSV

  public static let csvColumns = [
    "screen", "trigger_kind", "trigger", "event_id", "destinations", "properties", "config_line", "swift_declaration", "call", "wire_name",
  ]

  /// The plan as CSV (RFC 4180: CRLF line ends, fields with `"`, `,`, CR or LF quoted, quotes doubled),
  /// one row per event in file order, with a header row. Properties are one cell of compact JSON.
  ///
  /// A cell that starts with `=`, `+`, `-`, `@`, a tab or a CR gets a `'` in front, as OWASP advises
  /// against CSV injection: spreadsheets would otherwise run it as a formula (`=HYPERLINK(...)`). The
  /// apostrophe shows in the cell; the value after it is the plan's, unchanged.
  public static func csv(_ outline: PlanOutline) -> String {
    var output = csvRow(csvColumns)
    for (screen, event) in outline.allEvents {
      let properties = event.properties.map { property -> String in
        let value: String
        switch property.value {
        case .literal(let literal): value = jsonFragment(literal)
        case .bound(let from, let type):
          value =
            "{" + jsonFragment(.string("from")) + ":" + jsonFragment(.string(from))
            + (type.map { "," + jsonFragment(.string("type")) + ":" + jsonFragment(.string($0.rawValue)) } ?? "") + "}"
        case .invalid: value = "null"
        }
        return jsonFragment(.string(property.key)) + ":" + value
      }
      output += csvRow([
        screen.name, event.trigger.kind, event.trigger.label, event.id, event.routing.summary,
        properties.isEmpty ? "" : "{" + properties.joined(separator: ",") + "}",
        String(event.idRange.start.line), event.declaration?.description ?? "", event.call.rawValue, event.nameOnTheWire(screen: screen.name),
      ])
    }
    return output
  }

  static func csvRow(_ cells: [String]) -> String {
    cells.map(csvCell).joined(separator: ",") + "\r\n"
  }

  public static func csvCell(_ text: String) -> String {
    var cell = text
    if let first = cell.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) { cell = "'" + cell }
    guard cell.unicodeScalars.contains(where: { $0 == "\"" || $0 == "," || $0 == "\r" || $0 == "\n" }) else { return cell }
    return "\"" + cell.replacing("\"", with: "\"\"") + "\""
  }

  /// A scalar as JSON text (`"home"`, `2`, `true`).
  private static func jsonFragment(_ value: PropertyValue) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data: Data?
    switch value {
    case .string(let string): data = try? encoder.encode(string)
    case .int(let int): data = try? encoder.encode(int)
    case .double(let double): data = try? encoder.encode(double)
    case .bool(let bool): data = try? encoder.encode(bool)
    }
    return data.map { String(decoding: $0, as: UTF8.self) } ?? "null"
  }
}

/// A JSON document built in code (schemas, exports), encoded with sorted keys by `JSONOutput`.
indirect enum JSONValue: Encodable, Hashable, Sendable {
  case string(String)
  case int(Int)
  case double(Double)
  case bool(Bool)
  case array([JSONValue])
  case object([String: JSONValue])

  init(_ value: PropertyValue) {
    switch value {
    case .string(let string): self = .string(string)
    case .int(let int): self = .int(int)
    case .double(let double): self = .double(double)
    case .bool(let bool): self = .bool(bool)
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .string(let string): try container.encode(string)
    case .int(let int): try container.encode(int)
    case .double(let double): try container.encode(double)
    case .bool(let bool): try container.encode(bool)
    case .array(let array): try container.encode(array)
    case .object(let object): try container.encode(object)
    }
  }
}
