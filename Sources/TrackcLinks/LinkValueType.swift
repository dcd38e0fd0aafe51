/// The parameter types a link pattern may declare (`{id:int}`), by the kinds of value each accepts.
/// Enumerations (`{tab:enum(reviews|specs)}`) are not here: they accept listed values, not kinds.
public enum LinkValueType: String, Sendable, Hashable, CaseIterable {
  /// ASCII digits, no sign, that fit `Int`.
  case int
  /// ASCII digits that fit `Int64`.
  case int64
  /// Non-empty text without control characters (bounded by `LinkLimits.maximumValueBytes`).
  case string
  /// ASCII letters, digits, `-` and `_`.
  case slug
  /// A UUID in canonical form (8-4-4-4-12 hexadecimal digits, either case).
  case uuid
  /// The rest of the path, one or more segments; only last.
  case path
  /// An absolute `https` URL whose host is on the plan's allowlist (`acceptsURL`).
  case url

  /// The kinds of value the type accepts: all values of these, none of any other.
  public var accepted: SegmentKinds {
    switch self {
    case .int: return [.int]
    case .int64: return [.int, .int64]
    case .string: return .nonEmptyText
    case .slug: return [.int, .int64, .digits, .uuid, .slug]
    case .uuid: return [.uuid]
    case .path: return SegmentKinds.nonEmptyText.union(.empty)
    // An absolute URL has a ':' and '/', which no slug has.
    case .url: return [.text]
    }
  }
}

extension LinkValueType {
  /// Whether `text` is a `url` value: an `https` link, read by the link rules (`ParsedLink`), whose host
  /// is one of `hosts` (lower case). The linter checks defaults with it and the app reads values with
  /// it, so that no value can send the app to a site the plan does not name (an open redirect).
  public static func acceptsURL(_ text: String, allowing hosts: Set<String>) -> Bool {
    guard SegmentKind.of(text) == .text, case .success(let link) = ParsedLink.parse(text, rules: LinkRules()), link.isSecure,
      let host = link.hostText
    else { return false }
    return hosts.contains(host)
  }
}

/// A set of `SegmentKind`s, one bit each.
public struct SegmentKinds: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public init(_ kind: SegmentKind) { rawValue = 1 << kind.rawValue }

  public static let int = SegmentKinds(.int)
  public static let int64 = SegmentKinds(.int64)
  public static let digits = SegmentKinds(.digits)
  public static let uuid = SegmentKinds(.uuid)
  public static let slug = SegmentKinds(.slug)
  public static let text = SegmentKinds(.text)
  public static let empty = SegmentKinds(.empty)
  public static let control = SegmentKinds(.control)
  /// Every kind of non-empty text without control characters.
  public static let nonEmptyText: SegmentKinds = [.int, .int64, .digits, .uuid, .slug, .text]

  @inlinable
  public func contains(_ kind: SegmentKind) -> Bool { rawValue & (1 << kind.rawValue) != 0 }

  /// The kinds in the set, in order.
  public var kinds: [SegmentKind] { SegmentKind.allCases.filter(contains) }
}
