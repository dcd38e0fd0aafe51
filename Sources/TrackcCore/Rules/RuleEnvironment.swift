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

  public init(_ config: TrackingConfig) {
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
public struct EventIDPattern: Sendable {
  public let source: String
  /// Where the pattern is written; nil for the default.
  public let range: SourceRange?
  private let regex: NSRegularExpression

  public struct CompileError: Error, Sendable {
    public var message: String
  }

  public static func compile(_ written: Located<String>?) -> Result<EventIDPattern, CompileError> {
    let source = written?.value ?? TrackingConfig.defaultEventIDPattern
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
    regex.numberOfMatches(in: id, range: NSRange(location: 0, length: id.utf16.count)) > 0
  }
}
