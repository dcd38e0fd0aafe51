import SwiftSyntax

/// The registry file: event IDs, handler IDs, rules, and the `TrackingRegistry` conformance, built as a
/// syntax tree from the generation model.
struct RegistryEmitter {
  let model: GenerationModel
  /// The namespace enum, and the module that provides the runtime.
  let name: ValidIdentifier
  let runtimeModule: ValidIdentifier
  let configFileName: String

  /// The file's statements, the first one after the header comment.
  func statements(header: Trivia) -> [CodeBlockItemSyntax] {
    let top = Indent.top
    let inner = top.inner
    let importDecl = ImportDeclSyntax(
      leadingTrivia: header + top.paragraph, importKeyword: .keyword(.import, trailingTrivia: .space),
      path: [ImportPathComponentSyntax(name: runtimeModule.token)])
    let members: [MemberBlockItemSyntax] = [
      MemberBlockItemSyntax(
        decl: SwiftLayout.constant(
          SwiftLayout.modifiers(.public, .static), .identifier("registry"), .call(SwiftLayout.reference([.identifier("Registry")]), []), at: inner
        ).with(\.leadingTrivia, inner.documented("The registry to give `Tracker`.", afterBlankLine: false))),
      MemberBlockItemSyntax(decl: eventIDs(at: inner)),
      MemberBlockItemSyntax(decl: handlers(at: inner)),
      MemberBlockItemSyntax(decl: rules(at: inner)),
      MemberBlockItemSyntax(decl: registry(at: inner).with(\.leadingTrivia, inner.paragraph)),
    ]
    let namespace = EnumDeclSyntax(
      leadingTrivia: top.documented("The events of \(configFileName), and the rules the tracker reads.", afterBlankLine: true),
      modifiers: SwiftLayout.modifiers(.public), enumKeyword: .keyword(.enum, trailingTrivia: .space), name: name.token,
      memberBlock: SwiftLayout.memberBlock(members, closingAt: top))
    return [CodeBlockItemSyntax(item: .decl(DeclSyntax(importDecl))), CodeBlockItemSyntax(item: .decl(DeclSyntax(namespace)))]
  }

  /// `public enum EventID: String, TrackingEventID, CaseIterable { case ... = "..." }`
  private func eventIDs(at indent: Indent) -> DeclSyntax {
    let inner = indent.inner
    let cases = model.eventIDs.map { event in
      let label = "case ".utf8.count + event.identifier.text.utf8.count
      let element = EnumCaseElementSyntax(
        name: event.identifier.token,
        rawValue: SwiftLayout.initializer(.atom(ExprSyntax(SwiftSource.stringLiteral(event.id))), at: inner, column: inner.columns + label))
      return MemberBlockItemSyntax(
        decl: EnumCaseDeclSyntax(leadingTrivia: inner.line, caseKeyword: .keyword(.case, trailingTrivia: .space), elements: [element]))
    }
    let inheritance = InheritanceClauseSyntax(
      colon: .colonToken(trailingTrivia: .space),
      inheritedTypes: InheritedTypeListSyntax(
        (["String", "TrackingEventID", "CaseIterable"] as [StaticString]).enumerated().map { index, type in
          InheritedTypeSyntax(type: SwiftLayout.type(type), trailingComma: index < 2 ? .commaToken(trailingTrivia: .space) : nil)
        }))
    return DeclSyntax(
      EnumDeclSyntax(
        leadingTrivia: indent.documented("Every event ID of the config, for code that tracks by hand.", afterBlankLine: true),
        modifiers: SwiftLayout.modifiers(.public), enumKeyword: .keyword(.enum, trailingTrivia: .space), name: .identifier("EventID"),
        inheritanceClause: inheritance, memberBlock: SwiftLayout.memberBlock(cases, closingAt: indent)))
  }

  /// `public enum Handler { public static let name = HandlerID(rawValue: 0) }`, each documented with its name.
  private func handlers(at indent: Indent) -> DeclSyntax {
    let inner = indent.inner
    let members = model.handlers.enumerated().map { index, handler in
      let value = Breakable.call(
        SwiftLayout.reference([.identifier("HandlerID")]), [Breakable.Argument(.identifier("rawValue"), .atom(SwiftLayout.integer(index)))])
      return MemberBlockItemSyntax(
        decl: SwiftLayout.constant(SwiftLayout.modifiers(.public, .static), handler.identifier.token, value, at: inner)
          .with(\.leadingTrivia, inner.documented(handler.name, afterBlankLine: false)))
    }
    return DeclSyntax(
      EnumDeclSyntax(
        leadingTrivia: indent.documented("The handlers the config maps, numbered (the generated interceptors pass these).", afterBlankLine: true),
        modifiers: SwiftLayout.modifiers(.public), enumKeyword: .keyword(.enum, trailingTrivia: .space), name: .identifier("Handler"),
        memberBlock: SwiftLayout.memberBlock(members, closingAt: indent)))
  }

  /// `enum Rules { static let name = EventRule(eventID:routing:properties:) }`
  private func rules(at indent: Indent) -> DeclSyntax {
    let inner = indent.inner
    let members = model.rules.map { rule in
      let routing: Breakable
      switch rule.routing {
      case .unrestricted:
        routing = .atom(SwiftLayout.implicitMember(.identifier("unrestricted")))
      case .only(let destinations):
        routing = .call(
          SwiftLayout.implicitMember(.identifier("only")),
          [Breakable.Argument(nil, .array(destinations.map { .atom(ExprSyntax(SwiftSource.stringLiteral($0))) }))])
      }
      var arguments = [
        Breakable.Argument(.identifier("eventID"), .atom(ExprSyntax(SwiftSource.stringLiteral(rule.eventID)))),
        Breakable.Argument(.identifier("routing"), routing),
      ]
      // No properties is `EventRule`'s default.
      if !rule.properties.isEmpty {
        let properties = rule.properties.map { (key: Breakable.atom(ExprSyntax(SwiftSource.stringLiteral($0.key))), value: literal($0.value)) }
        arguments.append(Breakable.Argument(.identifier("properties"), .dictionary(properties)))
      }
      let value = Breakable.call(SwiftLayout.reference([.identifier("EventRule")]), arguments)
      return MemberBlockItemSyntax(
        decl: SwiftLayout.constant(SwiftLayout.modifiers(.static), rule.identifier.token, value, at: inner).with(\.leadingTrivia, inner.line))
    }
    return DeclSyntax(
      EnumDeclSyntax(
        leadingTrivia: indent.documented("One rule per mapping, with its routing resolved.", afterBlankLine: true),
        enumKeyword: .keyword(.enum, trailingTrivia: .space), name: .identifier("Rules"),
        memberBlock: SwiftLayout.memberBlock(members, closingAt: indent)))
  }

  private func literal(_ value: PropertyValue) -> Breakable {
    let (kind, argument): (String, ExprSyntax)
    switch value {
    case .string(let string): (kind, argument) = ("string", ExprSyntax(SwiftSource.stringLiteral(string)))
    case .int(let int): (kind, argument) = ("int", SwiftLayout.integer(int))
    case .double(let double): (kind, argument) = ("double", SwiftLayout.double(double))
    case .bool(let bool): (kind, argument) = ("bool", ExprSyntax(BooleanLiteralExprSyntax(literal: .keyword(bool ? .true : .false))))
    }
    return .call(SwiftLayout.implicitMember(.identifier(kind)), [Breakable.Argument(nil, .atom(argument))])
  }

  /// `public struct Registry: TrackingRegistry`: every lookup a `switch`.
  private func registry(at indent: Indent) -> DeclSyntax {
    let inner = indent.inner
    let screenID = { (index: Int) in
      Breakable.call(
        SwiftLayout.reference([.identifier("ScreenID")]), [Breakable.Argument(.identifier("rawValue"), .atom(SwiftLayout.integer(index)))])
    }
    let ruleReference = { (rule: Int) in
      Breakable.atom(SwiftLayout.reference([.identifier("Rules"), model.rules[rule].identifier.token]))
    }
    let nilLiteral = ExprSyntax(NilLiteralExprSyntax())
    let emptyString = ExprSyntax(SwiftSource.stringLiteral(""))
    var members: [MemberBlockItemSyntax] = [
      MemberBlockItemSyntax(
        decl: InitializerDeclSyntax(
          leadingTrivia: inner.line, modifiers: SwiftLayout.modifiers(.public),
          signature: FunctionSignatureSyntax(parameterClause: FunctionParameterClauseSyntax(parameters: [])),
          body: SwiftLayout.codeBlock([], closingAt: inner)))
    ]
    // Screens and handlers by the names the runtime sees.
    members.append(
      lookup(
        "screen", ("named", "name", "String"), returns: "ScreenID", optional: true, on: ["name"],
        model.screens.enumerated().map { (patterns: $0.element.runtimeNames.map(Self.string), value: screenID($0.offset)) }, otherwise: nilLiteral,
        at: inner))
    members.append(
      lookup(
        "handler", ("named", "name", "String"), returns: "HandlerID", optional: true, on: ["name"],
        model.handlers.map {
          (patterns: $0.lookupNames.map(Self.string), value: .atom(SwiftLayout.reference([.identifier("Handler"), $0.identifier.token])))
        },
        otherwise: nilLiteral, at: inner))
    members.append(pageRule(at: inner, ruleReference: ruleReference))
    members.append(controlRule(at: inner, ruleReference: ruleReference))
    members.append(
      lookup(
        "rule", ("eventID", nil, "String"), returns: "EventRule", optional: true, on: ["eventID"],
        model.firstRule.map { (patterns: [Self.string($0.id)], value: ruleReference($0.rule)) }, otherwise: nilLiteral, at: inner))
    members.append(
      lookup(
        "name", ("of", "screen", "ScreenID"), returns: "String", optional: false, on: ["screen", "rawValue"],
        model.screens.enumerated().map { (patterns: [SwiftLayout.integer($0.offset)], value: .atom(Self.string($0.element.name))) },
        otherwise: emptyString, at: inner))
    members.append(
      lookup(
        "name", ("of", "handler", "HandlerID"), returns: "String", optional: false, on: ["handler", "rawValue"],
        model.handlers.enumerated().map { (patterns: [SwiftLayout.integer($0.offset)], value: .atom(Self.string($0.element.name))) },
        otherwise: emptyString, at: inner))
    return DeclSyntax(
      StructDeclSyntax(
        modifiers: SwiftLayout.modifiers(.public), structKeyword: .keyword(.struct, trailingTrivia: .space), name: .identifier("Registry"),
        inheritanceClause: InheritanceClauseSyntax(
          colon: .colonToken(trailingTrivia: .space), inheritedTypes: [InheritedTypeSyntax(type: SwiftLayout.type("TrackingRegistry"))]),
        memberBlock: SwiftLayout.memberBlock(members, closingAt: indent)))
  }

  private static func string(_ text: String) -> ExprSyntax { ExprSyntax(SwiftSource.stringLiteral(text)) }

  /// `public func pageRule(screen: ScreenID, phase: PagePhase) -> EventRule?`: by screen, then by phase.
  private func pageRule(at indent: Indent, ruleReference: (Int) -> Breakable) -> MemberBlockItemSyntax {
    let body = indent.inner
    let phase = SwiftLayout.reference([.identifier("phase")])
    var cases: [SwitchCaseSyntax] = []
    for (index, screen) in model.screens.enumerated() where !screen.pageRules.isEmpty {
      let inner = body.inner
      var phases = screen.pageRules.map { page in
        SwiftLayout.switchCase([SwiftLayout.implicitMember(.identifier(page.phase.rawValue))], returning: ruleReference(page.rule), at: inner)
          .with(\.leadingTrivia, inner.line)
      }
      // A `default` when some phase has no rule (with every phase, it would never run: a warning).
      if screen.pageRules.count < TrackingConfig.PagePhase.allCases.count {
        phases.append(SwiftLayout.defaultCase(returning: ExprSyntax(NilLiteralExprSyntax())).with(\.leadingTrivia, inner.line))
      }
      let statement = CodeBlockItemSyntax(leadingTrivia: inner.line, item: .expr(SwiftLayout.switchStatement(phase, phases, at: inner)))
      cases.append(screenCase(index, [statement], at: body))
    }
    return function(
      "pageRule", [("screen", nil, "ScreenID"), ("phase", nil, "PagePhase")], returns: "EventRule", optional: true,
      body: switchOnRawValue("screen", cases, at: body), at: indent)
  }

  /// `public func controlRule(screen: ScreenID, handler: HandlerID) -> EventRule?`: by screen, then by handler.
  private func controlRule(at indent: Indent, ruleReference: (Int) -> Breakable) -> MemberBlockItemSyntax {
    let body = indent.inner
    var cases: [SwitchCaseSyntax] = []
    for (index, screen) in model.screens.enumerated() where !screen.controlRules.isEmpty {
      let inner = body.inner
      let handlers =
        screen.controlRules.map { control in
          SwiftLayout.switchCase([SwiftLayout.integer(control.handler)], returning: ruleReference(control.rule), at: inner).with(
            \.leadingTrivia, inner.line)
        } + [SwiftLayout.defaultCase(returning: ExprSyntax(NilLiteralExprSyntax())).with(\.leadingTrivia, inner.line)]
      let subject = SwiftLayout.reference([.identifier("handler"), .identifier("rawValue")])
      let statement = CodeBlockItemSyntax(leadingTrivia: inner.line, item: .expr(SwiftLayout.switchStatement(subject, handlers, at: inner)))
      cases.append(screenCase(index, [statement], at: body))
    }
    return function(
      "controlRule", [("screen", nil, "ScreenID"), ("handler", nil, "HandlerID")], returns: "EventRule", optional: true,
      body: switchOnRawValue("screen", cases, at: body), at: indent)
  }

  /// `case 3:` and its statements, on the lines below.
  private func screenCase(_ index: Int, _ statements: [CodeBlockItemSyntax], at indent: Indent) -> SwitchCaseSyntax {
    SwitchCaseSyntax(
      leadingTrivia: indent.line,
      label: .case(
        SwitchCaseLabelSyntax(
          caseKeyword: .keyword(.case, trailingTrivia: .space),
          caseItems: [SwitchCaseItemSyntax(pattern: ExpressionPatternSyntax(expression: SwiftLayout.integer(index)))])),
      statements: CodeBlockItemListSyntax(statements))
  }

  /// `switch subject.rawValue { cases; default: return nil }` as a function body.
  private func switchOnRawValue(_ subject: StaticString, _ cases: [SwitchCaseSyntax], at indent: Indent) -> [CodeBlockItemSyntax] {
    let all = cases + [SwiftLayout.defaultCase(returning: ExprSyntax(NilLiteralExprSyntax())).with(\.leadingTrivia, indent.line)]
    let switchExpr = SwiftLayout.switchStatement(SwiftLayout.reference([.identifier(subject.description), .identifier("rawValue")]), all, at: indent)
    return [CodeBlockItemSyntax(leadingTrivia: indent.line, item: .expr(switchExpr))]
  }

  /// A function that is one `switch`: each case returns its value.
  private func lookup(
    _ name: StaticString, _ parameter: (label: StaticString, name: StaticString?, type: StaticString), returns: StaticString, optional: Bool,
    on subject: [StaticString],
    _ cases: [(patterns: [ExprSyntax], value: Breakable)], otherwise: ExprSyntax, at indent: Indent
  ) -> MemberBlockItemSyntax {
    let body = indent.inner
    let switchCases =
      cases.filter { !$0.patterns.isEmpty }.map { entry in
        SwiftLayout.switchCase(entry.patterns, returning: entry.value, at: body).with(\.leadingTrivia, body.line)
      } + [SwiftLayout.defaultCase(returning: otherwise).with(\.leadingTrivia, body.line)]
    let switchExpr = SwiftLayout.switchStatement(SwiftLayout.reference(subject.map { .identifier($0.description) }), switchCases, at: body)
    return function(
      name, [parameter], returns: returns, optional: optional, body: [CodeBlockItemSyntax(leadingTrivia: body.line, item: .expr(switchExpr))],
      at: indent)
  }

  /// `public func name(label name: Type, ...) -> Result { body }`, after a blank line: the signatures of
  /// `TrackingRegistry`.
  private func function(
    _ name: StaticString, _ parameters: [(label: StaticString, name: StaticString?, type: StaticString)], returns: StaticString, optional: Bool,
    body: [CodeBlockItemSyntax], at indent: Indent
  ) -> MemberBlockItemSyntax {
    let parameterList = parameters.enumerated().map { index, parameter in
      FunctionParameterSyntax(
        firstName: .identifier(parameter.label.description, trailingTrivia: parameter.name == nil ? [] : .space),
        secondName: parameter.name.map { TokenSyntax.identifier($0.description) },
        colon: .colonToken(trailingTrivia: .space), type: SwiftLayout.type(parameter.type),
        trailingComma: index < parameters.count - 1 ? .commaToken(trailingTrivia: .space) : nil)
    }
    let result = optional ? TypeSyntax(OptionalTypeSyntax(wrappedType: SwiftLayout.type(returns))) : SwiftLayout.type(returns)
    let signature = FunctionSignatureSyntax(
      parameterClause: FunctionParameterClauseSyntax(parameters: FunctionParameterListSyntax(parameterList)),
      returnClause: ReturnClauseSyntax(arrow: .arrowToken(leadingTrivia: .space, trailingTrivia: .space), type: result))
    return MemberBlockItemSyntax(
      decl: FunctionDeclSyntax(
        leadingTrivia: indent.paragraph, modifiers: SwiftLayout.modifiers(.public), funcKeyword: .keyword(.func, trailingTrivia: .space),
        name: .identifier(name.description), signature: signature, body: SwiftLayout.codeBlock(body, closingAt: indent)))
  }
}
