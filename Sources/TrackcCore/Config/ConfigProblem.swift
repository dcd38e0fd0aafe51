/// What decoding a config found wrong with its structure, and where.
///
/// The decoder knows the config format, not trackc's rules: `FrontEndDiagnostics` hands each problem to
/// the rule that owns it (`Rules/Structure/`), whose file holds the wording. Places are given in words
/// ("'conventions'", "handler 'onFav(_:)' of 'Home'") because only the decoder knows what a node is.
public enum ConfigProblem: Sendable, Hashable {
  /// No document at all, or a null one.
  case empty(at: SourcePosition)
  /// A key the format does not define at this place. `kind` is "key", or "page event" under `page_events`.
  case unknownKey(Located<String>, in: String, allowed: [String], kind: String)
  case wrongType(WrongType)
  case missingKey(MissingKey)
  case versionNotInteger(found: FoundValue, at: SourceRange)
  case unsupportedVersion(Int, at: SourceRange)
  /// A data type or purpose that is not one of Apple's, or a purpose listed more than once.
  case privacyTerm(PrivacyTerm)

  public enum PrivacyTerm: Sendable, Hashable {
    case unknownDataType(Located<String>)
    /// `count`: how many times the list holds it (reported once, at the first).
    case unknownPurpose(Located<String>, count: Int)
    /// Unknown values of a list past the ones reported: `values` distinct ones in `entries` entries.
    case moreUnknownPurposes(values: Int, entries: Int, in: String, at: SourceRange)
    /// A purpose listed again `repeats` times after its first entry (reported once, at the first repeat).
    case repeatedPurpose(Located<String>, repeats: Int)
  }

  /// A value of another kind than the format expects at its place.
  public struct WrongType: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
      /// The document is not a mapping.
      case topLevel(found: YAMLValue)
      /// `interception` is not one of the modes; with the closest mode, if one is close.
      case interception(found: FoundValue, allowed: [String], suggestion: String?)
      /// `screens` is not a mapping.
      case screens(found: FoundValue)
      /// An empty string where a name is needed.
      case empty(what: String)
      case emptyDestinationID
      /// An event given as a sequence.
      case eventIsSequence(what: String)
      /// An event with a null ID.
      case noEventID(what: String)
      /// An event ID that is not a string.
      case eventIDNotString(what: String, found: FoundValue)
      /// A value that is not what `expected` describes ("a mapping of convention names to values").
      case notExpected(what: String, expected: String, found: FoundValue)
      case keyNotString(in: String, found: YAMLValue)
      case notString(what: String, found: FoundValue)
      /// A list was expected; `items` describes its entries ("destination IDs such as '[firebase]'").
      case notList(what: String, items: String, found: FoundValue)
      case entryNotString(in: String, found: FoundValue)
      /// A property type that is not one of `PropertyType`; with the one it was likely meant as.
      case propertyType(what: String, found: FoundValue, suggestion: PropertyType?)
      /// A value that must be one of a few words (`call: track`); with the closest, if one is close.
      case choice(what: String, found: FoundValue, allowed: [String], suggestion: String?)
    }

    public var kind: Kind
    public var range: SourceRange
  }

  /// A key the format requires that is not there.
  public enum MissingKey: Sendable, Hashable {
    /// `version`, reported at the start of the document.
    case version(at: SourcePosition)
    case screens(at: SourcePosition)
    /// `event` in the long form of an event; reported at the event's key.
    case event(what: String, at: SourceRange)
    /// `require_tracking` without `suffix` or `tag`; reported at its key.
    case trackingMarker(at: SourceRange)
    /// A binding without `from`; reported at the property's key.
    case bindingSource(property: String, what: String, at: SourceRange)
    /// Another required key (`screen` of an entry point), missing in `what`; reported at `what`'s key.
    case key(String, in: String, at: SourceRange)
  }
}

/// A value as the decoder found it, for saying what was found: "a string 'abc'", "an integer 5".
public enum FoundValue: Sendable, Hashable, CustomStringConvertible {
  case string(String)
  case integer(Int)
  /// A floating-point number, as written.
  case number(String)
  case boolean(Bool)
  case null
  case sequence
  case mapping

  public init(_ node: YAMLNodeID, in document: YAMLDocument) {
    switch document.value(node) {
    case .string(let text): self = .string(text)
    case .int(let int): self = .integer(int)
    case .float: self = .number(document.text(node))
    case .bool(let bool): self = .boolean(bool)
    case .null: self = .null
    case .sequence: self = .sequence
    case .mapping: self = .mapping
    }
  }

  public var description: String {
    switch self {
    case .string(let text): return "a string '\(text.count > 40 ? text.prefix(40) + "…" : text)'"
    case .integer(let int): return "an integer \(int)"
    case .number(let text): return "a number \(text)"
    case .boolean(let bool): return "a boolean \(bool)"
    case .null: return "null (no value)"
    case .sequence: return "a sequence"
    case .mapping: return "a mapping"
    }
  }
}
