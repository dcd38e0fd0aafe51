import Foundation

/// What the per-screen rules need to know about the rest of the config, computed once before the
/// screens are checked (in parallel).
public struct RuleEnvironment: Sendable {
  /// The event ID pattern, compiled; nil when it is invalid (which `event-id-pattern` reports once).
  public let eventIDPattern: EventIDPattern?
  /// Declared destination IDs; nil when the config has no `destinations` section.
  public let declaredDestinations: Set<String>?
  /// Declared destination IDs in file order, for messages and suggestions.
  public let declaredDestinationNames: [String]
  /// The destinations an event goes to unless it says otherwise: the declared ones among `defaults`,
  /// or every declared one when `defaults` is absent.
  public let defaultDestinations: Set<String>
  /// Whether `defaults.destinations` is written at all.
  public let hasExplicitDefaults: Bool
  /// What the environment was computed from: two environments with equal fingerprints are the same.
  public let fingerprint: Fingerprint

  public struct Fingerprint: Hashable, Sendable {
    var pattern: String?
    var destinations: [String]?
    var defaults: [String]?
  }

  public init(_ config: TrackingConfig) {
    fingerprint = Fingerprint(
      pattern: config.conventions.eventIDPattern?.value, destinations: config.destinations?.map(\.id.value),
      defaults: config.defaults.destinations?.map(\.value))
    eventIDPattern = try? EventIDPattern.compile(config.conventions.eventIDPattern).get()
    declaredDestinationNames = config.destinations?.map(\.id.value) ?? []
    let declared = config.destinations.map { Set($0.map(\.id.value)) }
    declaredDestinations = declared
    hasExplicitDefaults = config.defaults.destinations != nil
    if let defaults = config.defaults.destinations {
      defaultDestinations = Set(defaults.map(\.value)).intersection(declared ?? [])
    } else {
      defaultDestinations = declared ?? []
    }
  }
}

/// `conventions.event_id_pattern`, compiled once and shared by every worker.
///
/// Patterns use ICU's regular expression syntax (NSRegularExpression), the family of the ECMAScript
/// patterns JSON Schema and editors use; a match may occur anywhere unless the pattern is anchored.
/// The default pattern, which most configs use, is checked by `DefaultEventIDPattern` instead: the same
/// answers (a test compares the two on every short string of a wide alphabet) at a tenth of the cost.
public struct EventIDPattern: Sendable {
  public let source: String
  /// Where the pattern is written; nil for the default.
  public let range: SourceRange?
  private let regex: NSRegularExpression?

  public struct CompileError: Error, Sendable {
    public var message: String
  }

  public static func compile(_ written: Located<String>?) -> Result<EventIDPattern, CompileError> {
    let source = written?.value ?? TrackingConfig.defaultEventIDPattern
    if source == TrackingConfig.defaultEventIDPattern {
      return .success(EventIDPattern(source: source, range: written?.range, regex: nil))
    }
    do {
      let regex = try NSRegularExpression(pattern: source)
      return .success(EventIDPattern(source: source, range: written?.range, regex: regex))
    } catch {
      // ICU says only "invalid"; Swift's parser of the same syntax family says where and why.
      var reason = "ICU rejects it"
      do {
        _ = try Regex(source)
      } catch let swiftError {
        reason = "\(swiftError)"
      }
      return .failure(CompileError(message: reason))
    }
  }

  public func matches(_ id: String) -> Bool {
    guard let regex else { return DefaultEventIDPattern.matches(id) }
    return regex.numberOfMatches(in: id, range: NSRange(location: 0, length: id.utf16.count)) > 0
  }

  /// The same check through ICU, whatever the pattern (for tests of the default's fast path).
  public static func matchesWithICU(_ id: String, pattern: String) throws -> Bool {
    try NSRegularExpression(pattern: pattern).numberOfMatches(in: id, range: NSRange(location: 0, length: id.utf16.count)) > 0
  }
}

/// `^[A-Z][A-Z0-9_]*$` exactly as ICU matches it, including ICU's `$`, which also matches before one
/// line terminator at the very end of the input.
enum DefaultEventIDPattern {
  static func matches(_ id: String) -> Bool {
    var id = id
    return id.withUTF8 { bytes in
      guard let first = bytes.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return false }
      var index = 1
      while index < bytes.count {
        let byte = bytes[index]
        let isIDByte =
          (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
          || byte == UInt8(ascii: "_")
        guard isIDByte else { break }
        index += 1
      }
      return isFinalLineTerminator(UnsafeBufferPointer(rebasing: bytes[index...]))
    }
  }

  /// Nothing, or exactly one of ICU's line terminators: \n \v \f \r \r\n U+0085 U+2028 U+2029.
  private static func isFinalLineTerminator(_ rest: UnsafeBufferPointer<UInt8>) -> Bool {
    switch rest.count {
    case 0: return true
    case 1: return (0x0A...0x0D).contains(rest[0])
    case 2: return (rest[0] == 0x0D && rest[1] == 0x0A) || (rest[0] == 0xC2 && rest[1] == 0x85)
    case 3: return rest[0] == 0xE2 && rest[1] == 0x80 && (rest[2] == 0xA8 || rest[2] == 0xA9)
    default: return false
    }
  }
}
