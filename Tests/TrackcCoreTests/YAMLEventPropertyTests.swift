import CYAML
import Testing
import TrackcCore
import TrackcInvariants
import TrackcTestSupport

/// The YAML reader against libyaml's own event stream: on generated documents (block and flow
/// collections, every scalar style, comments, anchors and aliases, CRLF, a byte order mark, no final line
/// break), the tree `YAMLParser` builds has the same structure, the same scalars and styles and the same
/// positions as the events libyaml emits. What the reader adds (its arena, scalars read in place from the
/// input, the key index of large mappings, alias expansion) must change nothing.
@Suite struct YAMLEventPropertyTests {
  static let documentCount = 400

  @Test func treeAgreesWithLibyamlEvents() {
    var parsed = 0
    for index in 0..<Self.documentCount {
      let seed = SeededRandom.baseSeed &+ UInt64(index)
      var random = SeededRandom(seed: seed)
      let bytes = YAMLDocumentGenerator.document(using: &random)
      guard let expected = LibyamlTree.build(bytes) else { continue }
      parsed += 1
      let result = YAMLParser.parse(bytes)
      let text = String(decoding: bytes, as: UTF8.self).debugDescription
      guard let document = result.document, let root = document.root, result.problems.isEmpty else {
        Issue.record("seed \(seed): libyaml reads the document, trackc reports \(result.problems): \(text)")
        continue
      }
      var differences: [String] = []
      compare(expected, root, in: document, path: "root", differences: &differences)
      if !differences.isEmpty {
        Issue.record("seed \(seed): \(differences.prefix(5).joined(separator: "; ")) in \(text)")
      }
    }
    // The generator writes valid YAML nearly always; a test that compared nothing would prove nothing.
    #expect(parsed > Self.documentCount * 9 / 10, "only \(parsed) of \(Self.documentCount) generated documents were valid YAML")
  }

  func compare(_ expected: LibyamlTree.Node, _ node: YAMLNodeID, in document: YAMLDocument, path: String, differences: inout [String]) {
    if document.range(node) != expected.range {
      differences.append("\(path): range \(describe(document.range(node))), libyaml \(describe(expected.range))")
    }
    switch expected.content {
    case .scalar(let text, let style):
      guard document.kind(node) == .scalar else { return differences.append("\(path): \(document.kind(node)), libyaml a scalar") }
      if document.text(node) != text { differences.append("\(path): text \(document.text(node).debugDescription), libyaml \(text.debugDescription)") }
      if document.style(node) != style { differences.append("\(path): style \(document.style(node)), libyaml \(style)") }
    case .sequence(let items):
      guard document.kind(node) == .sequence else { return differences.append("\(path): \(document.kind(node)), libyaml a sequence") }
      let actual = document.items(node)
      guard actual.count == items.count else { return differences.append("\(path): \(actual.count) items, libyaml \(items.count)") }
      for (index, item) in items.enumerated() {
        compare(item, actual[index], in: document, path: "\(path)[\(index)]", differences: &differences)
      }
    case .mapping(let pairs):
      guard document.kind(node) == .mapping else { return differences.append("\(path): \(document.kind(node)), libyaml a mapping") }
      let actual = document.pairs(node)
      guard actual.count == pairs.count else { return differences.append("\(path): \(actual.count) pairs, libyaml \(pairs.count)") }
      for (index, pair) in pairs.enumerated() {
        compare(pair.key, actual[index].key, in: document, path: "\(path).key\(index)", differences: &differences)
        compare(pair.value, actual[index].value, in: document, path: "\(path).value\(index)", differences: &differences)
      }
    }
  }

  func describe(_ range: SourceRange) -> String {
    "\(range.start.line):\(range.start.column)-\(range.end.line):\(range.end.column)"
  }
}

/// The tree libyaml's events describe, built straight from them: aliases stand for a copy of their
/// anchored node, positions are libyaml's marks (1-based), except that one past the end of an input
/// without a final line break is the end of its last line (where trackc puts it, and the only place it
/// departs from libyaml's marks).
enum LibyamlTree {
  struct Node {
    enum Content {
      case scalar(String, YAMLScalarStyle)
      case sequence([Node])
      case mapping([(key: Node, value: Node)])
    }

    var content: Content
    var range: SourceRange
  }

  /// The document's root, or nil when libyaml reports an error or the stream holds no single document.
  static func build(_ bytes: [UInt8]) -> Node? {
    let lines = InputLines(bytes)
    let endsWithLineBreak = bytes.last == 0x0A || bytes.last == 0x0D
    let end = SourcePosition(line: lines.lengths.count, column: lines.lengths[lines.lengths.count - 1] + 1)
    func position(_ mark: yaml_mark_t) -> SourcePosition {
      let position = SourcePosition(line: mark.line + 1, column: mark.column + 1)
      return !endsWithLineBreak && end < position ? end : position
    }

    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) != 0 else { return nil }
    defer { yaml_parser_delete(&parser) }
    return bytes.withUnsafeBufferPointer { buffer -> Node? in
      var empty: UInt8 = 0
      yaml_parser_set_input_string(&parser, buffer.baseAddress ?? withUnsafePointer(to: &empty) { $0 }, buffer.count)
      // Open collections: their start, kind and anchor, and the children read so far.
      var stack: [(start: SourcePosition, isMapping: Bool, anchor: String?, children: [Node])] = []
      var anchors: [String: Node] = [:]
      var root: Node?
      var documents = 0
      var event = yaml_event_t()
      func add(_ node: Node, anchor: UnsafeMutablePointer<yaml_char_t>?) {
        if let anchor { anchors[String(cString: anchor)] = node }
        if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
      }
      while true {
        guard yaml_parser_parse(&parser, &event) != 0 else { return nil }
        defer { yaml_event_delete(&event) }
        let start = position(event.start_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
          documents += 1
        case YAML_SCALAR_EVENT:
          let scalar = event.data.scalar
          let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
          add(
            Node(content: .scalar(text, style(scalar.style)), range: SourceRange(start: start, end: position(event.end_mark))), anchor: scalar.anchor)
        case YAML_ALIAS_EVENT:
          guard let anchored = anchors[String(cString: event.data.alias.anchor)] else { return nil }
          add(anchored, anchor: nil)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
          let isMapping = event.type == YAML_MAPPING_START_EVENT
          let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
          stack.append((start, isMapping, anchor.map { String(cString: $0) }, []))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
          guard let open = stack.popLast() else { return nil }
          let range = SourceRange(start: open.start, end: position(event.end_mark))
          let content: Node.Content
          if open.isMapping {
            content = .mapping(stride(from: 0, to: open.children.count - 1, by: 2).map { (open.children[$0], open.children[$0 + 1]) })
          } else {
            content = .sequence(open.children)
          }
          let node = Node(content: content, range: range)
          if let anchor = open.anchor { anchors[anchor] = node }
          if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
        case YAML_STREAM_END_EVENT:
          return documents == 1 ? root : nil
        default:
          break
        }
      }
    }
  }

  static func style(_ style: yaml_scalar_style_t) -> YAMLScalarStyle {
    switch style {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
    case YAML_LITERAL_SCALAR_STYLE: return .literal
    case YAML_FOLDED_SCALAR_STYLE: return .folded
    default: return .plain
    }
  }
}
