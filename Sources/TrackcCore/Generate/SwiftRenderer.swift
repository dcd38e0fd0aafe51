/// Writes `SwiftCode` as Swift source, laid out as a formatter would leave it: two spaces an indentation
/// level and lines of at most `width` columns.
///
/// A construct that fits on its line is written on it; one that does not is broken one element a line
/// (arguments, array and dictionary elements, parameters, case patterns), its elements laid out the same
/// way in turn; a value that cannot start on its line (`let name =`) starts on the next. Widths are
/// counted in UTF-8 bytes, never fewer than the characters an editor shows. Only a name or a literal
/// too long for a line on its own can pass the limit: a string literal is always one line.
///
/// The only text it writes is its own keywords and punctuation and what the typed values hold: checked
/// names, escaped literals, comments of one visible line, types read and checked from the code.
struct SwiftRenderer {
  static let width = 120

  private var output = ""
  /// Where the current line starts in `output`, in UTF-8 bytes.
  private var lineStart = 0

  static func render(_ file: SwiftCode.File) -> String {
    var renderer = SwiftRenderer()
    for comment in file.header { renderer.line(0, "//" + (comment.text.isEmpty ? "" : " " + comment.text)) }
    renderer.members(file.declarations, at: 0)
    renderer.output += "\n"
    return renderer.output
  }

  // MARK: Lines

  private var column: Int { output.utf8.count - lineStart }

  /// Starts a line at `depth` (the file's first line without a line break before it).
  private mutating func newLine(_ depth: Int) {
    if !output.isEmpty { output += "\n" }
    lineStart = output.utf8.count
    output += String(repeating: "  ", count: depth)
  }

  private mutating func line(_ depth: Int, _ text: String) {
    newLine(depth)
    output += text
  }

  private mutating func blankLine() {
    output += "\n"
    lineStart = output.utf8.count
  }

  private func fits(_ width: Int, trailing: Int = 0) -> Bool {
    column + width + trailing <= Self.width
  }

  // MARK: Declarations

  /// Each member on lines of its own at `depth`, after what stands before it.
  private mutating func members(_ members: [SwiftCode.Member], at depth: Int) {
    for (index, member) in members.enumerated() {
      if member.blankLineBefore && !(index == 0 && depth > 0) && !output.isEmpty { blankLine() }
      if !member.comments.isEmpty {
        for comment in member.comments { line(depth, "//" + (comment.text.isEmpty ? "" : " " + comment.text)) }
        blankLine()
      }
      for line in member.documentation { self.line(depth, "/// " + line.text) }
      newLine(depth)
      declaration(member.declaration, at: depth)
    }
  }

  /// `{ members }` after a declaration's head; `{}` without members.
  private mutating func block(_ members: [SwiftCode.Member], at depth: Int) {
    guard !members.isEmpty else {
      output += " {}"
      return
    }
    output += " {"
    self.members(members, at: depth + 1)
    line(depth, "}")
  }

  private mutating func declaration(_ declaration: SwiftCode.Declaration, at depth: Int) {
    switch declaration {
    case .importModule(let testable, let generatedSPI, let path):
      output += (testable ? "@testable " : "") + (generatedSPI ? "@_spi(Generated) " : "") + "import " + Self.path(path)
    case .enumeration(let modifiers, let name, let inherits, let members):
      output += Self.modifiers(modifiers) + "enum " + name.text + Self.inheritance(inherits)
      block(members, at: depth)
    case .structure(let modifiers, let name, let inherits, let members):
      output += Self.modifiers(modifiers) + "struct " + name.text + Self.inheritance(inherits)
      block(members, at: depth)
    case .extensionOf(let type, let members, let attributes):
      for attribute in attributes {
        if case .available(let availability) = attribute {
          output += availability.attributeText
          newLine(depth)
        }
      }
      output += "extension " + Self.path(type)
      block(members, at: depth)
    case .constant(let modifiers, let name, let value):
      output += Self.modifiers(modifiers) + "let " + name.text
      initializer(value, at: depth)
    case .typedConstant(let modifiers, let name, let type, let value):
      output += Self.modifiers(modifiers) + "let " + name.text + ": " + Self.type(type)
      initializer(value, at: depth)
    case .enumCase(let name, let rawValue):
      output += "case " + name.text
      initializer(rawValue, at: depth)
    case .caseWithValues(let name, let values):
      output += "case " + name.text
      if !values.isEmpty { output += "(" + values.map { $0.label.text + ": " + Self.type($0.type) }.joined(separator: ", ") + ")" }
    case .computedProperty(let modifiers, let name, let type, let body):
      output += Self.modifiers(modifiers) + "var " + name.text + ": " + Self.type(type) + " {"
      statements(body, at: depth + 1)
      line(depth, "}")
    case .emptyInitializer(let modifiers):
      output += Self.modifiers(modifiers) + "init() {}"
    case .function(let function):
      self.function(function, at: depth)
    case .ifCanImport(let module, let members):
      output += "#if canImport(" + module.text + ")"
      self.members(members, at: depth + 1)
      line(depth, "#endif")
    }
  }

  /// ` = value`: on the line when it fits there, or when it can be broken and what comes before its
  /// first break fits; else on the next line, one level in.
  private mutating func initializer(_ value: SwiftCode.Expression, at depth: Int) {
    let flat = Self.flat(value)
    if !fits(flat.utf8.count, trailing: 3) && !fits(Self.headWidth(value, flat: flat), trailing: 3) {
      output += " ="
      newLine(depth + 1)
      expression(value, flat: flat, at: depth + 1)
    } else {
      output += " = "
      expression(value, flat: flat, at: depth)
    }
  }

  private mutating func function(_ function: SwiftCode.Function, at depth: Int) {
    var inlineAttributes = ""
    for attribute in function.attributes {
      switch attribute {
      case .dynamicReplacement(let name, let labels):
        let replaced = name.text + "(" + labels.map { ($0?.text ?? "_") + ":" }.joined() + ")"
        if fits("@_dynamicReplacement(for: )".utf8.count + replaced.utf8.count) {
          output += "@_dynamicReplacement(for: " + replaced + ")"
        } else {
          output += "@_dynamicReplacement("
          line(depth + 1, "for: " + replaced)
          line(depth, ")")
        }
        newLine(depth)
      case .mainActor:
        inlineAttributes += "@MainActor "
      case .available(let availability):
        output += availability.attributeText
        newLine(depth)
      }
    }
    output += inlineAttributes
    output += Self.modifiers(function.modifiers) + "func " + function.name.text + "("
    // The parameters on the line when the whole head fits, else one a line.
    let parameters = function.parameters.map(Self.parameter)
    let effects = function.effects.map { " " + $0.description } ?? ""
    let result = function.result.map { " -> " + Self.type($0) } ?? ""
    let flatWidth = parameters.reduce(0) { $0 + $1.utf8.count } + 2 * max(0, parameters.count - 1)
    if parameters.isEmpty || fits(flatWidth + 1 + effects.utf8.count + result.utf8.count + 2) {
      output += parameters.joined(separator: ", ") + ")"
    } else {
      for (index, parameter) in parameters.enumerated() { line(depth + 1, parameter + (index < parameters.count - 1 ? "," : "")) }
      line(depth, ")")
    }
    output += effects + result + " {"
    statements(function.body, at: depth + 1)
    line(depth, "}")
  }

  // MARK: Statements

  private mutating func statements(_ statements: [SwiftCode.Statement], at depth: Int) {
    for statement in statements {
      newLine(depth)
      self.statement(statement, at: depth)
    }
  }

  private mutating func statement(_ statement: SwiftCode.Statement, at depth: Int) {
    switch statement {
    case .expression(let value):
      expression(value, at: depth)
    case .returnValue(let value):
      output += "return "
      expression(value, at: depth)
    case .constant(let name, let value):
      output += "let " + name.text
      initializer(value, at: depth)
    case .deferred(let value):
      output += "defer { " + Self.flat(value) + " }"
    case .callWithClosure(let call, let parameter, let body):
      output += Self.flat(call) + " { " + parameter.text + " in"
      statements(body, at: depth + 1)
      line(depth, "}")
    case .constantWithClosure(let name, let call, let parameter, let body):
      output += "let " + name.text + " = " + Self.flat(call) + " { " + parameter.text + " in"
      statements(body, at: depth + 1)
      line(depth, "}")
    case .switchOn(let subject, let cases):
      output += "switch " + Self.flat(subject) + " {"
      for switchCase in cases { self.switchCase(switchCase, at: depth) }
      line(depth, "}")
    case .ifThen(let conditions, let body):
      conditionList("if ", conditions, " {", at: depth)
      statements(body, at: depth + 1)
      line(depth, "}")
    case .ifAvailable(let versions, let body):
      output += "if #available(" + versions.map { $0.platform + " " + $0.version + ", " }.joined() + "*) {"
      statements(body, at: depth + 1)
      line(depth, "}")
    case .guardElse(let conditions, let body):
      // `guard a else { return nil }` on one line when it fits.
      let flatConditions = conditions.map(Self.flat).joined(separator: ", ")
      if body.count == 1, case .returnValue(let value) = body[0],
        fits("guard  else { return  }".utf8.count + flatConditions.utf8.count + Self.flat(value).utf8.count)
      {
        output += "guard " + flatConditions + " else { return " + Self.flat(value) + " }"
        return
      }
      conditionList("guard ", conditions, " else {", at: depth)
      statements(body, at: depth + 1)
      line(depth, "}")
    case .breakStatement:
      output += "break"
    }
  }

  /// `if a, let b = c {` on one line when it fits; else one condition a line, the later ones aligned
  /// under the first, the brace on the last, and a condition too long for its line broken as an
  /// expression is.
  private mutating func conditionList(_ keyword: String, _ conditions: [SwiftCode.Condition], _ end: String, at depth: Int) {
    let flat = conditions.map(Self.flat)
    if fits(keyword.utf8.count + flat.reduce(0) { $0 + $1.utf8.count } + 2 * max(0, flat.count - 1) + end.utf8.count) {
      output += keyword + flat.joined(separator: ", ") + end
      return
    }
    output += keyword
    for (index, condition) in conditions.enumerated() {
      if index > 0 {
        output += ","
        newLine(depth + 1)
      }
      let trailing = index == conditions.count - 1 ? end.utf8.count : 1
      switch condition {
      case .test(let value):
        expression(value, at: depth + 1, trailing: trailing)
      case .binding(let name, let value):
        output += "let " + name.text + " = "
        expression(value, at: depth + 1, trailing: trailing)
      }
    }
    output += end
  }

  private static func flat(_ condition: SwiftCode.Condition) -> String {
    switch condition {
    case .test(let value): return flat(value)
    case .binding(let name, let value): return "let " + name.text + " = " + flat(value)
    }
  }

  /// `case a, b: return value` on one line when it fits; else the statements on the lines below, and
  /// patterns that do not fit one a line, the later ones one level in.
  private mutating func switchCase(_ switchCase: SwiftCode.Case, at depth: Int) {
    newLine(depth)
    var labelOnOneLine = true
    if switchCase.patterns.isEmpty {
      output += "default:"
    } else {
      let patterns = switchCase.patterns.map(Self.flat)
      if fits("case :".utf8.count + patterns.reduce(0) { $0 + $1.utf8.count } + 2 * (patterns.count - 1)) {
        output += "case " + patterns.joined(separator: ", ") + ":"
      } else {
        labelOnOneLine = false
        output += "case " + patterns[0]
        for pattern in patterns.dropFirst() {
          output += ","
          line(depth + 1, pattern)
        }
        output += ":"
      }
    }
    if labelOnOneLine, switchCase.body.count == 1, case .returnValue(let value) = switchCase.body[0] {
      let flat = Self.flat(value)
      if fits(" return ".utf8.count + flat.utf8.count) {
        output += " return " + flat
        return
      }
    }
    statements(switchCase.body, at: depth + 1)
  }

  // MARK: Expressions

  /// The expression from the current column: on one line when it fits (with `trailing` columns after
  /// it), else broken.
  private mutating func expression(_ value: SwiftCode.Expression, flat: String? = nil, at depth: Int, trailing: Int = 0) {
    let flat = flat ?? Self.flat(value)
    if fits(flat.utf8.count, trailing: trailing) {
      output += flat
    } else {
      broken(value, flat: flat, at: depth, trailing: trailing)
    }
  }

  /// Broken one element a line, the elements one level in from `depth`, the closing bracket at it.
  private mutating func broken(_ value: SwiftCode.Expression, flat: String, at depth: Int, trailing: Int) {
    switch value {
    case .call(let callee, let arguments) where !arguments.isEmpty:
      output += Self.flat(callee) + "("
      // A lone array or dictionary keeps its brackets beside the parentheses: `.only([`.
      if arguments.count == 1, arguments[0].label == nil, Self.isCollection(arguments[0].value) {
        broken(arguments[0].value, flat: Self.flat(arguments[0].value), at: depth, trailing: trailing + 1)
        output += ")"
        return
      }
      for (index, argument) in arguments.enumerated() {
        let isLast = index == arguments.count - 1
        newLine(depth + 1)
        if let label = argument.label { output += label.text + ": " }
        expression(argument.value, at: depth + 1, trailing: isLast ? 0 : 1)
        if !isLast { output += "," }
      }
      line(depth, ")")
    case .array(let elements) where !elements.isEmpty:
      output += "["
      for element in elements {
        newLine(depth + 1)
        expression(element, at: depth + 1, trailing: 1)
        output += ","
      }
      line(depth, "]")
    case .dictionary(let elements) where !elements.isEmpty:
      output += "["
      for element in elements {
        newLine(depth + 1)
        output += Self.flat(element.key) + ": "
        expression(element.value, at: depth + 1, trailing: 1)
        output += ","
      }
      line(depth, "]")
    case .tryExpression(let inner):
      output += "try "
      expression(inner, at: depth, trailing: trailing)
    default:
      output += flat
    }
  }

  /// What stands before the first line break of a broken expression: all of what cannot be broken,
  /// `callee(` of a call, `[` of a collection.
  private static func headWidth(_ value: SwiftCode.Expression, flat: String) -> Int {
    switch value {
    case .call(let callee, let arguments) where !arguments.isEmpty:
      let hugs = arguments.count == 1 && arguments[0].label == nil && isCollection(arguments[0].value)
      return Self.flat(callee).utf8.count + (hugs ? 2 : 1)
    case .array(let elements) where !elements.isEmpty: return 1
    case .dictionary(let elements) where !elements.isEmpty: return 1
    case .tryExpression(let inner): return "try ".utf8.count + headWidth(inner, flat: Self.flat(inner))
    default: return flat.utf8.count
    }
  }

  private static func isCollection(_ value: SwiftCode.Expression) -> Bool {
    switch value {
    case .array(let elements): return !elements.isEmpty
    case .dictionary(let elements): return !elements.isEmpty
    default: return false
    }
  }

  /// The expression on one line.
  static func flat(_ value: SwiftCode.Expression) -> String {
    switch value {
    case .string(let text): return TextEscaping.swiftStringLiteral(text)
    case .integer(let integer): return String(integer)
    case .double(let double): return double.description
    case .boolean(let boolean): return boolean ? "true" : "false"
    case .nilLiteral: return "nil"
    case .selfReference: return "self"
    case .reference(let path): return Self.path(path)
    case .implicitMember(let name): return "." + name.text
    case .call(let callee, let arguments):
      return flat(callee) + "(" + arguments.map { ($0.label.map { $0.text + ": " } ?? "") + flat($0.value) }.joined(separator: ", ") + ")"
    case .array(let elements): return "[" + elements.map(flat).joined(separator: ", ") + "]"
    case .dictionary(let elements):
      return elements.isEmpty ? "[:]" : "[" + elements.map { flat($0.key) + ": " + flat($0.value) }.joined(separator: ", ") + "]"
    case .inOut(let name): return "&" + name.text
    case .tryExpression(let inner): return "try " + flat(inner)
    case .optionalMember(let base, let name): return flat(base) + "?." + name.text
    case .conditionalCast(let base, let type): return "(" + flat(base) + " as? " + path(type) + ")"
    case .hexadecimal(let value):
      let digits = String(value, radix: 16, uppercase: true)
      let padded = String(repeating: "0", count: 16 - digits.count) + digits
      return "0x" + padded.prefix(4) + "_" + padded.dropFirst(4).prefix(4) + "_" + padded.dropFirst(8).prefix(4) + "_" + padded.suffix(4)
    case .member(let base, let name): return flat(base) + "." + name.text
    case .metatype(let path): return Self.path(path) + ".self"
    case .binding(let name): return "let " + name.text
    case .isNil(let value): return flat(value) + " == nil"
    case .trailingClosure(let callee, let body): return flat(callee) + " { " + flat(body) + " }"
    }
  }

  // MARK: Pieces

  private static func path(_ path: [ValidIdentifier]) -> String {
    path.map(\.text).joined(separator: ".")
  }

  private static func modifiers(_ modifiers: [SwiftCode.Modifier]) -> String {
    modifiers.map { $0.rawValue + " " }.joined()
  }

  private static func inheritance(_ types: [ValidIdentifier]) -> String {
    types.isEmpty ? "" : ": " + types.map(\.text).joined(separator: ", ")
  }

  private static func parameter(_ parameter: SwiftCode.Parameter) -> String {
    (parameter.label?.text ?? "_") + (parameter.name.map { " " + $0.text } ?? "") + ": " + type(parameter.type)
  }

  private static func type(_ type: SwiftCode.TypeReference) -> String {
    switch type {
    case .named(let path): return Self.path(path)
    case .optional(let wrapped): return Self.type(wrapped) + "?"
    case .array(let element): return "[" + Self.type(element) + "]"
    case .generic(let name, let arguments): return name.text + "<" + arguments.map(Self.type).joined(separator: ", ") + ">"
    case .syntax(let syntax): return syntax.description
    case .opaque(let path): return "some " + Self.path(path)
    }
  }
}
