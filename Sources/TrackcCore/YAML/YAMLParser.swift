import CYAML

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Limits that keep hostile input from costing unbounded time or memory.
public struct YAMLLimits: Sendable, Hashable {
  /// Nodes that aliases may add to the document when expanded. Aliases share nodes, so this bounds the
  /// work of everything that walks the tree, which is what a "billion laughs" file attacks.
  public var maxAliasExpansion: Int = 100_000
  /// Collections nested inside each other. A trackc config needs fewer than ten levels.
  public var maxNestingDepth: Int = 100

  public init() {}
}

/// Receives the entries of chosen mappings as soon as each is complete, while the rest of the document
/// is still being parsed, so that work on the early parts of a large file can start at once.
///
/// Calls come from the parsing thread, in document order.
public protocol YAMLEntryObserver: AnyObject {
  /// Whether to report the entries of the mapping reached from the root through these keys (`[]` is
  /// the root mapping itself). Asked once, when the mapping opens.
  func observesEntries(under path: [String]) -> Bool
  /// Whether to report this entry, asked with its key's UTF-8 text before anything is done for it.
  func wantsEntry(withKey key: UnsafeBufferPointer<UInt8>, under path: [String]) -> Bool
  /// One complete entry of an observed mapping. `document` holds everything parsed so far; it stays
  /// valid, unchanged and safe to read from any thread while parsing goes on (until
  /// `snapshotsInvalidated`).
  func entryCompleted(_ pair: YAMLPair, under path: [String], in document: YAMLDocument)
  /// The document's memory is about to move (an input far denser than configs are): stop reading the
  /// snapshots handed out so far, and return only when nobody does.
  func snapshotsInvalidated()
}

public struct YAMLParseResult: Sendable {
  /// The document; nil when an error stopped the parse.
  public var document: YAMLDocument?
  public var diagnostics: [Diagnostic]
  /// True when an error stopped the parse, so there is no document.
  public var failed: Bool

  /// The document's root node; nil when the input holds no document or could not be read.
  public var root: YAMLNodeID? { document?.root }
}

/// Reads YAML through libyaml's event API and builds a node tree in which every node knows its range.
///
/// Beyond what libyaml checks, it rejects what would make a config mean something other than it says:
/// duplicate keys, unknown tags, more than one document; resolves `<<` merge keys (YAML 1.1's merge
/// type); and stops at once on aliases that expand past `YAMLLimits.maxAliasExpansion` nodes.
public enum YAMLParser {
  public static func parse(_ bytes: [UInt8], file: String, limits: YAMLLimits = YAMLLimits()) -> YAMLParseResult {
    parse(InputBytes(bytes), file: file, limits: limits)
  }

  /// Parses `input`; the document keeps it alive (its scalars may point into it).
  public static func parse(
    _ input: InputBytes, file: String, limits: YAMLLimits = YAMLLimits(), observer: (any YAMLEntryObserver)? = nil
  ) -> YAMLParseResult {
    let bytes = input.buffer
    if let problem = TextEncoding.problem(in: bytes) {
      let diagnostic = YAMLEncodingRule.diagnostic(for: problem, in: bytes, file: file)
      return YAMLParseResult(document: nil, diagnostics: [diagnostic], failed: true)
    }
    if let (offset, scalar) = TextEncoding.firstYAML11LineBreak(in: bytes) {
      let diagnostic = YAMLEncodingRule.diagnostic(forLineBreak: scalar, atByteOffset: offset, in: bytes, file: file)
      return YAMLParseResult(document: nil, diagnostics: [diagnostic], failed: true)
    }
    var builder = TreeBuilder(file: file, input: input, limits: limits, observer: observer)
    builder.run()
    return YAMLParseResult(document: builder.failed ? nil : builder.document(), diagnostics: builder.diagnostics, failed: builder.failed)
  }
}

private struct TreeBuilder {
  let file: String
  let input: InputBytes
  let bytes: UnsafeBufferPointer<UInt8>
  /// Where the text libyaml counts from (after a byte order mark), when every byte is ASCII so that its
  /// character offsets are byte offsets; nil otherwise.
  private let asciiBase: Int?
  /// The end of the last line, when the input does not end with a line break. libyaml then ends the
  /// input with a line break of its own, and puts what it finds at the end (an unclosed collection, the
  /// end of the last mapping) at the start of a line past the text; such positions are moved back here.
  private let endOfUnterminatedInput: SourcePosition?
  let limits: YAMLLimits

  var diagnostics: [Diagnostic] = []
  var failed = false

  // The arena being built (see YAMLDocument).
  private let storage: YAMLDocument.Storage
  private let nodes: ArenaBuffer<NodeRecord>
  private let text: ArenaBuffer<UInt8>
  private let children: ArenaBuffer<YAMLNodeID>
  private var tags: [String] = []
  private var root: YAMLNodeID?
  private let observer: (any YAMLEntryObserver)?
  /// Per open frame: the keys leading to it from the root while that path is short enough to observe,
  /// and whether the observer wants its entries.
  private var framePaths: [[String]?] = []
  private var frameObserved: [Bool] = []

  /// Children of the collections still open, innermost last; each frame owns the tail from its `pendingStart`.
  private var pending: [YAMLNodeID] = []
  private var stack: [Frame] = []
  /// Per open frame, kept apart from `Frame` so that frames stay plain values (copying one then costs no
  /// reference counting): the frame's anchor, and the key index of a large mapping.
  private var frameAnchors: [String?] = []
  private var keyIndexes: [[Int: YAMLNodeID]?] = []
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
    /// A mapping with more keys than a linear scan handles well gets an index of their hashes.
    static let keyIndexThreshold = 32
  }

  init(file: String, input: InputBytes, limits: YAMLLimits, observer: (any YAMLEntryObserver)?) {
    self.file = file
    self.input = input
    let bytes = input.buffer
    self.bytes = bytes
    let hasByteOrderMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
    asciiBase = bytes.dropFirst(hasByteOrderMark ? 3 : 0).allSatisfy { $0 < 0x80 } ? (hasByteOrderMark ? 3 : 0) : nil
    endOfUnterminatedInput =
      bytes.last == 0x0A || bytes.last == 0x0D ? nil : TextEncoding.position(ofByteOffset: bytes.count, in: bytes)
    self.limits = limits
    self.observer = observer
    // Configs hold about one node per 16 bytes, and most of their bytes are scalar text. With an observer
    // reading snapshots on other threads, the buffers are reserved for one node per 4 bytes instead, so
    // that they never move (untouched reserved memory costs nothing); denser input moves them, and the
    // observer is told first.
    let nodesPerByte = observer == nil ? 16 : 4
    storage = YAMLDocument.Storage(
      input: input,
      nodes: ArenaBuffer(minimumCapacity: bytes.count / nodesPerByte + 64),
      text: ArenaBuffer(minimumCapacity: bytes.count + 64),
      children: ArenaBuffer(minimumCapacity: bytes.count / nodesPerByte + 64))
    nodes = storage.nodes
    text = storage.text
    children = storage.children
    if let observer {
      var invalidated = false
      // Weakly: the observer keeps snapshots of the storage, whose buffers keep this closure; held
      // strongly, the pipeline and the whole document leaked with every streamed lint (found by
      // LeakSanitizer).
      let invalidate = { [weak observer] in
        guard !invalidated else { return }
        invalidated = true
        observer?.snapshotsInvalidated()
      }
      storage.nodes.willMove = invalidate
      storage.text.willMove = invalidate
      storage.children.willMove = invalidate
    }
  }

  func document() -> YAMLDocument {
    YAMLDocument(storage: storage, root: root, tags: tags)
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
        fail(
          MultipleDocumentsRule.id,
          "the config holds more than one YAML document; a trackc config is a single document",
          at: start,
          notes: root.map { [Diagnostic.Note("the first document starts here", at: location(nodes[$0.index].range.start))] } ?? [])
      }

    case YAML_SCALAR_EVENT:
      let data = event.pointee.data.scalar
      let style = Self.style(data.style)
      let value = UnsafeBufferPointer(start: data.value, count: data.length)
      // Most scalars are written verbatim (no escapes, no folding): their text is then the input's own
      // bytes, which need no copy. libyaml counts characters, so this is known only for ASCII input.
      var offset: Int
      var inInput = false
      if let base = asciiBase, style == .plain || style == .singleQuoted || style == .doubleQuoted {
        offset = base + Int(event.pointee.start_mark.index) + (style == .plain ? 0 : 1)
        inInput = data.length > 0 && offset + data.length <= bytes.count && memcmp(bytes.baseAddress! + offset, data.value, data.length) == 0
      } else {
        offset = 0
      }
      if !inInput {
        offset = text.count
        text.append(contentsOf: value)
      }
      let tag = checkedTag(data.tag, at: start, kind: .scalar, value: value)
      let end = position(event.pointee.end_mark)
      let node = append(
        NodeRecord(
          kind: .scalar, style: style, tag: inInput ? tag | NodeRecord.textInInput : tag, startLine: Int32(start.line),
          startColumn: Int32(start.column), endLine: Int32(end.line), endColumn: Int32(end.column), first: Int32(offset),
          count: Int32(data.length)))
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
      fail(
        NestingDepthRule.id,
        "collections are nested more than \(NumberText.grouped(limits.maxNestingDepth)) levels deep here; a trackc config needs only a few",
        at: start)
      return
    }
    if let observer {
      // The path of a mapping: its parent's path and the key this collection is the value of.
      var path: [String]?
      if stack.isEmpty {
        path = []
      } else if let parentPath = framePaths[stack.count - 1], parentPath.count < 4, stack[stack.count - 1].kind == .mapping,
        stack[stack.count - 1].awaitingValue, let key = pending.last, nodes[key.index].kind == .scalar
      {
        path = parentPath + [String(decoding: textSlice(key), as: UTF8.self)]
      }
      framePaths.append(path)
      frameObserved.append(kind == .mapping && path.map { observer.observesEntries(under: $0) } == true)
    }
    stack.append(Frame(kind: kind, start: start, tag: tag, pendingStart: pending.count))
    frameAnchors.append(anchor)
    keyIndexes.append(nil)
  }

  private mutating func close(at end: SourcePosition) {
    guard let frame = stack.popLast(), let anchor = frameAnchors.popLast() else { return }
    keyIndexes.removeLast()
    if observer != nil {
      framePaths.removeLast()
      frameObserved.removeLast()
    }
    var ownCount = pending.count - frame.pendingStart
    if frame.kind == .mapping && ownCount % 2 == 1 { ownCount -= 1 }  // a key without value cannot happen; stay safe
    let first = children.count
    if frame.kind == .mapping && frame.mergeKey != nil {
      let merged = resolveMerges(Array(pending[frame.pendingStart..<(frame.pendingStart + ownCount)]))
      merged.withUnsafeBufferPointer { children.append(contentsOf: $0) }
      ownCount = merged.count
    } else {
      pending.withUnsafeBufferPointer { children.append(contentsOf: UnsafeBufferPointer(rebasing: $0[frame.pendingStart..<(frame.pendingStart + ownCount)])) }
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
      if frameAnchors.contains(name) {
        fail(YAMLAliasRule.id, "alias '*\(name)' refers to a node that contains it; recursive aliases are not allowed", at: start)
      } else {
        fail(YAMLAliasRule.id, "alias '*\(name)' refers to no anchor; define '&\(name)' before using it", at: start)
      }
      return
    }
    aliasExpansion += anchored.weight
    guard aliasExpansion <= limits.maxAliasExpansion else {
      fail(
        YAMLAliasRule.id,
        "aliases expand to more than \(NumberText.grouped(limits.maxAliasExpansion)) nodes; the file looks like an alias bomb ('billion laughs') and is rejected",
        at: start,
        notes: [Diagnostic.Note("'&\(name)' is defined here", at: location(nodes[anchored.node.index].range.start))])
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
        if observer != nil && frameObserved[top] { reportEntry(key: pending[pending.count - 2], value: node, in: top) }
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
    } else if let first = firstKey(matching: node, hash: keyHash(node, in: top)) {
      reportDuplicateKey(node, first: first)
      // The first occurrence stays; the duplicate key and its value are dropped after the error.
      stack[top].dropValue = true
      return
    } else {
      recordKey(node, hash: keyHash(node, in: top))
    }
    pending.append(node)
  }

  /// Hands a complete entry of an observed mapping to the observer, with a snapshot of the document.
  private func reportEntry(key: YAMLNodeID, value: YAMLNodeID, in frame: Int) {
    guard let observer, let path = framePaths[frame], nodes[key.index].kind == .scalar else { return }
    guard observer.wantsEntry(withKey: textSlice(key), under: path) else { return }
    observer.entryCompleted(YAMLPair(key: key, value: value), under: path, in: document())
  }

  // MARK: Keys

  private func textSlice(_ node: YAMLNodeID) -> UnsafeBufferPointer<UInt8> {
    let record = nodes[node.index]
    let base = record.tag & NodeRecord.textInInput != 0 ? bytes.baseAddress! : UnsafePointer(text.base)
    return UnsafeBufferPointer(start: base + Int(record.first), count: Int(record.count))
  }

  private func sameText(_ a: YAMLNodeID, _ b: YAMLNodeID) -> Bool {
    let left = nodes[a.index]
    let right = nodes[b.index]
    guard left.count == right.count else { return false }
    return left.count == 0 || memcmp(textSlice(a).baseAddress!, textSlice(b).baseAddress!, Int(left.count)) == 0
  }

  private func isMergeKey(_ node: YAMLNodeID) -> Bool {
    let record = nodes[node.index]
    guard record.kind == .scalar, record.count == 2, textSlice(node).elementsEqual("<<".utf8) else { return false }
    let mergeTag = tags.firstIndex(of: YAMLTag.merge).map { UInt16($0 + 1) }
    let tag = record.tag & ~NodeRecord.textInInput
    return (record.style == .plain && tag == 0) || (mergeTag != nil && tag == mergeTag)
  }

  /// The hash of a key for a large mapping's index, nil for small mappings (which are scanned).
  /// SipHash, seeded per process: a file of keys crafted to collide cannot make the index quadratic.
  private func keyHash(_ node: YAMLNodeID, in frame: Int) -> Int? {
    guard keyIndexes[frame] != nil || (pending.count - stack[frame].pendingStart) / 2 >= Frame.keyIndexThreshold else { return nil }
    return keyHash(node)
  }

  private func keyHash(_ node: YAMLNodeID) -> Int {
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(textSlice(node)))
    return hasher.finalize()
  }

  private func firstKey(matching node: YAMLNodeID, hash: Int?) -> YAMLNodeID? {
    let top = stack.count - 1
    if let keyIndex = keyIndexes[top], let hash {
      guard let candidate = keyIndex[hash] else { return nil }
      if sameText(candidate, node) { return candidate }
      // A hash collision: fall through to the scan.
    }
    let mergeKey = stack[top].mergeKey
    var index = stack[top].pendingStart
    while index < pending.count {
      let key = pending[index]
      if nodes[key.index].kind == .scalar, key != mergeKey, sameText(key, node) { return key }
      index += 2
    }
    return nil
  }

  /// Adds a key to the innermost mapping's index, building the index once the mapping grows large.
  private mutating func recordKey(_ node: YAMLNodeID, hash: Int?) {
    let top = stack.count - 1
    guard let hash else { return }
    if keyIndexes[top] != nil {
      if keyIndexes[top]![hash] == nil { keyIndexes[top]![hash] = node }
      return
    }
    let start = stack[top].pendingStart
    guard (pending.count - start) / 2 >= Frame.keyIndexThreshold else { return }
    let mergeKey = stack[top].mergeKey
    var index: [Int: YAMLNodeID] = [:]
    index.reserveCapacity(4 * Frame.keyIndexThreshold)
    var position = start
    while position < pending.count {
      let key = pending[position]
      if nodes[key.index].kind == .scalar, key != mergeKey {
        let keyHash = keyHash(key)
        if index[keyHash] == nil { index[keyHash] = key }
      }
      position += 2
    }
    if index[hash] == nil { index[hash] = node }
    keyIndexes[top] = index
  }

  private mutating func reportDuplicateKey(_ node: YAMLNodeID, first: YAMLNodeID) {
    let name = String(decoding: textSlice(node), as: UTF8.self)
    diagnostics.append(
      Diagnostic(
        .error, rule: DuplicateKeyRule.id, "duplicate key '\(name)' in this mapping",
        at: location(nodes[node.index].range),
        notes: [Diagnostic.Note("'\(name)' is first defined here", at: location(nodes[first.index].range))]))
  }

  // MARK: Merge keys

  /// YAML 1.1 merge: `<<: *base` or `<<: [*a, *b]` adds the keys of those mappings that the mapping does
  /// not define itself; with several, earlier ones win. Merged pairs keep the ranges they were written at.
  /// `flat` is the mapping's keys and values alternating.
  private mutating func resolveMerges(_ flat: [YAMLNodeID]) -> [YAMLNodeID] {
    func key(_ node: YAMLNodeID) -> [UInt8]? {
      nodes[node.index].kind == .scalar ? Array(textSlice(node)) : nil
    }
    var explicitKeys = Set<[UInt8]>()
    for index in stride(from: 0, to: flat.count, by: 2) where !isMergeKey(flat[index]) {
      if let text = key(flat[index]) { explicitKeys.insert(text) }
    }
    var result: [YAMLNodeID] = []
    var merged = Set<[UInt8]>()
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
        sources = (Int(valueRecord.first)..<Int(valueRecord.first + valueRecord.count)).map { children[$0] }
      case .scalar:
        report(MergeKeyRule.id, "the value of a merge key '<<' must be a mapping or a list of mappings, found \(describeKind(pairValue))", at: valueRecord.range)
        // Kept, so the mapping still shows that something was written here; readers skip merge keys.
        result += [pairKey, pairValue]
        continue
      }
      var mergeFailed = false
      for source in sources {
        let record = nodes[source.index]
        guard record.kind == .mapping else {
          report(MergeKeyRule.id, "a merge key '<<' can only merge mappings, found \(describeKind(source))", at: record.range)
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

  private func describeKind(_ node: YAMLNodeID) -> String {
    switch nodes[node.index].kind {
    case .sequence: return "a sequence"
    case .mapping: return "a mapping"
    case .scalar:
      let record = nodes[node.index]
      let value = YAMLScalar(String(decoding: textSlice(node), as: UTF8.self), style: record.style)
        .resolved(tag: record.tag & ~NodeRecord.textInInput == 0 ? nil : tags[Int(record.tag & ~NodeRecord.textInInput) - 1])
      return value.kindDescription
    }
  }

  // MARK: Tags

  /// Accepts the core schema's tags (and `!`); anything else is an error, because trackc would silently
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
      report(YAMLTagRule.id, "tag '\(Self.shortTag(tag))' is not supported here; a trackc config uses plain YAML values", at: SourceRange(at: start))
      return 0
    }
    if kind == .scalar {
      let value = String(decoding: value, as: UTF8.self)
      guard YAMLScalar.conforms(value, toTag: tag) else {
        report(YAMLTagRule.id, "'\(value)' is not a valid value for tag '\(Self.shortTag(tag))'", at: SourceRange(at: start))
        return 0
      }
    }
    if let index = tags.firstIndex(of: tag) { return UInt16(index + 1) }
    guard tags.count < Int(NodeRecord.textInInput) - 1 else { return 0 }
    tags.append(tag)
    return UInt16(tags.count)
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
      let problemPosition = position(parser.problem_mark)
      let contextPosition = position(parser.context_mark)
      let message = YAMLSyntaxRule.message(problem: problem, context: context, character: character(at: problemPosition))
      var notes: [Diagnostic.Note] = []
      if let context, contextPosition != problemPosition, parser.context_mark.line <= parser.problem_mark.line {
        notes.append(Diagnostic.Note(YAMLSyntaxRule.contextNote(context), at: location(contextPosition)))
      }
      fail(YAMLSyntaxRule.id, message, at: problemPosition, notes: notes)
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
