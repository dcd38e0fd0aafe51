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
  public func json() -> String {
    JSONOutput.encode(self)
  }

  /// Reads a registry file. Every problem (JSON syntax, a missing field, a wrong type, another format
  /// version) comes back as a diagnostic at its line and column: JSON is YAML, so libyaml locates syntax
  /// errors, and the decoder's coding path is followed through the parsed document to the offending value.
  public static func decode(_ input: InputBytes, path: String, fileSize: Int? = nil) -> (registry: HandlerRegistry?, diagnostics: [Diagnostic]) {
    func failure(_ message: String, at range: SourceRange = SourceRange(at: .start)) -> (HandlerRegistry?, [Diagnostic]) {
      (nil, [Diagnostic(.error, rule: HandlersFileRule.id, message, at: SourceLocation(file: path, range: range))])
    }
    if let fileSize, fileSize > maxFileBytes {
      return failure(
        "the registry file is larger than the \(ByteCountText.describe(maxFileBytes)) a registry may have; it was not read")
    }
    guard !input.buffer.isEmpty else { return failure("the registry file is empty; 'trackc scan' writes one") }
    do {
      let registry = try JSONDecoder().decode(HandlerRegistry.self, from: Data(input.buffer))
      guard registry.version == formatVersion else {
        let parsed = YAMLParser.parse(input, file: path)
        let range = parsed.document.flatMap { locate(["version"], in: $0) } ?? SourceRange(at: .start)
        return failure("this registry has format version \(registry.version); this trackc reads version \(formatVersion)", at: range)
      }
      return (registry, [])
    } catch let error as DecodingError {
      let parsed = YAMLParser.parse(input, file: path)
      if !parsed.diagnostics.isEmpty { return (nil, parsed.diagnostics) }
      let (codingPath, message): ([any CodingKey], String)
      switch error {
      case .keyNotFound(let key, let context):
        (codingPath, message) = (context.codingPath, "this registry entry has no '\(key.stringValue)'")
      case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
        (codingPath, message) = (context.codingPath, "this registry value is invalid: \(context.debugDescription)")
      @unknown default:
        (codingPath, message) = ([], "this is not a handler registry: \(error)")
      }
      let range = parsed.document.flatMap { locate(codingPath.map { $0.intValue.map(Step.index) ?? .key($0.stringValue) }, in: $0) }
      return failure(message + " (see Schemas/handlers.schema.json)", at: range ?? SourceRange(at: .start))
    } catch {
      return failure("this is not a handler registry: \(error)")
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
