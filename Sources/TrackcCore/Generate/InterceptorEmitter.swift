import SwiftSyntax

/// A file of dynamic replacements for one feature module: each mapped handler and each lifecycle method
/// carrying page events reports to `Interception` and runs the original. Built as a syntax tree from
/// the model's replacements, whose names and signatures are checked already.
struct InterceptorEmitter {
  let module: GenerationModel.Module
  /// The namespace enum of the registry, and the module that provides the runtime.
  let namespace: ValidIdentifier
  let runtimeModule: ValidIdentifier

  /// For the file name: the module, or `Sources` when the code gave none.
  var moduleFileStem: String { module.name.map { $0.map(\.text).joined(separator: ".") } ?? "Sources" }

  /// The file's statements; the explanation (and, in a file of its own, the header before it) leads.
  func statements(header: Trivia?) -> [CodeBlockItemSyntax] {
    let moduleText = module.name.map { "module " + $0.map(\.text).joined(separator: ".") } ?? "the sources"
    var explanation: Trivia = [
      SwiftSource.lineComment("Dynamic replacements for \(moduleText):"), .newlines(1),
      SwiftSource.lineComment("each method the config maps reports to Interception, then runs as before. That module is compiled"), .newlines(1),
      SwiftSource.lineComment("with -Xfrontend -enable-implicit-dynamic (and -enable-testing, for release builds, when its handlers"), .newlines(1),
      SwiftSource.lineComment("are internal); the module holding this file with -Xfrontend -enable-dynamic-replacement-chaining."),
    ]
    var items: [CodeBlockItemSyntax] = []
    if let header {
      explanation = header + [.newlines(1), .lineComment("//"), .newlines(1)] + explanation
      for (index, path) in imports().enumerated() {
        let decl = ImportDeclSyntax(
          leadingTrivia: index == 0 ? explanation + Indent.top.paragraph : Indent.top.line,
          attributes: path.testable ? [.attribute(AttributeSyntax(attributeName: SwiftLayout.type("testable"), trailingTrivia: .space))] : [],
          importKeyword: .keyword(.import, trailingTrivia: .space),
          path: ImportPathComponentListSyntax(
            path.module.enumerated().map { index, component in
              ImportPathComponentSyntax(name: component.token, trailingPeriod: index < path.module.count - 1 ? .periodToken() : nil)
            }))
        items.append(CodeBlockItemSyntax(item: .decl(DeclSyntax(decl))))
      }
    } else {
      explanation = Indent.top.paragraph + explanation
    }
    // One extension per owner, in the order of the sorted replacements.
    var owners: [[ValidIdentifier]] = []
    for replacement in module.replacements where !owners.contains(replacement.owner) { owners.append(replacement.owner) }
    for (index, owner) in owners.enumerated() {
      let indent = Indent.top.inner
      let members = module.replacements.filter { $0.owner == owner }.enumerated().map { index, replacement in
        MemberBlockItemSyntax(decl: self.replacement(replacement, at: indent).with(\.leadingTrivia, index == 0 ? indent.line : indent.paragraph))
      }
      let leading = index == 0 && header == nil ? explanation + Indent.top.paragraph : Indent.top.paragraph
      let decl = ExtensionDeclSyntax(
        leadingTrivia: leading, extensionKeyword: .keyword(.extension, trailingTrivia: .space), extendedType: SwiftLayout.type(owner),
        memberBlock: SwiftLayout.memberBlock(members, closingAt: .top))
      items.append(CodeBlockItemSyntax(item: .decl(DeclSyntax(decl))))
    }
    return items
  }

  /// The feature module (`@testable` when a replaced method is internal), the modules its files import,
  /// and the runtime; sorted by module name.
  func imports() -> [(testable: Bool, module: [ValidIdentifier])] {
    var modules: [String: [ValidIdentifier]] = [:]
    for replacement in module.replacements {
      for path in replacement.imports { modules[path.map(\.text).joined(separator: ".")] = path }
    }
    modules[runtimeModule.text] = [runtimeModule]
    var imports: [(testable: Bool, module: [ValidIdentifier])] = []
    if let name = module.name {
      modules[name.map(\.text).joined(separator: ".")] = nil
      imports.append((module.replacements.contains(where: \.needsTestableImport), name))
    }
    imports += modules.values.map { (false, $0) }
    return imports.sorted { UTF8Order.less($0.module.map(\.text).joined(separator: "."), $1.module.map(\.text).joined(separator: ".")) }
  }

  private func replacement(_ replacement: GenerationModel.Replacement, at indent: Indent) -> DeclSyntax {
    let signature = replacement.signature
    let body = indent.inner
    // `@_dynamicReplacement(for: name(labels:))`, the name on a line of its own when it is long.
    let argumentNames = DeclNameArgumentListSyntax(signature.parameters.map { DeclNameArgumentSyntax(name: $0.label?.token ?? .wildcardToken()) })
    let replaced = DeclReferenceExprSyntax(baseName: signature.baseName.token, argumentNames: DeclNameArgumentsSyntax(arguments: argumentNames))
    let isLong = indent.columns + "@_dynamicReplacement(for: )".utf8.count + replaced.totalLength.utf8Length > SwiftLayout.width
    let dynamicReplacement = AttributeSyntax(
      attributeName: SwiftLayout.type("_dynamicReplacement"), leftParen: .leftParenToken(),
      arguments: .dynamicReplacementArguments(
        DynamicReplacementAttributeArgumentsSyntax(
          forLabel: .keyword(.for, leadingTrivia: isLong ? indent.inner.line : []), colon: .colonToken(trailingTrivia: .space), declName: replaced)),
      rightParen: .rightParenToken(leadingTrivia: isLong ? indent.line : []), trailingTrivia: indent.line)
    var attributes: [AttributeListSyntax.Element] = [.attribute(dynamicReplacement)]
    if replacement.isMainActor {
      attributes.append(.attribute(AttributeSyntax(attributeName: SwiftLayout.type("MainActor"), trailingTrivia: .space)))
    }
    var modifiers: [Keyword] = [.private]
    if replacement.isNonisolated { modifiers.append(.nonisolated) }
    if replacement.isMutating { modifiers.append(.mutating) }
    let modifierList = DeclModifierListSyntax(modifiers.map { DeclModifierSyntax(name: .keyword($0, trailingTrivia: .space)) })

    // Scopes, then the original called directly: a call from inside a closure would reach this
    // replacement again.
    var statements: [CodeBlockItemSyntax] = []
    func scope(_ name: String, _ begin: String, _ arguments: [Breakable]) {
      let call = Breakable.call(
        SwiftLayout.reference([.identifier("Interception"), .identifier(begin)]), arguments.map { Breakable.Argument(nil, $0) })
      let constant = SwiftLayout.constant([], .identifier(name), call, at: body)
      statements.append(CodeBlockItemSyntax(leadingTrivia: body.line, item: .decl(DeclSyntax(constant))))
      let end = FunctionCallExprSyntax(
        calledExpression: SwiftLayout.reference([.identifier(name), .identifier("end")]), leftParen: .leftParenToken(), arguments: [],
        rightParen: .rightParenToken())
      let deferred = DeferStmtSyntax(
        deferKeyword: .keyword(.defer),
        body: CodeBlockSyntax(
          leftBrace: .leftBraceToken(leadingTrivia: .space, trailingTrivia: .space), statements: [CodeBlockItemSyntax(item: .expr(ExprSyntax(end)))],
          rightBrace: .rightBraceToken(leadingTrivia: .space)))
      statements.append(CodeBlockItemSyntax(leadingTrivia: body.line, item: .stmt(StmtSyntax(deferred))))
    }
    let this = Breakable.atom(ExprSyntax(DeclReferenceExprSyntax(baseName: .keyword(.self))))
    for phase in replacement.phases {
      scope(phase.rawValue, "beginPage", [this, .atom(SwiftLayout.implicitMember(.identifier(phase.rawValue)))])
    }
    if let handler = replacement.handlerIdentifier {
      scope("call", "beginControl", [this, .atom(SwiftLayout.reference([namespace.token, .identifier("Handler"), handler.token]))])
    }
    statements.append(callOriginal(signature, at: body))

    return DeclSyntax(
      FunctionDeclSyntax(
        attributes: AttributeListSyntax(attributes), modifiers: modifierList, funcKeyword: .keyword(.func, trailingTrivia: .space),
        name: signature.replacementName.token,
        signature: functionSignature(
          signature, at: indent,
          column: indent.columns + "func ".utf8.count + SwiftLayout.width(modifierList) + (replacement.isMainActor ? "@MainActor ".utf8.count : 0)
            + signature.replacementName.text.utf8.count),
        body: SwiftLayout.codeBlock(statements, closingAt: indent)))
  }

  /// `(label p0: Type, ...) effects -> Result`, the parameters one a line when the line would be too long.
  private func functionSignature(_ signature: ReplacementSignature, at indent: Indent, column: Int) -> FunctionSignatureSyntax {
    let effects = signature.effects.map { $0.with(\.leadingTrivia, .space) }
    let returnClause = signature.returnType.map { ReturnClauseSyntax(arrow: .arrowToken(leadingTrivia: .space, trailingTrivia: .space), type: $0) }
    let parameters = signature.parameters.enumerated().map { index, parameter in
      FunctionParameterSyntax(
        firstName: parameter.label?.token.with(\.trailingTrivia, .space) ?? .wildcardToken(trailingTrivia: .space),
        secondName: .identifier("p\(index)"),
        colon: .colonToken(trailingTrivia: .space), type: parameter.type)
    }
    let parametersWidth = parameters.reduce(0) { $0 + $1.totalLength.utf8Length } + 2 * max(0, parameters.count - 1)
    let lineWidth =
      column + 2 + parametersWidth + (effects?.totalLength.utf8Length ?? 0) + (returnClause?.totalLength.utf8Length ?? 0) + " {".utf8.count
    let broken = lineWidth > SwiftLayout.width && !parameters.isEmpty
    let list = parameters.enumerated().map { index, parameter in
      let isLast = index == parameters.count - 1
      return parameter.with(\.trailingComma, isLast ? nil : .commaToken(trailingTrivia: broken ? [] : .space))
        .with(\.leadingTrivia, broken ? indent.inner.line : [])
    }
    return FunctionSignatureSyntax(
      parameterClause: FunctionParameterClauseSyntax(
        parameters: FunctionParameterListSyntax(list), rightParen: .rightParenToken(leadingTrivia: broken ? indent.line : [])),
      effectSpecifiers: effects, returnClause: returnClause)
  }

  /// `return try original(label: p0, &p1)`.
  private func callOriginal(_ signature: ReplacementSignature, at indent: Indent) -> CodeBlockItemSyntax {
    let arguments = signature.parameters.enumerated().map { index, parameter in
      let name = ExprSyntax(DeclReferenceExprSyntax(baseName: .identifier("p\(index)")))
      return Breakable.Argument(parameter.label?.token, .atom(parameter.isInout ? ExprSyntax(InOutExprSyntax(expression: name)) : name))
    }
    let call = Breakable.call(SwiftLayout.reference([signature.baseName.token]), arguments)
    var column = indent.columns
    if signature.returnType != nil { column += "return ".utf8.count }
    if signature.isThrowing { column += "try ".utf8.count }
    var expression = call.expression(at: indent, column: column)
    if signature.isThrowing { expression = ExprSyntax(TryExprSyntax(tryKeyword: .keyword(.try, trailingTrivia: .space), expression: expression)) }
    guard signature.returnType != nil else { return CodeBlockItemSyntax(leadingTrivia: indent.line, item: .expr(expression)) }
    let statement = ReturnStmtSyntax(returnKeyword: .keyword(.return, trailingTrivia: .space), expression: expression)
    return CodeBlockItemSyntax(leadingTrivia: indent.line, item: .stmt(StmtSyntax(statement)))
  }
}
