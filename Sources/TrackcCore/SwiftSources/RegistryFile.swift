#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HandlerRegistry {
  /// Registry files larger than this are not read: `trackc scan` writes about 10 KB per source file, so
  /// this is room for some 6,000 files.
  public static let maxFileBytes = 64 << 20

  /// The registry as `trackc scan` writes it: pretty, key-sorted JSON, the same bytes for the same sources.
  /// Written directly rather than through JSONEncoder, which took a tenth of a second per thousand files.
  public func json() -> String {
    String(decoding: jsonBytes(), as: UTF8.self)
  }

  /// The same, as UTF-8 bytes (for writing to a file without a detour through a String).
  public func jsonBytes() -> [UInt8] {
    var writer = JSONFieldWriter()
    var copy = self
    writer.record(&copy)
    writer.text.append(0x0A)
    return writer.text
  }

  /// Reads a registry file. Every problem (JSON syntax, a missing field, a wrong type, another format
  /// version) comes back typed, at its line and column: JSON is YAML, so libyaml locates syntax errors,
  /// and the decoder's coding path is followed through the parsed document to the offending value.
  public static func decode(_ input: InputBytes, fileSize: Int? = nil) -> (registry: HandlerRegistry?, problems: [RegistryProblem]) {
    if let fileSize, fileSize > maxFileBytes { return (nil, [.tooLarge(limit: maxFileBytes)]) }
    guard !input.buffer.isEmpty else { return (nil, [.empty]) }
    do {
      let registry = try JSONDecoder().decode(HandlerRegistry.self, from: Data(input.buffer))
      guard registry.version == formatVersion else {
        let parsed = YAMLParser.parse(input)
        let range = parsed.document.flatMap { locate(["version"], in: $0) } ?? SourceRange(at: .start)
        return (nil, [.unsupportedVersion(registry.version, at: range)])
      }
      return (registry, [])
    } catch let error as DecodingError {
      let parsed = YAMLParser.parse(input)
      if !parsed.problems.isEmpty { return (nil, [.notJSON(parsed.problems)]) }
      let codingPath: [any CodingKey]
      let problem: (SourceRange) -> RegistryProblem
      switch error {
      case .keyNotFound(let key, let context):
        codingPath = context.codingPath
        problem = { .missingField(key.stringValue, at: $0) }
      case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
        codingPath = context.codingPath
        problem = { .invalidValue(context.debugDescription, at: $0) }
      @unknown default:
        return (nil, [.notARegistry("\(error)")])
      }
      let range = parsed.document.flatMap { locate(codingPath.map { $0.intValue.map(Step.index) ?? .key($0.stringValue) }, in: $0) }
      return (nil, [problem(range ?? SourceRange(at: .start))])
    } catch {
      return (nil, [.notARegistry("\(error)")])
    }
  }

  private enum Step {
    case key(String)
    case index(Int)
  }

  private static func locate(_ keys: [String], in document: YAMLDocument) -> SourceRange? {
    locate(keys.map(Step.key), in: document)
  }

  /// The range of the value at a coding path, or of the deepest part of the path that exists.
  private static func locate(_ steps: [Step], in document: YAMLDocument) -> SourceRange? {
    guard var node = document.root else { return nil }
    for step in steps {
      switch step {
      case .key(let key):
        guard let pair = document.pairs(node).first(where: { document.textEquals($0.key, key) }) else { return document.range(node) }
        node = pair.value
      case .index(let index):
        let items = document.items(node)
        guard index < items.count else { return document.range(node) }
        node = items[index]
      }
    }
    return document.range(node)
  }
}

/// Pretty JSON (two-space indent, `"key": value`, `[]` for an empty list), each record's members in the
/// order its field list gives, which is the keys' sorted order. Written directly rather than through
/// JSONEncoder, which took a tenth of a second per thousand files; the lists of the top-level record
/// (the registry's types) on all cores, in chunks, joined in order.
struct JSONFieldWriter: ValueCoder {
  typealias Failure = Never

  var text: [UInt8] = []
  /// The indent of the value being written.
  private var indent = 0
  /// Whether the object being written has a member already (so the next one needs a comma).
  private var hasMember = false
  #if DEBUG
    private var lastKey: StaticString?
  #endif

  mutating func field<Value: FieldValue>(_ key: StaticString, _ value: inout Value, _ presence: FieldPresence) {
    guard !value.isNilField, presence == .always || !value.isEmptyField else { return }
    #if DEBUG
      if let lastKey {
        precondition(UTF8Order.less(lastKey.description, key.description), "fields out of order: \(key) after \(lastKey)")
      }
      lastKey = key
    #endif
    if hasMember { raw(",") }
    newline(indent: indent + 1)
    raw("\"")
    raw(key)
    raw("\": ")
    indent += 1
    value.code(&self)
    indent -= 1
    hasMember = true
  }

  mutating func path(_ key: StaticString, _ value: inout String) { field(key, &value, .always) }
  func require(_ condition: @autoclosure () -> Bool) {}
  mutating func string(_ value: inout String) { TextEscaping.appendJSONString(value, to: &text) }
  mutating func int(_ value: inout Int) { text.append(contentsOf: String(value).utf8) }
  mutating func bool(_ value: inout Bool) { value ? raw("true") : raw("false") }
  mutating func enumCase<Value: FieldEnum>(_ value: inout Value) { TextEscaping.appendJSONString(value.rawValue, to: &text) }

  mutating func record<Value: FieldRecord>(_ value: inout Value) {
    let outer = hasMember
    #if DEBUG
      let outerKey = lastKey
      lastKey = nil
      defer { lastKey = outerKey }
    #endif
    raw("{")
    hasMember = false
    value.fields(&self)
    newline(indent: indent)
    raw("}")
    hasMember = outer
  }

  mutating func optional<Wrapped: FieldValue>(_ value: inout Wrapped?) {
    guard var wrapped = value else { return raw("null") }
    wrapped.code(&self)
  }

  mutating func array<Element: FieldValue>(_ value: inout [Element]) {
    guard !value.isEmpty else { return raw("[]") }
    raw("[")
    if indent == 1, value.count >= 128 {
      let elements = value
      let chunks = Parallel.ranges(count: elements.count, minimumSize: 64)
      let parts = Parallel.map(chunks.count) { chunk in
        var writer = JSONFieldWriter(indent: 1)
        writer.elements(elements[chunks[chunk]], first: chunks[chunk].lowerBound == 0)
        return writer.text
      }
      text.reserveCapacity(text.count + parts.reduce(0) { $0 + $1.count } + 8)
      for part in parts { text += part }
    } else {
      elements(value[...], first: true)
    }
    newline(indent: indent)
    raw("]")
  }

  private init(indent: Int) {
    self.indent = indent
  }

  init() {}

  /// Each element on its own line, after a comma unless it is the list's first.
  private mutating func elements<Element: FieldValue>(_ elements: ArraySlice<Element>, first: Bool) {
    var first = first
    indent += 1
    // Each element is copied out rather than coded in place, which would copy the whole list first.
    for var element in elements {
      if !first { raw(",") }
      first = false
      newline(indent: indent)
      element.code(&self)
    }
    indent -= 1
  }

  private mutating func raw(_ string: StaticString) {
    text.append(contentsOf: UnsafeBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount))
  }

  private mutating func newline(indent: Int) {
    text.append(0x0A)
    text.append(contentsOf: repeatElement(0x20, count: indent * 2))
  }
}
