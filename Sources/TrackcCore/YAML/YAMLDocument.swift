/// A parsed YAML document: every node with the exact range it was read from.
///
/// The nodes live in flat arrays and are named by `YAMLNodeID`s: no object per node, and an alias is
/// simply the ID of the anchored node, so a file that reuses an anchor many times costs no more memory
/// than one that does not. The document is immutable, so any number of threads may read it.
public struct YAMLDocument: Sendable {
  /// Every node, each collection after its children.
  let nodes: [NodeRecord]
  /// Scalar text, UTF-8, one scalar after another.
  let text: [UInt8]
  /// Sequence items, and mapping keys and values alternating, each collection's contiguous.
  let children: [YAMLNodeID]
  /// The document's root node; nil when the input holds no document.
  public let root: YAMLNodeID?
  private let tags: [String]

  init(nodes: [NodeRecord], text: [UInt8], children: [YAMLNodeID], root: YAMLNodeID?, tags: [String]) {
    self.nodes = nodes
    self.text = text
    self.children = children
    self.root = root
    self.tags = tags
  }

  @inline(__always)
  func record(_ node: YAMLNodeID) -> NodeRecord {
    precondition(node.index >= 0 && node.index < nodes.count, "node from another document")
    return nodes[node.index]
  }

  @inline(__always)
  func child(_ index: Int) -> YAMLNodeID { children[index] }

  // MARK: Reading nodes

  public func kind(_ node: YAMLNodeID) -> YAMLNodeKind { record(node).kind }

  public func range(_ node: YAMLNodeID) -> SourceRange { record(node).range }

  /// The explicit tag in full form (`tag:yaml.org,2002:str`), or nil when none was written.
  public func tag(_ node: YAMLNodeID) -> String? {
    let tag = Int(record(node).tag)
    return tag == 0 || tag > tags.count ? nil : tags[tag - 1]
  }

  public func style(_ node: YAMLNodeID) -> YAMLScalarStyle { record(node).style }

  /// The text of a scalar ("" for a collection).
  public func text(_ node: YAMLNodeID) -> String {
    withText(node) { String(decoding: $0, as: UTF8.self) }
  }

  /// The UTF-8 bytes of a scalar, without making a `String`.
  public func withText<Result>(_ node: YAMLNodeID, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    let record = record(node)
    guard record.kind == .scalar else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
    return try text.withUnsafeBufferPointer { all in
      try body(UnsafeBufferPointer(rebasing: all[Int(record.first)..<Int(record.first + record.count)]))
    }
  }

  /// Whether a node is a scalar whose text is `string`, compared byte for byte.
  public func textEquals(_ node: YAMLNodeID, _ string: String) -> Bool {
    let record = record(node)
    guard record.kind == .scalar, Int(record.count) == string.utf8.count else { return false }
    return withText(node) { bytes in bytes.elementsEqual(string.utf8) }
  }

  /// The node's value under YAML 1.2's core schema (so `yes` and `on` stay strings).
  public func value(_ node: YAMLNodeID) -> YAMLValue {
    switch kind(node) {
    case .sequence: return .sequence
    case .mapping: return .mapping
    case .scalar:
      let style = style(node)
      let tag = tag(node)
      // Most scalars in a config are names and IDs: skip resolution when the first byte rules it out.
      if tag == nil, style == .plain, let first = withText(node, { $0.first }), !YAMLScalar.mayResolve(first) {
        return .string(text(node))
      }
      return YAMLScalar(text(node), style: style).resolved(tag: tag)
    }
  }

  /// The text of a scalar that resolves to a string; nil for anything else.
  public func stringValue(_ node: YAMLNodeID) -> String? {
    if case .string(let string) = value(node) { return string }
    return nil
  }

  public func isNull(_ node: YAMLNodeID) -> Bool {
    if case .null = value(node) { return true }
    return false
  }

  /// A `<<` merge key (plain and untagged, or tagged `!!merge`); a quoted "<<" is an ordinary key.
  /// After parsing, a merge key is left in a mapping only where its merge failed (and was reported).
  public func isMergeKey(_ node: YAMLNodeID) -> Bool {
    guard textEquals(node, "<<") else { return false }
    let tag = tag(node)
    return (style(node) == .plain && tag == nil) || tag == YAMLTag.merge
  }

  /// The key/value pairs of a mapping; empty for anything else.
  public func pairs(_ node: YAMLNodeID) -> YAMLPairs {
    let record = record(node)
    guard record.kind == .mapping else { return noPairs }
    return YAMLPairs(nodes: YAMLItems(document: self, offset: Int(record.first), count: 2 * Int(record.count)))
  }

  /// An empty collection of pairs.
  public var noPairs: YAMLPairs { YAMLPairs(nodes: YAMLItems(document: self, offset: 0, count: 0)) }

  /// The items of a sequence; empty for anything else.
  public func items(_ node: YAMLNodeID) -> YAMLItems {
    let record = record(node)
    guard record.kind == .sequence else { return YAMLItems(document: self, offset: 0, count: 0) }
    return YAMLItems(document: self, offset: Int(record.first), count: Int(record.count))
  }

  /// How many nodes the document holds (aliases not counted twice).
  public var nodeCount: Int { nodes.count }
}

public struct YAMLNodeID: Hashable, Sendable, BitwiseCopyable {
  let rawValue: Int32
  var index: Int { Int(rawValue) }
}

public enum YAMLNodeKind: UInt8, Sendable, BitwiseCopyable {
  case scalar, sequence, mapping
}

public enum YAMLScalarStyle: UInt8, Sendable, Hashable, BitwiseCopyable {
  case plain, singleQuoted, doubleQuoted, literal, folded
}

public struct YAMLPair: Sendable, Hashable {
  public let key: YAMLNodeID
  public let value: YAMLNodeID
}

/// A mapping's pairs, read from its child nodes: each key is followed by its value.
public struct YAMLPairs: RandomAccessCollection, Sendable {
  let nodes: YAMLItems

  public var count: Int { nodes.count / 2 }
  public var startIndex: Int { 0 }
  public var endIndex: Int { count }

  public subscript(position: Int) -> YAMLPair {
    precondition(position >= 0 && position < count, "pair index out of range")
    return YAMLPair(key: nodes[2 * position], value: nodes[2 * position + 1])
  }
}

public struct YAMLItems: RandomAccessCollection, Sendable {
  let document: YAMLDocument
  let offset: Int
  public let count: Int

  public var startIndex: Int { 0 }
  public var endIndex: Int { count }

  public subscript(position: Int) -> YAMLNodeID {
    precondition(position >= 0 && position < count, "item index out of range")
    return document.child(offset + position)
  }
}

/// One node: 32 bytes, no references.
struct NodeRecord: BitwiseCopyable {
  var kind: YAMLNodeKind
  var style: YAMLScalarStyle
  /// 0 for no tag, otherwise 1 + an index into the document's tags.
  var tag: UInt16
  var startLine: Int32
  var startColumn: Int32
  var endLine: Int32
  var endColumn: Int32
  /// Scalar: offset of its text. Collection: offset of its children.
  var first: Int32
  /// Scalar: its length in bytes. Sequence: its items. Mapping: its pairs.
  var count: Int32

  var range: SourceRange {
    SourceRange(
      start: SourcePosition(line: Int(startLine), column: Int(startColumn)),
      end: SourcePosition(line: Int(endLine), column: Int(endColumn)))
  }
}

/// A scalar's text and how it was written.
public struct YAMLScalar: Sendable, Hashable {
  public let text: String
  public let style: YAMLScalarStyle

  public init(_ text: String, style: YAMLScalarStyle = .plain) {
    self.text = text
    self.style = style
  }
}

/// What a node holds once its scalar is resolved: the types a config can ask for.
public enum YAMLValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case int(Int)
  case float(Double)
  case string(String)
  case sequence
  case mapping

  /// Words for messages: "a string", "a mapping", ...
  public var kindDescription: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .int: return "an integer"
    case .float: return "a number"
    case .string: return "a string"
    case .sequence: return "a sequence"
    case .mapping: return "a mapping"
    }
  }
}

public enum YAMLTag {
  public static let string = "tag:yaml.org,2002:str"
  public static let int = "tag:yaml.org,2002:int"
  public static let float = "tag:yaml.org,2002:float"
  public static let bool = "tag:yaml.org,2002:bool"
  public static let null = "tag:yaml.org,2002:null"
  public static let map = "tag:yaml.org,2002:map"
  public static let seq = "tag:yaml.org,2002:seq"
  public static let merge = "tag:yaml.org,2002:merge"
  /// The non-specific tag `!`: the scalar is a string whatever it looks like.
  public static let nonSpecific = "!"

  static let scalarTags: Set<String> = [string, int, float, bool, null, nonSpecific]
}
