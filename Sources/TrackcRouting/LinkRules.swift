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

/// Bounds checked before any decoding: a link over one of them is rejected whole, so the work done
/// on any input is at most linear in `maximumBytes`.
public struct LinkLimits: Sendable, Hashable {
  /// The whole link, in UTF-8 bytes. (Browsers keep URLs of a few thousand characters; 4 KB leaves room
  /// for tracking parameters.)
  public var maximumBytes: Int
  /// Path segments (a custom scheme's host counts as one).
  public var maximumSegments: Int
  /// `name=value` items of the query.
  public var maximumQueryItems: Int
  /// One segment, query name or query value, still encoded, in bytes.
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
  /// `user@host`: never in a link an app is given, and the classic way to dress one host as another.
  case userInfo = "user-info"
  /// `host:port`.
  case port
  /// A host that is not ASCII letters, digits, `-` and `.` (an IDN host arrives in its ASCII form).
  case invalidHost = "invalid-host"
  /// `%` not followed by two hexadecimal digits.
  case invalidEscape = "invalid-escape"
  /// `%00`: a NUL byte.
  case nul
  /// Escapes that decode to bytes that are not UTF-8 (`%FF`, the overlong `%C0%AE`).
  case invalidUTF8 = "invalid-utf8"
  /// A raw control character, space or DEL in the link.
  case controlCharacter = "control-character"

  public var description: String { rawValue }
}
