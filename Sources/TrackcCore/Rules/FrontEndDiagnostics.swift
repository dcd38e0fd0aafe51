/// The one place where the front ends' typed problems become diagnostics.
///
/// The YAML reader, the config decoder and the readers of the code know no rules; each problem they
/// report goes here to the rule that owns it, whose file holds the wording (and the examples).
enum FrontEndDiagnostics {
  static func report(_ problems: [YAMLProblem], in context: inout RuleContext) {
    for problem in problems { report(problem, in: &context) }
  }

  static func report(_ problem: YAMLProblem, in context: inout RuleContext) {
    switch problem {
    case .encoding(let encoding, let position):
      YAMLEncodingRule.report(encoding, at: position, in: &context)
    case .yaml11LineBreak(let scalar, let position):
      YAMLEncodingRule.reportLineBreak(scalar, at: position, in: &context)
    case .outOfMemory(let whileInitialising):
      YAMLSyntaxRule.reportOutOfMemory(whileInitialising: whileInitialising, in: &context)
    case .forbiddenCharacter(let problem, let code, let position):
      YAMLSyntaxRule.reportForbiddenCharacter(problem: problem, code: code, at: position, in: &context)
    case .syntax(let problem, let syntaxContext, let position, let character, let contextPosition):
      YAMLSyntaxRule.report(
        problem: problem, context: syntaxContext, at: position, character: character, contextAt: contextPosition, in: &context)
    case .duplicateKey(let key, let range, let first):
      DuplicateKeyRule.report(key: key, at: range, first: first, in: &context)
    case .undefinedAlias(let name, let position):
      YAMLAliasRule.reportUndefined(name, at: position, in: &context)
    case .recursiveAlias(let name, let position):
      YAMLAliasRule.reportRecursive(name, at: position, in: &context)
    case .aliasExpansionTooLarge(let anchor, let limit, let position, let anchorPosition):
      YAMLAliasRule.reportExpansion(anchor: anchor, limit: limit, at: position, anchorAt: anchorPosition, in: &context)
    case .mergeValueNotMapping(let found, let range):
      MergeKeyRule.reportValue(found: found, at: range, in: &context)
    case .mergeSourceNotMapping(let found, let range):
      MergeKeyRule.reportSource(found: found, at: range, in: &context)
    case .unsupportedTag(let tag, let position):
      YAMLTagRule.reportUnsupported(tag, at: position, in: &context)
    case .invalidTaggedValue(let value, let tag, let position):
      YAMLTagRule.reportInvalidValue(value, tag: tag, at: position, in: &context)
    case .nestingTooDeep(let limit, let position):
      NestingDepthRule.report(limit: limit, at: position, in: &context)
    case .multipleDocuments(let position, let firstDocument):
      MultipleDocumentsRule.report(at: position, firstDocument: firstDocument, in: &context)
    }
  }

  static func report(_ problems: [ConfigProblem], in context: inout RuleContext) {
    for problem in problems { report(problem, in: &context) }
  }

  static func report(_ problem: ConfigProblem, in context: inout RuleContext) {
    switch problem {
    case .empty(let position):
      EmptyConfigRule.report(at: position, in: &context)
    case .unknownKey(let key, let place, let allowed, let kind):
      UnknownKeyRule.report(key: key, in: place, allowed: allowed, kind: kind, in: &context)
    case .wrongType(let wrongType):
      WrongTypeRule.report(wrongType, in: &context)
    case .missingKey(let missing):
      MissingKeyRule.report(missing, in: &context)
    case .versionNotInteger(let found, let range):
      InvalidVersionRule.reportNotInteger(found: found, at: range, in: &context)
    case .unsupportedVersion(let version, let range):
      InvalidVersionRule.reportUnsupported(version, at: range, in: &context)
    case .privacyTerm(let term):
      PrivacyTermRule.report(term, in: &context)
    }
  }

  static func report(_ problems: [RegistryProblem], in context: inout RuleContext) {
    for problem in problems { HandlersFileRule.report(problem, in: &context) }
  }

  static func report(_ problems: [SourceProblem], in context: inout RuleContext) {
    for problem in problems { SwiftSourceRule.report(problem, in: &context) }
  }
}

extension ScanResult {
  /// The scan's problems as `swift-source` warnings.
  public var diagnostics: [Diagnostic] {
    var context = RuleContext(file: "")
    FrontEndDiagnostics.report(problems, in: &context)
    return context.diagnostics.sorted(by: Diagnostic.presentationOrder)
  }
}

extension HandlerRegistry {
  /// Reads a registry file (`decode(_:fileSize:)`) and words its problems as diagnostics at `path`.
  public static func decode(_ input: InputBytes, path: String, fileSize: Int? = nil) -> (registry: HandlerRegistry?, diagnostics: [Diagnostic]) {
    let decoded = decode(input, fileSize: fileSize)
    var context = RuleContext(file: path)
    FrontEndDiagnostics.report(decoded.problems, in: &context)
    return (decoded.registry, context.diagnostics)
  }
}
