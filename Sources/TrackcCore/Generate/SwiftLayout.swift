import SwiftSyntax

/// The layout of generated Swift: two spaces an indentation level and lines of at most `width` columns.
///
/// The emitters build each file as a swift-syntax tree with its whitespace in place, the way a formatter
/// would leave it: a construct that fits on its line is written on it, and one that does not is broken
/// one element a line (arguments, array and dictionary elements, parameters, case patterns), its
/// elements laid out the same way in turn. Widths are counted in UTF-8 bytes, never fewer than the
/// characters an editor shows. Only a single literal or name longer than a line on its own can pass the
/// limit: a string literal is always one line.
enum SwiftLayout {
  static let width = 120

  /// `public static `: keywords, each followed by a space.
  static func modifiers(_ keywords: Keyword...) -> DeclModifierListSyntax {
    DeclModifierListSyntax(keywords.map { DeclModifierSyntax(name: .keyword($0, trailingTrivia: .space)) })
  }

  static func width(_ modifiers: DeclModifierListSyntax) -> Int { modifiers.totalLength.utf8Length }

  /// A type named in trackc's own source (`String`, `ScreenID`): a `StaticString`, which nothing read at
  /// run time can be.
  static func type(_ name: StaticString) -> TypeSyntax {
    TypeSyntax(IdentifierTypeSyntax(name: .identifier(name.description)))
  }

  /// `Outer.Inner`, from checked components.
  static func type(_ path: [ValidIdentifier]) -> TypeSyntax {
    var type = TypeSyntax(IdentifierTypeSyntax(name: path[0].token))
    for component in path.dropFirst() { type = TypeSyntax(MemberTypeSyntax(baseType: type, name: component.token)) }
    return type
  }

  /// A reference to a name: `name`, `Outer.member`.
  static func reference(_ path: [TokenSyntax]) -> ExprSyntax {
    var expression = ExprSyntax(DeclReferenceExprSyntax(baseName: path[0]))
    for component in path.dropFirst() {
      expression = ExprSyntax(MemberAccessExprSyntax(base: expression, declName: DeclReferenceExprSyntax(baseName: component)))
    }
    return expression
  }

  /// `.name`: an enum case or static member of a type the context gives.
  static func implicitMember(_ name: TokenSyntax) -> ExprSyntax {
    ExprSyntax(MemberAccessExprSyntax(declName: DeclReferenceExprSyntax(baseName: name)))
  }

  static func integer(_ value: Int) -> ExprSyntax {
    let magnitude = ExprSyntax(IntegerLiteralExprSyntax(literal: .integerLiteral(String(value.magnitude))))
    return value < 0 ? ExprSyntax(PrefixOperatorExprSyntax(operator: .prefixOperator("-"), expression: magnitude)) : magnitude
  }

  /// A finite double, as `description` spells it (`0.25`, `1e-300`).
  static func double(_ value: Double) -> ExprSyntax {
    let magnitude = ExprSyntax(FloatLiteralExprSyntax(literal: .floatLiteral(value.magnitude.description)))
    return value.sign == .minus ? ExprSyntax(PrefixOperatorExprSyntax(operator: .prefixOperator("-"), expression: magnitude)) : magnitude
  }

  /// `{` members `}`, the closing brace on a line of its own at `indent`; `{}` when there are none. Each
  /// member carries the line break before it.
  static func memberBlock(_ members: [MemberBlockItemSyntax], closingAt indent: Indent) -> MemberBlockSyntax {
    MemberBlockSyntax(
      leftBrace: .leftBraceToken(leadingTrivia: .space), members: MemberBlockItemListSyntax(members),
      rightBrace: .rightBraceToken(leadingTrivia: members.isEmpty ? [] : indent.line))
  }

  /// `{` statements `}`, likewise.
  static func codeBlock(_ statements: [CodeBlockItemSyntax], closingAt indent: Indent) -> CodeBlockSyntax {
    CodeBlockSyntax(
      leftBrace: .leftBraceToken(leadingTrivia: .space), statements: CodeBlockItemListSyntax(statements),
      rightBrace: .rightBraceToken(leadingTrivia: statements.isEmpty ? [] : indent.line))
  }

  /// ` = value` after `column` columns of a line at `indent`: the value on the line when it fits there,
  /// or when it can be broken and the part before its first break fits; else on the next line, one
  /// level in.
  static func initializer(_ value: Breakable, at indent: Indent, column: Int) -> InitializerClauseSyntax {
    let valueColumn = column + 3
    if valueColumn + value.width > width, valueColumn + value.headWidth > width {
      return InitializerClauseSyntax(
        equal: .equalToken(leadingTrivia: .space), value: value.expression(at: indent.inner, column: indent.inner.columns, leading: indent.inner.line)
      )
    }
    return InitializerClauseSyntax(
      equal: .equalToken(leadingTrivia: .space, trailingTrivia: .space), value: value.expression(at: indent, column: valueColumn))
  }

  /// `<modifiers> let name = value`.
  static func constant(_ modifiers: DeclModifierListSyntax, _ name: TokenSyntax, _ value: Breakable, at indent: Indent) -> VariableDeclSyntax {
    let column = indent.columns + width(modifiers) + "let ".utf8.count + name.text.utf8.count
    return VariableDeclSyntax(
      modifiers: modifiers, bindingSpecifier: .keyword(.let, trailingTrivia: .space),
      bindings: [
        PatternBindingSyntax(pattern: IdentifierPatternSyntax(identifier: name), initializer: initializer(value, at: indent, column: column))
      ])
  }

  /// `switch subject {`, the cases at the switch's own indentation (as swift-format writes them), `}`.
  static func switchStatement(_ subject: ExprSyntax, _ cases: [SwitchCaseSyntax], at indent: Indent) -> ExprSyntax {
    ExprSyntax(
      SwitchExprSyntax(
        switchKeyword: .keyword(.switch, trailingTrivia: .space), subject: subject, leftBrace: .leftBraceToken(leadingTrivia: .space),
        cases: SwitchCaseListSyntax(cases.map { .switchCase($0) }), rightBrace: .rightBraceToken(leadingTrivia: indent.line)))
  }

  /// `case a, b: return value` on a line at `indent` when it fits; else `return value` on the next line,
  /// one level in, and patterns that do not fit on the line one a line, the later ones one level in.
  static func switchCase(_ patterns: [ExprSyntax], returning value: Breakable, at indent: Indent) -> SwitchCaseSyntax {
    let labelWidth = "case :".utf8.count + patterns.reduce(0) { $0 + $1.totalLength.utf8Length } + 2 * (patterns.count - 1)
    let patternsFit = indent.columns + labelWidth <= width
    let items = patterns.enumerated().map { index, pattern in
      SwitchCaseItemSyntax(
        pattern: ExpressionPatternSyntax(expression: pattern),
        trailingComma: index < patterns.count - 1 ? .commaToken(trailingTrivia: patternsFit ? .space : []) : nil
      ).with(\.leadingTrivia, index > 0 && !patternsFit ? indent.inner.line : [])
    }
    let label = SwitchCaseLabelSyntax(caseKeyword: .keyword(.case, trailingTrivia: .space), caseItems: SwitchCaseItemListSyntax(items))
    let statement: ReturnStmtSyntax
    if patternsFit && indent.columns + labelWidth + " return ".utf8.count + value.width <= width {
      statement = ReturnStmtSyntax(returnKeyword: .keyword(.return, leadingTrivia: .space, trailingTrivia: .space), expression: value.flat)
    } else {
      let inner = indent.inner
      statement = ReturnStmtSyntax(
        returnKeyword: .keyword(.return, leadingTrivia: inner.line, trailingTrivia: .space),
        expression: value.expression(at: inner, column: inner.columns + "return ".utf8.count))
    }
    return SwitchCaseSyntax(label: .case(label), statements: [CodeBlockItemSyntax(item: .stmt(StmtSyntax(statement)))])
  }

  /// `default: return value`, on one line.
  static func defaultCase(returning value: ExprSyntax) -> SwitchCaseSyntax {
    let statement = ReturnStmtSyntax(returnKeyword: .keyword(.return, leadingTrivia: .space, trailingTrivia: .space), expression: value)
    return SwitchCaseSyntax(
      label: .default(SwitchDefaultLabelSyntax()), statements: [CodeBlockItemSyntax(item: .stmt(StmtSyntax(statement)))])
  }
}

/// The indentation of a line.
struct Indent {
  let depth: Int

  static let top = Indent(depth: 0)

  var columns: Int { 2 * depth }
  var inner: Indent { Indent(depth: depth + 1) }

  /// Before a line's first token: a line break and the indentation.
  var line: Trivia { depth == 0 ? .newline : [.newlines(1), .spaces(columns)] }
  /// The same after a blank line.
  var paragraph: Trivia { depth == 0 ? .newlines(2) : [.newlines(2), .spaces(columns)] }

  /// A doc comment line, then the line it documents.
  func documented(_ comment: String, afterBlankLine: Bool) -> Trivia {
    (afterBlankLine ? paragraph : line) + [SwiftSource.docComment(comment)] + line
  }
}

/// An expression before layout: written on one line when it fits, else broken one element a line.
indirect enum Breakable {
  /// A literal or a reference: never broken.
  case atom(ExprSyntax)
  /// `callee(label: value, ...)`; a call whose one argument is an array or a dictionary keeps its
  /// brackets beside its parentheses (`.only([`) when the collection breaks.
  case call(ExprSyntax, [Argument])
  case array([Breakable])
  case dictionary([(key: Breakable, value: Breakable)])

  struct Argument {
    var label: TokenSyntax?
    var value: Breakable

    init(_ label: TokenSyntax? = nil, _ value: Breakable) {
      self.label = label
      self.value = value
    }
  }

  /// Its width on one line.
  var width: Int {
    switch self {
    case .atom(let expression):
      return expression.totalLength.utf8Length
    case .call(let callee, let arguments):
      let labels = arguments.reduce(0) { $0 + ($1.label.map { $0.text.utf8.count + 2 } ?? 0) + $1.value.width }
      return callee.totalLength.utf8Length + 2 + labels + 2 * max(0, arguments.count - 1)
    case .array(let elements):
      return 2 + elements.reduce(0) { $0 + $1.width } + 2 * max(0, elements.count - 1)
    case .dictionary(let elements):
      guard !elements.isEmpty else { return 3 }
      return 2 + elements.reduce(0) { $0 + $1.key.width + 2 + $1.value.width } + 2 * (elements.count - 1)
    }
  }

  /// The width of what stands before its first line break when it is broken: all of it for what
  /// cannot break, `callee(` for a call, `[` for a collection.
  var headWidth: Int {
    switch self {
    case .atom: return width
    case .call(let callee, let arguments):
      guard !arguments.isEmpty else { return width }
      if arguments.count == 1, arguments[0].label == nil, arguments[0].value.isCollection {
        return callee.totalLength.utf8Length + 2
      }
      return callee.totalLength.utf8Length + 1
    case .array(let elements): return elements.isEmpty ? width : 1
    case .dictionary(let elements): return elements.isEmpty ? width : 1
    }
  }

  /// The expression starting at `column` of a line at `indent`, with `trailing` columns to follow it on
  /// its last line; `leading` is the trivia before it.
  func expression(at indent: Indent, column: Int, trailing: Int = 0, leading: Trivia = []) -> ExprSyntax {
    let expression = column + width + trailing <= SwiftLayout.width ? flat : broken(at: indent, trailing: trailing)
    return leading.isEmpty ? expression : expression.with(\.leadingTrivia, leading)
  }

  /// On one line.
  var flat: ExprSyntax {
    switch self {
    case .atom(let expression):
      return expression
    case .call(let callee, let arguments):
      return Self.call(
        callee,
        arguments.enumerated().map { index, argument in
          Self.labeled(argument.label, argument.value.flat, comma: index < arguments.count - 1 ? .commaToken(trailingTrivia: .space) : nil)
        }, closing: [])
    case .array(let elements):
      return ExprSyntax(
        ArrayExprSyntax(
          elements: ArrayElementListSyntax(
            elements.enumerated().map { index, element in
              ArrayElementSyntax(expression: element.flat, trailingComma: index < elements.count - 1 ? .commaToken(trailingTrivia: .space) : nil)
            })))
    case .dictionary(let elements):
      guard !elements.isEmpty else { return ExprSyntax(DictionaryExprSyntax(content: .colon(.colonToken()))) }
      return ExprSyntax(
        DictionaryExprSyntax(
          content: .elements(
            DictionaryElementListSyntax(
              elements.enumerated().map { index, element in
                DictionaryElementSyntax(
                  key: element.key.flat, colon: .colonToken(trailingTrivia: .space), value: element.value.flat,
                  trailingComma: index < elements.count - 1 ? .commaToken(trailingTrivia: .space) : nil)
              }))))
    }
  }

  /// Broken one element a line, the elements one level in from `indent` and the closing bracket at it.
  private func broken(at indent: Indent, trailing: Int) -> ExprSyntax {
    let inner = indent.inner
    switch self {
    case .atom(let expression):
      return expression
    case .call(let callee, let arguments):
      guard !arguments.isEmpty else { return flat }
      if arguments.count == 1, arguments[0].label == nil, arguments[0].value.isCollection {
        return Self.call(callee, [Self.labeled(nil, arguments[0].value.broken(at: indent, trailing: trailing + 1), comma: nil)], closing: [])
      }
      return Self.call(
        callee,
        arguments.enumerated().map { index, argument in
          let isLast = index == arguments.count - 1
          let labelWidth = argument.label.map { $0.text.utf8.count + 2 } ?? 0
          let value = argument.value.expression(at: inner, column: inner.columns + labelWidth, trailing: isLast ? 0 : 1)
          return Self.labeled(argument.label, value, comma: isLast ? nil : .commaToken()).with(\.leadingTrivia, inner.line)
        }, closing: indent.line)
    case .array(let elements):
      guard !elements.isEmpty else { return flat }
      return ExprSyntax(
        ArrayExprSyntax(
          elements: ArrayElementListSyntax(
            elements.map { element in
              ArrayElementSyntax(
                expression: element.expression(at: inner, column: inner.columns, trailing: 1, leading: inner.line), trailingComma: .commaToken())
            }),
          rightSquare: .rightSquareToken(leadingTrivia: indent.line)))
    case .dictionary(let elements):
      guard !elements.isEmpty else { return flat }
      return ExprSyntax(
        DictionaryExprSyntax(
          content: .elements(
            DictionaryElementListSyntax(
              elements.map { element in
                DictionaryElementSyntax(
                  key: element.key.flat.with(\.leadingTrivia, inner.line), colon: .colonToken(trailingTrivia: .space),
                  value: element.value.expression(at: inner, column: inner.columns + element.key.width + 2, trailing: 1), trailingComma: .commaToken()
                )
              })),
          rightSquare: .rightSquareToken(leadingTrivia: indent.line)))
    }
  }

  private var isCollection: Bool {
    switch self {
    case .array(let elements): return !elements.isEmpty
    case .dictionary(let elements): return !elements.isEmpty
    default: return false
    }
  }

  private static func labeled(_ label: TokenSyntax?, _ value: ExprSyntax, comma: TokenSyntax?) -> LabeledExprSyntax {
    LabeledExprSyntax(label: label, colon: label.map { _ in .colonToken(trailingTrivia: .space) }, expression: value, trailingComma: comma)
  }

  private static func call(_ callee: ExprSyntax, _ arguments: [LabeledExprSyntax], closing: Trivia) -> ExprSyntax {
    ExprSyntax(
      FunctionCallExprSyntax(
        calledExpression: callee, leftParen: .leftParenToken(), arguments: LabeledExprListSyntax(arguments),
        rightParen: .rightParenToken(leadingTrivia: closing)))
  }
}
