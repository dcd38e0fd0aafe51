/// How links are read: the plan's settings (`entry_points` in the config) and the bounds that keep a
/// hostile link cheap. The compiler and the runtime read links by these same rules, so that what the
/// linter decides about two patterns is what the app does with a URL.
public struct LinkRules: Sendable, Hashable {
  /// Whether path literals compare with their case (`/Product` is not `/product`) or ASCII letters fold.
  /// Scheme and host always fold: they are case-insensitive in every URL.
  public enum PathCase: String, Sendable, Hashable, CaseIterable {
    case sensitive
    case insensitive
  }

  /// What a trailing slash means: `/cart/` is `/cart` (`ignore`), or it is another path (`strict`).
  public enum TrailingSlash: String, Sendable, Hashable, CaseIterable {
    case ignore
    case strict
  }

  public var pathCase: PathCase
  public var trailingSlash: TrailingSlash
  public var limits: LinkLimits

  public init(pathCase: PathCase = .sensitive, trailingSlash: TrailingSlash = .ignore, limits: LinkLimits = LinkLimits()) {
    self.pathCase = pathCase
    self.trailingSlash = trailingSlash
    self.limits = limits
  }
}

/// Bounds on a link: one over any of them is rejected whole. They measure the link as decoded (an escape
/// is the byte it stands for), so a link and the `URL` Foundation makes of it, which escapes what may not
/// stand raw, are held to the same bounds; the text before the fragment is bounded first (three times
/// `maximumBytes`), so the work done on any input is linear in the bound.
public struct LinkLimits: Sendable, Hashable {
  /// The whole link before its fragment, in UTF-8 bytes as decoded (`ParsedLink.decodedLength`).
  /// (Browsers keep URLs of a few thousand characters; 4 KB leaves room for tracking parameters.)
  public var maximumBytes: Int
  /// Path segments (a custom scheme's host counts as one).
  public var maximumSegments: Int
  /// `name=value` items of the query.
  public var maximumQueryItems: Int
  /// One segment, query name or query value, as decoded, in bytes (and a host).
  public var maximumValueBytes: Int

  public init(maximumBytes: Int = 4096, maximumSegments: Int = 32, maximumQueryItems: Int = 64, maximumValueBytes: Int = 1024) {
    self.maximumBytes = maximumBytes
    self.maximumSegments = maximumSegments
    self.maximumQueryItems = maximumQueryItems
    self.maximumValueBytes = maximumValueBytes
  }
}

/// Why a link was refused before matching: it is not a link trackc will read, whatever the patterns.
public enum LinkRejection: String, Error, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Longer than `LinkLimits.maximumBytes`.
  case tooLong = "too-long"
  /// More path segments than `LinkLimits.maximumSegments`.
  case tooManySegments = "too-many-segments"
  /// More query items than `LinkLimits.maximumQueryItems`.
  case tooManyQueryItems = "too-many-query-items"
  /// A segment, query name or value longer than `LinkLimits.maximumValueBytes`.
  case valueTooLong = "value-too-long"
  /// No `scheme:` at the start.
  case noScheme = "no-scheme"
  /// No host: `shop:cart`, `shop:///cart`, `https:/path`. Every link an app is opened with names one (a
  /// custom scheme's is the first segment of its patterns).
  case missingHost = "missing-host"
  /// `user@host`: never in a link an app is given, and the classic way to dress one host as another.
  case userInfo = "user-info"
  /// `host:port`.
  case port
  /// A host that is not ASCII letters, digits, `-` and `.` (an IDN host arrives in its ASCII form).
  case invalidHost = "invalid-host"
  /// `%00` or a raw NUL byte.
  case nul
  /// Escapes that decode to bytes that are not UTF-8 (`%FF`, the overlong `%C0%AE`).
  case invalidUTF8 = "invalid-utf8"
  /// A control character (U+0001-U+001F, DEL, U+0080-U+009F) in a segment or query item, raw or escaped.
  case controlCharacter = "control-character"

  public var description: String { rawValue }
}
