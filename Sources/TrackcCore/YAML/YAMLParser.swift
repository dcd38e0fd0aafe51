import CYAML

/// Limits that keep hostile input from costing unbounded time or memory.
public struct YAMLLimits: Sendable, Hashable {
  /// Nodes that aliases may add to the document when expanded. Aliases share nodes, so this bounds the
  /// work of everything that walks the tree, which is what a "billion laughs" file attacks.
  public var maxAliasExpansion: Int = 100_000
  /// Collections nested inside each other. A trackc config needs fewer than ten levels.
  public var maxNestingDepth: Int = 100

  public init() {}
}

public struct YAMLParseResult: Sendable {
  /// The document's root node; nil when the input holds no document or could not be read.
  public var root: YAMLNode?
  public var diagnostics: [Diagnostic]
  /// True when an error stopped the parse, so `root` is missing or incomplete.
  public var failed: Bool
}

/// Reads YAML through libyaml's event API and builds a node tree in which every node knows its range.
///
/// Beyond what libyaml checks, it rejects what would make a config mean something other than it says:
/// duplicate keys, unknown tags, more than one document; resolves `<<` merge keys (YAML 1.1's merge
/// type); and stops at once on aliases that expand past `YAMLLimits.maxAliasExpansion` nodes.
public enum YAMLParser {
  public static func parse(_ bytes: [UInt8], file: String, limits: YAMLLimits = YAMLLimits()) -> YAMLParseResult {
    if let problem = TextEncoding.problem(in: bytes) {
      let diagnostic = YAMLEncodingRule.diagnostic(for: problem, in: bytes, file: file)
      return YAMLParseResult(root: nil, diagnostics: [diagnostic], failed: true)
    }
    var builder = TreeBuilder(file: file, bytes: bytes, limits: limits)
    builder.run()
    return YAMLParseResult(root: builder.root, diagnostics: builder.diagnostics, failed: builder.failed)
  }
}

private struct TreeBuilder {
  let file: String
  let bytes: [UInt8]
  let limits: YAMLLimits

  var root: YAMLNode?
  var diagnostics: [Diagnostic] = []
  var failed = false

  private var stack: [Frame] = []
  private var anchors: [String: Anchored] = [:]
  private var aliasExpansion = 0
  private var documentCount = 0

  private struct Anchored {
    let node: YAMLNode
    /// Nodes in the expansion of `node`, counting what its own aliases expand to.
    let weight: Int
  }

  private struct Frame {
    enum Kind { case sequence, mapping }
    let kind: Kind
    let start: SourcePosition
    let anchor: String?
    let tag: String?
    /// Sequence items, or mapping keys and values alternating.
    var children: [YAMLNode] = []
    var weight = 1
    /// First occurrence of each scalar key, to report duplicates; built only once a mapping has more
    /// keys than a linear scan handles well (most mappings have a handful).
    var keyIndex: [String: YAMLNode]?

    static let keyIndexThreshold = 12

    /// The earlier key with this text, if any.
    func firstKey(_ text: String) -> YAMLNode? {
      if let keyIndex { return keyIndex[text] }
      var index = 0
      while index < children.count {
        let key = children[index]
        if !key.isMergeKey, let scalar = key.scalar, scalar.text == text { return key }
        index += 2
      }
      return nil
    }

    mutating func recordKey(_ node: YAMLNode, _ text: String) {
      if keyIndex != nil {
        keyIndex![text] = node
      } else if children.count / 2 >= Self.keyIndexThreshold {
        var index: [String: YAMLNode] = [:]
        index.reserveCapacity(children.count)
        var position = 0
        while position < children.count {
          let key = children[position]
          if !key.isMergeKey, let scalar = key.scalar, index[scalar.text] == nil { index[scalar.text] = key }
          position += 2
        }
        index[text] = node
        keyIndex = index
      }
    }

    /// Every explicit scalar key, for merges (which must not override them).
    var explicitKeys: Set<String> {
      var result = Set<String>()
      var index = 0
      while index < children.count {
        let key = children[index]
        if !key.isMergeKey, let scalar = key.scalar { result.insert(scalar.text) }
        index += 2
      }
      return result
    }
    /// The `<<` key, when the mapping merges others in.
    var mergeKey: YAMLNode?
    /// A mapping has read a key and waits for its value.
    var awaitingValue = false
    /// The pending value belongs to a duplicate key and is dropped.
    var dropValue = false
  }

  init(file: String, bytes: [UInt8], limits: YAMLLimits) {
    self.file = file
    self.bytes = bytes
    self.limits = limits
  }

  mutating func run() {
    let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    let event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
    defer {
      parser.deallocate()
      event.deallocate()
    }
    guard yaml_parser_initialize(parser) != 0 else {
      fail(YAMLSyntaxRule.id, "libyaml could not be initialised (out of memory)", at: .start)
      return
    }
    defer { yaml_parser_delete(parser) }

    // libyaml keeps pointers to the input and to the parser itself, so both stay put until the end.
    // A local copy of the (copy-on-write) array keeps the buffer borrow apart from `self`'s mutations.
    let input = bytes.isEmpty ? [0] : bytes
    input.withUnsafeBufferPointer { buffer in
      yaml_parser_set_input_string(parser, buffer.baseAddress!, bytes.count)
      while !failed {
        guard yaml_parser_parse(parser, event) != 0 else {
          reportParserError(parser.pointee)
          return
        }
        let isEnd = event.pointee.type == YAML_STREAM_END_EVENT
        handle(event.pointee)
        yaml_event_delete(event)
        if isEnd { return }
      }
    }
  }

  // MARK: Events

  private mutating func handle(_ event: yaml_event_t) {
    let start = Self.position(event.start_mark)
    let range = SourceRange(start: start, end: Self.position(event.end_mark))
    switch event.type {
    case YAML_DOCUMENT_START_EVENT:
      documentCount += 1
      if documentCount > 1 {
        fail(
          MultipleDocumentsRule.id,
          "the config holds more than one YAML document; a trackc config is a single document",
          at: start,
          notes: root.map { [Diagnostic.Note("the first document starts here", at: location($0.range.start))] } ?? [])
      }

    case YAML_SCALAR_EVENT:
      let data = event.data.scalar
      let text = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
      let tag = checkedTag(data.tag, at: start, kind: .scalar, text: text)
      let node = YAMLNode(.scalar(YAMLScalar(text, style: Self.style(data.style))), range: range, tag: tag)
      complete(node, weight: 1, anchor: Self.string(data.anchor))

    case YAML_SEQUENCE_START_EVENT:
      let data = event.data.sequence_start
      open(.sequence, at: start, anchor: Self.string(data.anchor), tag: checkedTag(data.tag, at: start, kind: .sequence))

    case YAML_MAPPING_START_EVENT:
      let data = event.data.mapping_start
      open(.mapping, at: start, anchor: Self.string(data.anchor), tag: checkedTag(data.tag, at: start, kind: .mapping))

    case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
      close(at: range.end)

    case YAML_ALIAS_EVENT:
      let name = Self.string(event.data.alias.anchor) ?? ""
      alias(name, range: range)

    default:
      break  // stream start/end, document end: nothing to build
    }
  }

  private mutating func open(_ kind: Frame.Kind, at start: SourcePosition, anchor: String?, tag: String?) {
    guard stack.count < limits.maxNestingDepth else {
      fail(
        NestingDepthRule.id,
        "collections are nested more than \(NumberText.grouped(limits.maxNestingDepth)) levels deep here; a trackc config needs only a few",
        at: start)
      return
    }
    stack.append(Frame(kind: kind, start: start, anchor: anchor, tag: tag))
  }

  private mutating func close(at end: SourcePosition) {
    guard let frame = stack.popLast() else { return }
    let range = SourceRange(start: frame.start, end: end)
    let node: YAMLNode
    switch frame.kind {
    case .sequence:
      node = YAMLNode(.sequence(frame.children), range: range, tag: frame.tag)
    case .mapping:
      var pairs: [YAMLNode.Pair] = []
      pairs.reserveCapacity(frame.children.count / 2)
      var index = 0
      while index + 1 < frame.children.count {
        pairs.append(YAMLNode.Pair(key: frame.children[index], value: frame.children[index + 1]))
        index += 2
      }
      if frame.mergeKey != nil { pairs = resolveMerges(pairs, explicitKeys: frame.explicitKeys) }
      node = YAMLNode(.mapping(pairs), range: range, tag: frame.tag)
    }
    complete(node, weight: frame.weight, anchor: frame.anchor)
  }

  private mutating func alias(_ name: String, range: SourceRange) {
    guard let anchored = anchors[name] else {
      if stack.contains(where: { $0.anchor == name }) {
        fail(YAMLAliasRule.id, "alias '*\(name)' refers to a node that contains it; recursive aliases are not allowed", at: range.start)
      } else {
        fail(YAMLAliasRule.id, "alias '*\(name)' refers to no anchor; define '&\(name)' before using it", at: range.start)
      }
      return
    }
    aliasExpansion += anchored.weight
    guard aliasExpansion <= limits.maxAliasExpansion else {
      fail(
        YAMLAliasRule.id,
        "aliases expand to more than \(NumberText.grouped(limits.maxAliasExpansion)) nodes; the file looks like an alias bomb ('billion laughs') and is rejected",
        at: range.start,
        notes: [Diagnostic.Note("'&\(name)' is defined here", at: location(anchored.node.range.start))])
      return
    }
    // The alias is the anchored node itself: no copy, no new anchor.
    add(anchored.node, weight: anchored.weight)
  }

  /// A finished node: register its anchor, then hand it to the enclosing collection (or make it the root).
  private mutating func complete(_ node: YAMLNode, weight: Int, anchor: String?) {
    if let anchor { anchors[anchor] = Anchored(node: node, weight: weight) }
    add(node, weight: weight)
  }

  private mutating func add(_ node: YAMLNode, weight: Int) {
    guard !stack.isEmpty else {
      if root == nil { root = node }
      return
    }
    let top = stack.count - 1
    stack[top].weight += weight
    guard stack[top].kind == .mapping else {
      stack[top].children.append(node)
      return
    }
    if stack[top].awaitingValue {
      stack[top].awaitingValue = false
      if stack[top].dropValue {
        stack[top].dropValue = false
      } else {
        stack[top].children.append(node)
      }
      return
    }
    stack[top].awaitingValue = true
    guard let scalar = node.scalar else {
      stack[top].children.append(node)
      return
    }
    if node.isMergeKey {
      if let first = stack[top].mergeKey {
        reportDuplicateKey(node, text: scalar.text, first: first)
        stack[top].dropValue = true
        return
      }
      stack[top].mergeKey = node
    } else if let first = stack[top].firstKey(scalar.text) {
      reportDuplicateKey(node, text: scalar.text, first: first)
      // The first occurrence stays; the duplicate key and its value are dropped after the error.
      stack[top].dropValue = true
      return
    } else {
      stack[top].recordKey(node, scalar.text)
    }
    stack[top].children.append(node)
  }

  private mutating func reportDuplicateKey(_ node: YAMLNode, text: String, first: YAMLNode?) {
    diagnostics.append(
      Diagnostic(
        .error, rule: DuplicateKeyRule.id, "duplicate key '\(text)' in this mapping",
        at: location(node.range),
        notes: first.map { [Diagnostic.Note("'\(text)' is first defined here", at: location($0.range))] } ?? []))
  }

  // MARK: Merge keys

  /// YAML 1.1 merge: `<<: *base` or `<<: [*a, *b]` adds the keys of those mappings that the mapping does
  /// not define itself; with several, earlier ones win. Merged pairs keep the ranges they were written at.
  private mutating func resolveMerges(_ pairs: [YAMLNode.Pair], explicitKeys: Set<String>) -> [YAMLNode.Pair] {
    var result: [YAMLNode.Pair] = []
    var merged = Set<String>()
    for pair in pairs {
      guard pair.key.isMergeKey else {
        result.append(pair)
        continue
      }
      let sources: [YAMLNode]
      switch pair.value.content {
      case .mapping:
        sources = [pair.value]
      case .sequence(let items):
        sources = items
      case .scalar:
        report(MergeKeyRule.id, "the value of a merge key '<<' must be a mapping or a list of mappings, found \(pair.value.value.kindDescription)", at: pair.value.range)
        // Kept, so the mapping still shows that something was written here; readers skip merge keys.
        result.append(pair)
        continue
      }
      var mergeFailed = false
      for source in sources {
        guard let sourcePairs = source.mapping else {
          report(MergeKeyRule.id, "a merge key '<<' can only merge mappings, found \(source.value.kindDescription)", at: source.range)
          mergeFailed = true
          continue
        }
        for sourcePair in sourcePairs {
          if let text = sourcePair.key.scalar?.text {
            if explicitKeys.contains(text) { continue }
            guard merged.insert(text).inserted else { continue }
          }
          result.append(sourcePair)
        }
      }
      if mergeFailed { result.append(pair) }
    }
    return result
  }

  // MARK: Tags

  private enum NodeKind { case scalar, sequence, mapping }

  /// Accepts the core schema's tags (and `!`); anything else is an error, because trackc would silently
  /// ignore what a custom tag is meant to say.
  private mutating func checkedTag(_ pointer: UnsafeMutablePointer<yaml_char_t>?, at start: SourcePosition, kind: NodeKind, text: String = "") -> String? {
    guard let tag = Self.string(pointer) else { return nil }
    let allowed: Bool
    switch kind {
    case .scalar: allowed = YAMLTag.scalarTags.contains(tag) || tag == YAMLTag.merge
    case .sequence: allowed = tag == YAMLTag.seq
    case .mapping: allowed = tag == YAMLTag.map
    }
    guard allowed else {
      report(YAMLTagRule.id, "tag '\(Self.shortTag(tag))' is not supported here; a trackc config uses plain YAML values", at: SourceRange(at: start))
      return nil
    }
    if kind == .scalar && !YAMLScalar.conforms(text, toTag: tag) {
      report(YAMLTagRule.id, "'\(text)' is not a valid value for tag '\(Self.shortTag(tag))'", at: SourceRange(at: start))
      return nil
    }
    return tag
  }

  private static func shortTag(_ tag: String) -> String {
    tag.hasPrefix("tag:yaml.org,2002:") ? "!!" + tag.dropFirst("tag:yaml.org,2002:".count) : tag
  }

  // MARK: Errors

  private mutating func reportParserError(_ parser: yaml_parser_t) {
    let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
    let context = parser.context.map { String(cString: $0) }
    switch parser.error {
    case YAML_MEMORY_ERROR:
      fail(YAMLSyntaxRule.id, "libyaml ran out of memory", at: .start)
    case YAML_READER_ERROR:
      let position = TextEncoding.position(ofByteOffset: parser.problem_offset, in: bytes)
      let message = YAMLSyntaxRule.readerMessage(problem: problem, value: parser.problem_value)
      fail(YAMLSyntaxRule.id, message, at: position)
    default:
      let position = Self.position(parser.problem_mark)
      let contextPosition = Self.position(parser.context_mark)
      let message = YAMLSyntaxRule.message(problem: problem, context: context, character: character(at: position))
      var notes: [Diagnostic.Note] = []
      if let context, contextPosition != position, parser.context_mark.line <= parser.problem_mark.line {
        notes.append(Diagnostic.Note(YAMLSyntaxRule.contextNote(context), at: location(contextPosition)))
      }
      fail(YAMLSyntaxRule.id, message, at: position, notes: notes)
    }
  }

  /// The character at a position, to tailor messages (a tab gets its own explanation).
  private func character(at position: SourcePosition) -> Unicode.Scalar? {
    var line = 1
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while line < position.line, index < bytes.count {
      if bytes[index] == 0x0A { line += 1 }
      index += 1
    }
    guard index < bytes.count else { return nil }
    var column = 1
    var iterator = bytes[index...].makeIterator()
    var decoder = UTF8()
    while case .scalarValue(let scalar) = decoder.decode(&iterator) {
      if column == position.column { return scalar }
      if scalar == "\n" { return nil }
      column += 1
    }
    return nil
  }

  private mutating func fail(_ rule: String, _ message: String, at position: SourcePosition, notes: [Diagnostic.Note] = []) {
    diagnostics.append(Diagnostic(.error, rule: rule, message, at: location(SourceRange(at: position)), notes: notes))
    failed = true
  }

  private mutating func report(_ rule: String, _ message: String, at range: SourceRange) {
    diagnostics.append(Diagnostic(.error, rule: rule, message, at: location(range)))
  }

  private func location(_ range: SourceRange) -> SourceLocation {
    SourceLocation(file: file, range: range)
  }

  private func location(_ position: SourcePosition) -> SourceLocation {
    SourceLocation(file: file, range: SourceRange(at: position))
  }

  // MARK: Conversions

  private static func position(_ mark: yaml_mark_t) -> SourcePosition {
    SourcePosition(line: mark.line + 1, column: mark.column + 1)
  }

  private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    guard let pointer else { return nil }
    return String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
  }

  private static func style(_ style: yaml_scalar_style_t) -> YAMLScalar.Style {
    switch style {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
    case YAML_LITERAL_SCALAR_STYLE: return .literal
    case YAML_FOLDED_SCALAR_STYLE: return .folded
    default: return .plain
    }
  }
}
