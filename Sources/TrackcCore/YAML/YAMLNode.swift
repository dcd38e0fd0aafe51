/// A node of a parsed YAML document, with the exact range it was read from.
///
/// Nodes are immutable and shared: an alias refers to the anchored node itself, never a copy, so a file
/// that reuses an anchor many times costs no more memory than one that does not.
public final class YAMLNode: Sendable {
  public enum Content: Sendable {
    case scalar(YAMLScalar)
    case sequence([YAMLNode])
    case mapping([Pair])
  }

  public struct Pair: Sendable {
    public let key: YAMLNode
    public let value: YAMLNode

    public init(key: YAMLNode, value: YAMLNode) {
      self.key = key
      self.value = value
    }
  }

  public let content: Content
  public let range: SourceRange
  /// The explicit tag, resolved to its full form (`tag:yaml.org,2002:str`), or nil when none was written.
  public let tag: String?

  public init(_ content: Content, range: SourceRange, tag: String? = nil) {
    self.content = content
    self.range = range
    self.tag = tag
  }

  public var scalar: YAMLScalar? {
    if case .scalar(let scalar) = content { return scalar }
    return nil
  }

  public var mapping: [Pair]? {
    if case .mapping(let pairs) = content { return pairs }
    return nil
  }

  public var sequence: [YAMLNode]? {
    if case .sequence(let items) = content { return items }
    return nil
  }

  /// A `<<` merge key (plain and untagged, or tagged `!!merge`); a quoted "<<" is an ordinary key.
  /// After parsing, a merge key is left in a mapping only where its merge failed (and was reported).
  public var isMergeKey: Bool {
    guard let scalar, scalar.text == "<<" else { return false }
    return (scalar.style == .plain && tag == nil) || tag == YAMLTag.merge
  }

  /// The value of the node under YAML 1.2's core schema (so `yes` and `on` stay strings).
  public var value: YAMLValue {
    switch content {
    case .scalar(let scalar): return scalar.resolved(tag: tag)
    case .sequence: return .sequence
    case .mapping: return .mapping
    }
  }
}

public struct YAMLScalar: Sendable, Hashable {
  public enum Style: Sendable, Hashable {
    case plain, singleQuoted, doubleQuoted, literal, folded
  }

  public let text: String
  public let style: Style

  public init(_ text: String, style: Style = .plain) {
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
