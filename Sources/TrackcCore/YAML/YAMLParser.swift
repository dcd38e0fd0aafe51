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
  /// The document; nil when a problem stopped the parse.
  public var document: YAMLDocument?
  /// Everything found wrong, in the order it was found.
  public var problems: [YAMLProblem]
  /// True when a problem stopped the parse, so there is no document.
  public var failed: Bool

  /// The document's root node; nil when the input holds no document or could not be read.
  public var root: YAMLNodeID? { document?.root }
}

/// Reads YAML through libyaml's event API and builds a node tree in which every node knows its range.
///
/// Beyond what libyaml checks, it rejects what would make a config mean something other than it says:
/// duplicate keys, unknown tags, more than one document; resolves `<<` merge keys (YAML 1.1's merge
/// type); and stops at once on aliases that expand past `YAMLLimits.maxAliasExpansion` nodes. It reports
/// typed `YAMLProblem`s and knows nothing of trackc's rules.
public enum YAMLParser {
  public static func parse(_ bytes: [UInt8], limits: YAMLLimits = YAMLLimits()) -> YAMLParseResult {
    bytes.withUnsafeBufferPointer { parse($0, limits: limits) }
  }

  public static func parse(_ input: InputBytes, limits: YAMLLimits = YAMLLimits()) -> YAMLParseResult {
    parse(input.buffer, limits: limits)
  }

  /// Parses `bytes`; the document copies what it keeps, so the bytes need not outlive the call.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: YAMLLimits = YAMLLimits()) -> YAMLParseResult {
    if let problem = TextEncoding.problem(in: bytes) {
      let position: SourcePosition
      if case .invalidUTF8(let offset, _) = problem {
        position = TextEncoding.position(ofByteOffset: offset, in: bytes)
      } else {
        position = .start
      }
      return YAMLParseResult(document: nil, problems: [.encoding(problem, at: position)], failed: true)
    }
    if let (offset, scalar) = TextEncoding.firstYAML11LineBreak(in: bytes) {
      let position = TextEncoding.position(ofByteOffset: offset, in: bytes)
      return YAMLParseResult(document: nil, problems: [.yaml11LineBreak(scalar, at: position)], failed: true)
    }
    var builder = TreeBuilder(bytes: bytes, limits: limits)
    builder.run()
    return YAMLParseResult(document: builder.failed ? nil : builder.document(), problems: builder.problems, failed: builder.failed)
  }
}

private struct TreeBuilder {
  let bytes: UnsafeBufferPointer<UInt8>
  let limits: YAMLLimits
  /// The end of the last line, when the input does not end with a line break. libyaml then ends the
  /// input with a line break of its own, and puts what it finds at the end (an unclosed collection, the
  /// end of the last mapping) at the start of a line past the text; such positions are moved back here.
  private let endOfUnterminatedInput: SourcePosition?

  var problems: [YAMLProblem] = []
  var failed = false

  // The document being built (see YAMLDocument).
  private var nodes: [NodeRecord] = []
  private var text: [UInt8] = []
  private var children: [YAMLNodeID] = []
  private var tags: [String] = []
  private var root: YAMLNodeID?

  /// Children of the collections still open, innermost last; each frame owns the tail from its `pendingStart`.
  private var pending: [YAMLNodeID] = []
  private var stack: [Frame] = []
  /// Per open frame, kept apart from `Frame` so that frames stay plain values: the frame's anchor, and
  /// the key index of a large mapping.
  private var frameAnchors: [String?] = []
  private var keyIndexes: [[String: YAMLNodeID]?] = []
  private var anchors: [String: Anchored] = [:]
  private var aliasExpansion = 0
  private var documentCount = 0

  private struct Anchored {
    let node: YAMLNodeID
    /// Nodes in the expansion of `node`, counting what its own aliases expand to.
    let weight: Int
  }

  private struct Frame {
    let kind: YAMLNodeKind
    let start: SourcePosition
    let tag: UInt16
    let pendingStart: Int
    var weight = 1
    /// The `<<` key, when the mapping merges others in.
    var mergeKey: YAMLNodeID?
    /// A mapping has read a key and waits for its value.
    var awaitingValue = false
    /// The pending value belongs to a duplicate key and is dropped.
    var dropValue = false
  }

  /// Mappings with more keys than this find duplicates through a dictionary of their keys; smaller ones
  /// (nearly all of a config's: a screen's handlers are tens at most) compare with each key, which
  /// allocates nothing.
  private static let keyIndexThreshold = 32

  init(bytes: UnsafeBufferPointer<UInt8>, limits: YAMLLimits) {
    self.bytes = bytes
    self.limits = limits
    endOfUnterminatedInput =
      bytes.last == 0x0A || bytes.last == 0x0D ? nil : TextEncoding.position(ofByteOffset: bytes.count, in: bytes)
    // Configs hold about one node per 16 bytes, and most of their bytes are scalar text.
    nodes.reserveCapacity(bytes.count / 16 + 16)
    children.reserveCapacity(bytes.count / 16 + 16)
    text.reserveCapacity(bytes.count)
  }

  func document() -> YAMLDocument {
    YAMLDocument(nodes: nodes, text: text, children: children, root: root, tags: tags)
  }

  mutating func run() {
    let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    let event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
    defer {
      parser.deallocate()
      event.deallocate()
    }
    guard yaml_parser_initialize(parser) != 0 else {
      fail(.outOfMemory(whileInitialising: true))
      return
    }
    defer { yaml_parser_delete(parser) }

    // libyaml keeps pointers to the input and to the parser itself; both stay put until the end.
    var empty: UInt8 = 0
    withUnsafePointer(to: &empty) { emptyInput in
      yaml_parser_set_input_string(parser, bytes.baseAddress ?? emptyInput, bytes.count)
      while !failed {
        guard yaml_parser_parse(parser, event) != 0 else {
          reportParserError(parser.pointee)
          return
        }
        let isEnd = event.pointee.type == YAML_STREAM_END_EVENT
        handle(event)
        yaml_event_delete(event)
        if isEnd { return }
      }
    }
  }

  // MARK: Events

  private mutating func handle(_ event: UnsafeMutablePointer<yaml_event_t>) {
    let start = position(event.pointee.start_mark)
    switch event.pointee.type {
    case YAML_DOCUMENT_START_EVENT:
      documentCount += 1
      if documentCount > 1 {
        fail(.multipleDocuments(at: start, firstDocument: root.map { nodes[$0.index].range.start }))
      }

    case YAML_SCALAR_EVENT:
      let data = event.pointee.data.scalar
      let value = UnsafeBufferPointer(start: data.value, count: data.length)
      let offset = text.count
      text.append(contentsOf: value)
      let tag = checkedTag(data.tag, at: start, kind: .scalar, value: value)
      let end = position(event.pointee.end_mark)
      let node = append(
        NodeRecord(
          kind: .scalar, style: Self.style(data.style), tag: tag, startLine: Int32(start.line), startColumn: Int32(start.column),
          endLine: Int32(end.line), endColumn: Int32(end.column), first: Int32(offset), count: Int32(data.length)))
      complete(node, weight: 1, anchor: Self.string(data.anchor))

    case YAML_SEQUENCE_START_EVENT:
      let data = event.pointee.data.sequence_start
      open(.sequence, at: start, anchor: Self.string(data.anchor), tag: checkedTag(data.tag, at: start, kind: .sequence))

    case YAML_MAPPING_START_EVENT:
      let data = event.pointee.data.mapping_start
      open(.mapping, at: start, anchor: Self.string(data.anchor), tag: checkedTag(data.tag, at: start, kind: .mapping))

    case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
      close(at: position(event.pointee.end_mark))

    case YAML_ALIAS_EVENT:
      let name = Self.string(event.pointee.data.alias.anchor) ?? ""
      alias(name, at: start)

    default:
      break  // stream start/end, document end: nothing to build
    }
  }

  private mutating func append(_ record: NodeRecord) -> YAMLNodeID {
    nodes.append(record)
    return YAMLNodeID(rawValue: Int32(nodes.count - 1))
  }

  private mutating func open(_ kind: YAMLNodeKind, at start: SourcePosition, anchor: String?, tag: UInt16) {
    guard stack.count < limits.maxNestingDepth else {
      fail(.nestingTooDeep(limit: limits.maxNestingDepth, at: start))
      return
    }
    stack.append(Frame(kind: kind, start: start, tag: tag, pendingStart: pending.count))
    frameAnchors.append(anchor)
    keyIndexes.append(nil)
  }

  private mutating func close(at end: SourcePosition) {
    guard let frame = stack.popLast(), let anchor = frameAnchors.popLast() else { return }
    keyIndexes.removeLast()
    var ownCount = pending.count - frame.pendingStart
    if frame.kind == .mapping && ownCount % 2 == 1 { ownCount -= 1 }  // a key without value cannot happen; stay safe
    let first = children.count
    // No slice of `pending` may outlive these statements: one alive at `removeLast` would make the
    // array copy itself on every close.
    if frame.kind == .mapping && frame.mergeKey != nil {
      let merged = resolveMerges(Array(pending[frame.pendingStart..<(frame.pendingStart + ownCount)]))
      children.append(contentsOf: merged)
      ownCount = merged.count
    } else {
      children.append(contentsOf: pending[frame.pendingStart..<(frame.pendingStart + ownCount)])
    }
    pending.removeLast(pending.count - frame.pendingStart)
    let node = append(
      NodeRecord(
        kind: frame.kind, style: .plain, tag: frame.tag, startLine: Int32(frame.start.line), startColumn: Int32(frame.start.column),
        endLine: Int32(end.line), endColumn: Int32(end.column), first: Int32(first),
        count: Int32(frame.kind == .mapping ? ownCount / 2 : ownCount)))
    complete(node, weight: frame.weight, anchor: anchor)
  }

  private mutating func alias(_ name: String, at start: SourcePosition) {
    guard let anchored = anchors[name] else {
      fail(frameAnchors.contains(name) ? .recursiveAlias(name, at: start) : .undefinedAlias(name, at: start))
      return
    }
    aliasExpansion += anchored.weight
    guard aliasExpansion <= limits.maxAliasExpansion else {
      fail(
        .aliasExpansionTooLarge(
          anchor: name, limit: limits.maxAliasExpansion, at: start, anchorAt: nodes[anchored.node.index].range.start))
      return
    }
    // The alias is the anchored node itself: no copy, no new anchor.
    add(anchored.node, weight: anchored.weight)
  }

  /// A finished node: register its anchor, then hand it to the enclosing collection (or make it the root).
  private mutating func complete(_ node: YAMLNodeID, weight: Int, anchor: String?) {
    if let anchor { anchors[anchor] = Anchored(node: node, weight: weight) }
    add(node, weight: weight)
  }

  private mutating func add(_ node: YAMLNodeID, weight: Int) {
    guard !stack.isEmpty else {
      if root == nil { root = node }
      return
    }
    let top = stack.count - 1
    stack[top].weight += weight
    addToCollection(node, top: top)
  }

  private mutating func addToCollection(_ node: YAMLNodeID, top: Int) {
    guard stack[top].kind == .mapping else {
      pending.append(node)
      return
    }
    if stack[top].awaitingValue {
      stack[top].awaitingValue = false
      if stack[top].dropValue {
        stack[top].dropValue = false
      } else {
        pending.append(node)
      }
      return
    }
    stack[top].awaitingValue = true
    guard nodes[node.index].kind == .scalar else {
      pending.append(node)
      return
    }
    if isMergeKey(node) {
      if let first = stack[top].mergeKey {
        reportDuplicateKey(node, first: first)
        stack[top].dropValue = true
        return
      }
      stack[top].mergeKey = node
    } else if let first = firstKey(matchingOrRecording: node) {
      reportDuplicateKey(node, first: first)
      // The first occurrence stays; the duplicate key and its value are dropped after the error.
      stack[top].dropValue = true
      return
    }
    pending.append(node)
  }

  // MARK: Keys

  private func scalarText(_ node: YAMLNodeID) -> ArraySlice<UInt8> {
    let record = nodes[node.index]
    return text[Int(record.first)..<Int(record.first + record.count)]
  }

  private func string(_ node: YAMLNodeID) -> String {
    String(decoding: scalarText(node), as: UTF8.self)
  }

  private func isMergeKey(_ node: YAMLNodeID) -> Bool {
    let record = nodes[node.index]
    guard record.kind == .scalar, record.count == 2, scalarText(node).elementsEqual("<<".utf8) else { return false }
    let mergeTag = tags.firstIndex(of: YAMLTag.merge).map { UInt16($0 + 1) }
    return (record.style == .plain && record.tag == 0) || (mergeTag != nil && record.tag == mergeTag)
  }

  /// Checks a scalar key against the innermost mapping's earlier keys: the earlier key with the same
  /// text, or nil after recording this one.
  private mutating func firstKey(matchingOrRecording node: YAMLNodeID) -> YAMLNodeID? {
    let top = stack.count - 1
    if keyIndexes[top] != nil {
      let key = string(node)
      // One hash for the common case, a new key; a duplicate (rare) puts the first one back.
      guard let first = keyIndexes[top]!.updateValue(node, forKey: key) else { return nil }
      keyIndexes[top]![key] = first
      return first
    }
    let mergeKey = stack[top].mergeKey
    let found: YAMLNodeID? = text.withUnsafeBufferPointer { text in
      let record = nodes[node.index]
      let bytes = UnsafeBufferPointer(rebasing: text[Int(record.first)..<Int(record.first + record.count)])
      var index = stack[top].pendingStart
      while index < pending.count {
        let key = pending[index]
        let candidate = nodes[key.index]
        if candidate.kind == .scalar, candidate.count == record.count, key != mergeKey,
          bytes.elementsEqual(UnsafeBufferPointer(rebasing: text[Int(candidate.first)..<Int(candidate.first + candidate.count)]))
        {
          return key
        }
        index += 2
      }
      return nil
    }
    if found == nil, (pending.count - stack[top].pendingStart) / 2 + 1 >= Self.keyIndexThreshold {
      // The mapping has grown large: index its keys from now on.
      var index: [String: YAMLNodeID] = [:]
      var position = stack[top].pendingStart
      while position < pending.count {
        let key = pending[position]
        if nodes[key.index].kind == .scalar, key != mergeKey { index[string(key)] = key }
        position += 2
      }
      index[string(node)] = node
      keyIndexes[top] = index
    }
    return found
  }

  private mutating func reportDuplicateKey(_ node: YAMLNodeID, first: YAMLNodeID) {
    problems.append(.duplicateKey(string(node), at: nodes[node.index].range, first: nodes[first.index].range))
  }

  // MARK: Merge keys

  /// YAML 1.1 merge: `<<: *base` or `<<: [*a, *b]` adds the keys of those mappings that the mapping does
  /// not define itself; with several, earlier ones win. Merged pairs keep the ranges they were written at.
  /// `flat` is the mapping's keys and values alternating.
  private mutating func resolveMerges(_ flat: [YAMLNodeID]) -> [YAMLNodeID] {
    func key(_ node: YAMLNodeID) -> ArraySlice<UInt8>? {
      nodes[node.index].kind == .scalar ? scalarText(node) : nil
    }
    var explicitKeys = Set<ArraySlice<UInt8>>()
    for index in stride(from: 0, to: flat.count, by: 2) where !isMergeKey(flat[index]) {
      if let text = key(flat[index]) { explicitKeys.insert(text) }
    }
    var result: [YAMLNodeID] = []
    var merged = Set<ArraySlice<UInt8>>()
    for index in stride(from: 0, to: flat.count, by: 2) {
      let (pairKey, pairValue) = (flat[index], flat[index + 1])
      guard isMergeKey(pairKey) else {
        result += [pairKey, pairValue]
        continue
      }
      let sources: [YAMLNodeID]
      let valueRecord = nodes[pairValue.index]
      switch valueRecord.kind {
      case .mapping:
        sources = [pairValue]
      case .sequence:
        sources = Array(children[Int(valueRecord.first)..<Int(valueRecord.first + valueRecord.count)])
      case .scalar:
        problems.append(.mergeValueNotMapping(found: value(of: pairValue), at: valueRecord.range))
        // Kept, so the mapping still shows that something was written here; readers skip merge keys.
        result += [pairKey, pairValue]
        continue
      }
      var mergeFailed = false
      for source in sources {
        let record = nodes[source.index]
        guard record.kind == .mapping else {
          problems.append(.mergeSourceNotMapping(found: value(of: source), at: record.range))
          mergeFailed = true
          continue
        }
        for position in 0..<Int(record.count) {
          let sourceKey = children[Int(record.first) + 2 * position]
          if let text = key(sourceKey) {
            if explicitKeys.contains(text) { continue }
            guard merged.insert(text).inserted else { continue }
          }
          result += [sourceKey, children[Int(record.first) + 2 * position + 1]]
        }
      }
      if mergeFailed { result += [pairKey, pairValue] }
    }
    return result
  }

  /// What a node holds, as the document will resolve it (for describing it in problems).
  private func value(of node: YAMLNodeID) -> YAMLValue {
    let record = nodes[node.index]
    switch record.kind {
    case .sequence: return .sequence
    case .mapping: return .mapping
    case .scalar:
      return YAMLScalar(string(node), style: record.style).resolved(tag: record.tag == 0 ? nil : tags[Int(record.tag) - 1])
    }
  }

  // MARK: Tags

  /// Accepts the core schema's tags (and `!`); anything else is a problem, because trackc would silently
  /// ignore what a custom tag is meant to say. Returns the tag's index (0 for none).
  private mutating func checkedTag(
    _ pointer: UnsafeMutablePointer<yaml_char_t>?, at start: SourcePosition, kind: YAMLNodeKind,
    value: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
  ) -> UInt16 {
    guard let tag = Self.string(pointer) else { return 0 }
    let allowed: Bool
    switch kind {
    case .scalar: allowed = YAMLTag.scalarTags.contains(tag) || tag == YAMLTag.merge
    case .sequence: allowed = tag == YAMLTag.seq
    case .mapping: allowed = tag == YAMLTag.map
    }
    guard allowed else {
      problems.append(.unsupportedTag(tag, at: start))
      return 0
    }
    if kind == .scalar {
      let value = String(decoding: value, as: UTF8.self)
      guard YAMLScalar.conforms(value, toTag: tag) else {
        problems.append(.invalidTaggedValue(value: value, tag: tag, at: start))
        return 0
      }
    }
    if let index = tags.firstIndex(of: tag) { return UInt16(index + 1) }
    guard tags.count < Int(UInt16.max) - 1 else { return 0 }
    tags.append(tag)
    return UInt16(tags.count)
  }

  // MARK: Errors

  private mutating func reportParserError(_ parser: yaml_parser_t) {
    let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
    let context = parser.context.map { String(cString: $0) }
    switch parser.error {
    case YAML_MEMORY_ERROR:
      fail(.outOfMemory(whileInitialising: false))
    case YAML_READER_ERROR:
      let position = TextEncoding.position(ofByteOffset: parser.problem_offset, in: bytes)
      fail(.forbiddenCharacter(problem: problem, code: parser.problem_value, at: position))
    default:
      let problemPosition = position(parser.problem_mark)
      let contextPosition = position(parser.context_mark)
      let showsContext = context != nil && contextPosition != problemPosition && parser.context_mark.line <= parser.problem_mark.line
      fail(
        .syntax(
          problem: problem, context: context, at: problemPosition, character: character(at: problemPosition),
          contextAt: showsContext ? contextPosition : nil))
    }
  }

  /// The character at a position, to tailor messages (a tab gets its own explanation).
  private func character(at position: SourcePosition) -> Unicode.Scalar? {
    var line = 1
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while line < position.line, index < bytes.count {
      // A line ends at `\n`, or at a `\r` not followed by one (as libyaml counts).
      if bytes[index] == 0x0A || (bytes[index] == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A)) { line += 1 }
      index += 1
    }
    guard index < bytes.count else { return nil }
    var column = 1
    var iterator = bytes[index...].makeIterator()
    var decoder = UTF8()
    while case .scalarValue(let scalar) = decoder.decode(&iterator) {
      if column == position.column { return scalar }
      if scalar == "\n" || scalar == "\r" { return nil }
      column += 1
    }
    return nil
  }

  private mutating func fail(_ problem: YAMLProblem) {
    problems.append(problem)
    failed = true
  }

  // MARK: Conversions

  private func position(_ mark: yaml_mark_t) -> SourcePosition {
    let position = SourcePosition(line: mark.line + 1, column: mark.column + 1)
    if let end = endOfUnterminatedInput, end < position { return end }
    return position
  }

  private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    guard let pointer else { return nil }
    return String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
  }

  private static func style(_ style: yaml_scalar_style_t) -> YAMLScalarStyle {
    switch style {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
    case YAML_LITERAL_SCALAR_STYLE: return .literal
    case YAML_FOLDED_SCALAR_STYLE: return .folded
    default: return .plain
    }
  }
}
