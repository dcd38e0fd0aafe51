/// Text that is not well-formed YAML, as libyaml reports it, reworded in plain words.
public enum YAMLSyntaxRule: YAMLRule {
  public static let id = "yaml-syntax"
  public static let summary = "The config must be well-formed YAML (reported at libyaml's position, in plain words)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("version: 1\nscreens:\n  Home:\n1️⃣\tpage_events: {}\n", expecting: [.error("a tab character cannot indent YAML; indent with spaces")]),
    .triggers("version: 1\nscreens: [Home, Cart\n1️⃣", expecting: [.error("expected ',' or ']': the '[' at the note is not closed before this point")]),
    .triggers(
      "version: 1\nscreens:\n  Home:\n    page_events:\n      enter: PAGE1️⃣: HOME: ENTER\n",
      expecting: [
        .error("unexpected ':' here: either this line is indented deeper than the key it follows, or a plain value contains ': ' and must be quoted")
      ]),
    .triggers(
      "version: 1\nscreens: {}\nname: \"unclosed\n1️⃣",
      expecting: [.error("the file ends inside a quoted string; the quote opened at the note is never closed")]),
    .passes("version: 1\nconventions: {event_id_pattern: '^[A-Z: ]+$'}\nscreens:\n  Home:\n    page_events:\n      enter: 'PAGE: HOME: ENTER'\n"),
  ]

  // Found by libyaml, through the YAML reader (`YAMLProblem.syntax`, `.forbiddenCharacter`, `.outOfMemory`).
  static func report(
    problem: String, context syntaxContext: String?, at position: SourcePosition, character: Unicode.Scalar?,
    contextAt contextPosition: SourcePosition?, in context: inout RuleContext
  ) {
    let notes = zip(syntaxContext.map { [$0] } ?? [], contextPosition.map { [$0] } ?? []).map {
      Diagnostic.Note(contextNote($0), at: context.location(SourceRange(at: $1)))
    }
    context.report(
      Self.self, message(problem: problem, context: syntaxContext, character: character), at: SourceRange(at: position), notes: notes)
  }

  static func reportForbiddenCharacter(problem: String, code: Int32, at position: SourcePosition, in context: inout RuleContext) {
    context.report(Self.self, readerMessage(problem: problem, value: code), at: SourceRange(at: position))
  }

  static func reportOutOfMemory(whileInitialising: Bool, in context: inout RuleContext) {
    context.report(
      Self.self, whileInitialising ? "libyaml could not be initialised (out of memory)" : "libyaml ran out of memory",
      at: SourceRange(at: .start))
  }

  /// libyaml's problem, with its context, as a sentence that says what to change.
  static func message(problem: String, context: String?, character: Unicode.Scalar?) -> String {
    switch problem {
    case "found character that cannot start any token":
      switch character {
      case "\t"?:
        return "a tab character cannot indent YAML; indent with spaces"
      case let character? where character.properties.isWhitespace == false && character.value >= 0x20:
        return "'\(character)' cannot start a plain value in YAML; quote the value"
      default:
        return "this character cannot start a YAML value; quote the value"
      }
    case "mapping values are not allowed in this context":
      return "unexpected ':' here: either this line is indented deeper than the key it follows, or a plain value contains ': ' and must be quoted"
    case "did not find expected key":
      return "expected a key at this indentation: this line does not continue the mapping above (check its indentation, or a stray '- ' or bracket)"
    case "did not find expected '-' indicator":
      return "expected a '- ' list item: this line is at the list's indentation but is not one of its items"
    case "could not find expected ':'":
      return "expected ':' after the key that starts at the note; a key and its ':' must be on one line"
    case "found unexpected end of stream":
      return context?.contains("quoted scalar") == true
        ? "the file ends inside a quoted string; the quote opened at the note is never closed"
        : "the file ends in the middle of a value"
    case "did not find expected ',' or ']'":
      return "expected ',' or ']': the '[' at the note is not closed before this point"
    case "did not find expected ',' or '}'":
      return "expected ',' or '}': the '{' at the note is not closed before this point"
    case "found unknown escape character":
      return "unknown escape sequence in a double-quoted string; write '\\\\' for a backslash, or use single quotes"
    case "did not find expected hexdecimal number":
      return "a '\\x', '\\u' or '\\U' escape in a double-quoted string needs hexadecimal digits"
    case "did not find expected alphabetic or numeric character":
      return context?.contains("alias") == true ? "an alias '*' needs the name of an anchor" : "an anchor '&' needs a name"
    case "did not find expected node content":
      return "expected a value here (a stray ']', '}' or ',' ?)"
    case "found undefined tag handle":
      return "this tag uses an undefined handle; a trackc config needs no custom tags"
    case "found incompatible YAML document":
      return "the '%YAML' directive asks for a YAML version libyaml does not read; remove the directive"
    case "block sequence entries are not allowed in this context":
      return "a '- ' list item is not allowed here; check the indentation of this line"
    case "did not find expected comment or line break":
      return "unexpected text after the value; a comment needs a space before its '#'"
    case "did not find expected <document start>":
      return "unexpected text after the end of the document"
    default:
      if problem.contains("tab character") { return "a tab character cannot indent YAML; indent with spaces" }
      if let context { return "\(context): \(problem)" }
      return problem
    }
  }

  /// What the context mark points at.
  static func contextNote(_ context: String) -> String {
    switch context {
    case "while parsing a block mapping": return "the mapping starts here"
    case "while parsing a block collection": return "the list starts here"
    case "while parsing a flow sequence": return "the '[' is here"
    case "while parsing a flow mapping": return "the '{' is here"
    case "while scanning a quoted scalar", "while parsing a quoted scalar": return "the string starts here"
    case "while scanning a simple key": return "the key starts here"
    case "while scanning a block scalar": return "the block scalar starts here"
    case "while scanning an anchor": return "the anchor starts here"
    case "while scanning an alias": return "the alias starts here"
    case "while scanning a tag": return "the tag starts here"
    default: return context
    }
  }

  /// libyaml's reader errors: the bytes are UTF-8 (checked before), so these are forbidden characters.
  static func readerMessage(problem: String, value: Int32) -> String {
    guard problem == "control characters are not allowed" else { return problem }
    let hex = String(value, radix: 16, uppercase: true)
    let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    if value == 0 {
      return "the file contains a NUL byte (\(code)): it is binary, or UTF-16/UTF-32 without a byte order mark; trackc reads UTF-8 text"
    }
    return "the file contains the control character \(code), which YAML does not allow; is it a binary file?"
  }
}
