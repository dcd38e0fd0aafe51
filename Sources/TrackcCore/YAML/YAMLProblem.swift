/// What the YAML reader found wrong in its input, and where.
///
/// The reader knows YAML, not trackc's rules: it reports typed problems (as Yams' `YamlError` does), and
/// `FrontEndDiagnostics` turns each into the diagnostic of the rule that owns it (`Rules/YAML/`), with
/// that rule's wording. Positions are 1-based lines and columns in Unicode scalars.
public enum YAMLProblem: Sendable, Hashable {
  /// The bytes are not UTF-8 text (UTF-16 or UTF-32 by their byte order mark, or an invalid byte).
  case encoding(TextEncoding.Problem, at: SourcePosition)
  /// A line break only YAML 1.1 knows (U+0085, U+2028, U+2029): libyaml counts it as one and editors
  /// do not, so every later position would be off.
  case yaml11LineBreak(Unicode.Scalar, at: SourcePosition)
  /// libyaml could not allocate memory (while being set up, or while parsing).
  case outOfMemory(whileInitialising: Bool)
  /// libyaml's reader refused a character: its problem text and the character's code.
  case forbiddenCharacter(problem: String, code: Int32, at: SourcePosition)
  /// libyaml's scanner or parser refused the text: its problem and context, in its words; the character
  /// at the problem, when there is one; and where the context starts, when that helps (on an earlier
  /// line, or earlier on the same one).
  case syntax(problem: String, context: String?, at: SourcePosition, character: Unicode.Scalar?, contextAt: SourcePosition?)
  /// A key written twice in one mapping; the first occurrence is kept.
  case duplicateKey(String, at: SourceRange, first: SourceRange)
  /// An alias to an anchor defined nowhere before it.
  case undefinedAlias(String, at: SourcePosition)
  /// An alias to a node that contains the alias.
  case recursiveAlias(String, at: SourcePosition)
  /// Aliases expanding to more nodes than `YAMLLimits.maxAliasExpansion` (a "billion laughs" file).
  case aliasExpansionTooLarge(anchor: String, limit: Int, at: SourcePosition, anchorAt: SourcePosition)
  /// The value of a `<<` merge key is a scalar.
  case mergeValueNotMapping(found: YAMLValue, at: SourceRange)
  /// A `<<` merge key's list holds something other than a mapping.
  case mergeSourceNotMapping(found: YAMLValue, at: SourceRange)
  /// A tag outside the core schema, or on the wrong kind of node.
  case unsupportedTag(String, at: SourcePosition)
  /// A core-schema tag on a value it does not fit (`!!int twelve`).
  case invalidTaggedValue(value: String, tag: String, at: SourcePosition)
  /// Collections nested deeper than `YAMLLimits.maxNestingDepth`.
  case nestingTooDeep(limit: Int, at: SourcePosition)
  /// A second document in the stream.
  case multipleDocuments(at: SourcePosition, firstDocument: SourcePosition?)

  /// Problems after which there is no document to read.
  public var stopsParsing: Bool {
    switch self {
    case .encoding, .yaml11LineBreak, .outOfMemory, .forbiddenCharacter, .syntax, .undefinedAlias, .recursiveAlias, .aliasExpansionTooLarge,
      .nestingTooDeep, .multipleDocuments:
      return true
    case .duplicateKey, .mergeValueNotMapping, .mergeSourceNotMapping, .unsupportedTag, .invalidTaggedValue:
      return false
    }
  }

  /// Shortens a core-schema tag for messages: `tag:yaml.org,2002:int` is `!!int`.
  public static func shortTag(_ tag: String) -> String {
    tag.hasPrefix("tag:yaml.org,2002:") ? "!!" + tag.dropFirst("tag:yaml.org,2002:".count) : tag
  }
}
