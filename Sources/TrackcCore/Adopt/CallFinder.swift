import SwiftSyntax

/// Finds the analytics calls of one parsed file: each call matching a `CallPattern`, with its event name,
/// its properties, the function and type it is written in, and what makes its firing conditional.
final class CallFinder: SyntaxVisitor {
  struct Settings: Sendable {
    var patterns: [CallPattern]
    var names: EventNameTable
    var eventEnum: String?
    var nameProperty: String?
    var nameCase: EventNameTable.NameCase
  }

  private let file: String
  private let lines: LineTable
  private let settings: Settings
  private(set) var calls: [AnalyticsCall] = []
  /// At most this many calls are kept per file (a generated file of a million calls costs no more).
  static let limit = 10_000

  init(file: String, lines: LineTable, settings: Settings) {
    self.file = file
    self.lines = lines
    self.settings = settings
    super.init(viewMode: .sourceAccurate)
  }

  /// The calls of a file, in order.
  static func calls(in tree: SourceFileSyntax, file: String, lines: LineTable, settings: Settings) -> [AnalyticsCall] {
    let finder = CallFinder(file: file, lines: lines, settings: settings)
    finder.walk(tree)
    return finder.calls
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    guard calls.count < Self.limit else { return .skipChildren }
    if let call = read(node) { calls.append(call) }
    return .visitChildren
  }

  // MARK: Matching

  private func read(_ node: FunctionCallExprSyntax) -> AnalyticsCall? {
    let receiver: String?
    let baseName: String
    if let member = node.calledExpression.as(MemberAccessExprSyntax.self) {
      guard let base = member.base else { return nil }
      receiver = base.trimmedDescription.filter { !$0.isWhitespace }
      baseName = member.declName.baseName.text.trimmingBackticks
    } else if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) {
      receiver = nil
      baseName = reference.baseName.text.trimmingBackticks
    } else {
      return nil
    }
    let arguments = Array(node.arguments)
    let labels = arguments.map { $0.label?.text.trimmingBackticks }
    // Of the patterns that match, the one naming most of the call's arguments (the first of those).
    var best: (pattern: CallPattern, positions: [Int?], unnamed: Int)?
    for pattern in settings.patterns where pattern.baseName == baseName {
      guard Self.receiverMatches(pattern.receiver, receiver), let positions = Self.positions(of: pattern.labels, in: labels) else { continue }
      let unnamed = pattern.fixedName != nil ? 0 : arguments.count - positions.compactMap { $0 }.count
      if best == nil || unnamed < best!.unnamed { best = (pattern, positions, unnamed) }
    }
    guard let (pattern, positions, _) = best else { return nil }
    // Amplitude's `track(event: BaseEvent(eventType:eventProperties:))` has Mixpanel's labels.
    if pattern.origin == "Mixpanel", let event = arguments.first?.expression.as(FunctionCallExprSyntax.self),
      event.calledExpression.trimmedDescription == "BaseEvent"
    {
      return amplitudeEvent(node, event: event)
    }
    return make(node, pattern: pattern, arguments: arguments, positions: positions)
  }

  /// A pattern's receiver is the call's, the start of it (`Analytics.shared`) or its end (`Module.Analytics`).
  static func receiverMatches(_ wanted: String?, _ actual: String?) -> Bool {
    guard let wanted else { return true }
    guard let actual else { return false }
    return actual == wanted || actual.hasPrefix(wanted + ".") || actual.hasSuffix("." + wanted)
  }

  /// Where each of the pattern's labels is among the call's: the first argument is the pattern's first,
  /// the others follow in order (arguments with default values may sit between them or be left out,
  /// but the first one, the event, must be there).
  static func positions(of wanted: [String?], in actual: [String?]) -> [Int?]? {
    guard let first = wanted.first else { return actual.isEmpty ? [] : nil }
    guard actual.first.map({ $0 == first }) == true else { return nil }
    var result: [Int?] = [0]
    var next = 1
    for label in wanted.dropFirst() {
      if let found = actual[next...].firstIndex(where: { $0 == label }) {
        result.append(found)
        next = found + 1
      } else {
        result.append(nil)
      }
    }
    return result
  }

  private func make(_ node: FunctionCallExprSyntax, pattern: CallPattern, arguments: [LabeledExprSyntax], positions: [Int?]) -> AnalyticsCall {
    let name: AnalyticsCall.EventName
    var properties = AnalyticsCall.Properties.none
    var extraStatements: [Range<Int>] = []
    if let fixed = pattern.fixedName {
      name = .known(fixed, how: "the name \(pattern.origin) sends")
      properties = .literal(
        arguments.map { argument in
          let label = argument.label?.text.trimmingBackticks
          let (value, text) = propertyValue(argument.expression)
          return AnalyticsCall.Property(
            key: label, keyText: label ?? "_", value: value, valueText: text, location: location(of: argument))
        })
    } else {
      let nameExpression = pattern.nameArgument.flatMap { positions[$0] }.map { arguments[$0].expression }
      name =
        nameExpression.map {
          settings.names.eventName(of: $0, eventEnum: settings.eventEnum, nameProperty: settings.nameProperty, nameCase: settings.nameCase)
        } ?? .unknown(expression: "", why: "the call gives no name")
      if let index = pattern.propertiesArgument.flatMap({ positions[$0] }) {
        (properties, extraStatements) = readProperties(arguments[index].expression, call: node)
      }
      // `source: .player` of `Analytics.track(_:source:properties:)`: a property named by its label.
      var labelled: [AnalyticsCall.Property] = []
      for wanted in pattern.labelledProperties {
        guard let index = positions[wanted], let label = pattern.labels[wanted] else { continue }
        let (value, text) = propertyValue(arguments[index].expression)
        labelled.append(AnalyticsCall.Property(key: label, keyText: label, value: value, valueText: text, location: location(of: arguments[index])))
      }
      if !labelled.isEmpty {
        switch properties {
        case .none: properties = .literal(labelled)
        case .literal(let literal): properties = .literal(labelled + literal)
        case .opaque: break
        }
      }
    }
    var call = finish(node, origin: pattern.origin, isScreenCall: pattern.isScreenCall, name: name, properties: properties, extra: extraStatements)
    if pattern.fixedName == nil {
      let named = Set(positions.compactMap { $0 })
      call.extraArguments = arguments.indices.filter { !named.contains($0) }.map { arguments[$0].label?.text ?? "_" }
    }
    // A trailing closure (a completion handler) runs code of its own.
    if node.trailingClosure != nil || !node.additionalTrailingClosures.isEmpty { call.extraArguments.append("a trailing closure") }
    return call
  }

  private func amplitudeEvent(_ node: FunctionCallExprSyntax, event: FunctionCallExprSyntax) -> AnalyticsCall? {
    let arguments = Array(event.arguments)
    guard let typeArgument = arguments.first(where: { $0.label?.text == "eventType" }) else { return nil }
    let name = settings.names.eventName(
      of: typeArgument.expression, eventEnum: settings.eventEnum, nameProperty: settings.nameProperty, nameCase: settings.nameCase)
    var properties = AnalyticsCall.Properties.none
    var extra: [Range<Int>] = []
    if let argument = arguments.first(where: { $0.label?.text == "eventProperties" }) {
      (properties, extra) = readProperties(argument.expression, call: node)
    }
    if arguments.contains(where: { $0.label?.text != "eventType" && $0.label?.text != "eventProperties" }) {
      properties = .opaque(event.trimmedDescription)
    }
    var call = finish(node, origin: "Amplitude-Swift", isScreenCall: false, name: name, properties: properties, extra: extra)
    call.extraArguments = node.arguments.dropFirst().map { $0.label?.text ?? "_" }
    if node.trailingClosure != nil || !node.additionalTrailingClosures.isEmpty { call.extraArguments.append("a trailing closure") }
    return call
  }

  private func finish(
    _ node: FunctionCallExprSyntax, origin: String, isScreenCall: Bool, name: AnalyticsCall.EventName, properties: AnalyticsCall.Properties,
    extra: [Range<Int>]
  ) -> AnalyticsCall {
    let (type, function, contexts) = surroundings(of: Syntax(node))
    var removal: AnalyticsCall.Removal?
    if let statement = Self.statement(of: node) {
      removal = AnalyticsCall.Removal(statements: (extra + [statement.byteRange]).sorted { $0.lowerBound < $1.lowerBound })
    }
    return AnalyticsCall(
      origin: origin, isScreenCall: isScreenCall, name: name, properties: properties, location: location(of: node), enclosingType: type,
      function: function, contexts: contexts, removal: removal)
  }

  // MARK: Properties

  /// A dictionary literal, or a local `let` introduced only for this call whose value is one (its
  /// statement is then removed with the call's).
  private func readProperties(_ expression: ExprSyntax, call: FunctionCallExprSyntax) -> (AnalyticsCall.Properties, [Range<Int>]) {
    if expression.is(NilLiteralExprSyntax.self) { return (.none, []) }
    if let dictionary = expression.as(DictionaryExprSyntax.self) { return (.literal(read(dictionary)), []) }
    if let reference = expression.as(DeclReferenceExprSyntax.self), let local = Self.localDictionary(named: reference.baseName.text, before: call) {
      return (.literal(read(local.dictionary)), [local.statement])
    }
    return (.opaque(expression.trimmedDescription), [])
  }

  private func read(_ dictionary: DictionaryExprSyntax) -> [AnalyticsCall.Property] {
    guard case .elements(let elements) = dictionary.content else { return [] }
    return elements.map { element in
      let key = Self.stringLiteral(element.key)
      let (value, text) = propertyValue(element.value)
      return AnalyticsCall.Property(key: key, keyText: element.key.trimmedDescription, value: value, valueText: text, location: location(of: element))
    }
  }

  private func propertyValue(_ expression: ExprSyntax) -> (AnalyticsCall.PropertyValue, String) {
    let text = expression.trimmedDescription
    if let string = Self.stringLiteral(expression) { return (.string(string), text) }
    if let integer = expression.as(IntegerLiteralExprSyntax.self) {
      return (.number(integer.literal.text.filter { $0 != "_" }, isInteger: true), text)
    }
    if let float = expression.as(FloatLiteralExprSyntax.self) { return (.number(float.literal.text.filter { $0 != "_" }, isInteger: false), text) }
    if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
      if let integer = prefix.expression.as(IntegerLiteralExprSyntax.self) {
        return (.number("-" + integer.literal.text.filter { $0 != "_" }, isInteger: true), text)
      }
      if let float = prefix.expression.as(FloatLiteralExprSyntax.self) {
        return (.number("-" + float.literal.text.filter { $0 != "_" }, isInteger: false), text)
      }
    }
    if let bool = expression.as(BooleanLiteralExprSyntax.self) { return (.bool(bool.literal.tokenKind == .keyword(.true)), text) }
    if let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil {
      return (.name(reference.baseName.text.trimmingBackticks), text)
    }
    if let path = Self.selfPath(expression) { return (.selfPath(path), text) }
    return (.expression(text), text)
  }

  /// `self.cart.total` -> `["cart", "total"]`; nil for anything but a chain of plain names from `self`.
  static func selfPath(_ expression: ExprSyntax) -> [String]? {
    guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.argumentNames == nil, let base = member.base else { return nil }
    let name = member.declName.baseName.text.trimmingBackticks
    if base.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) { return [name] }
    return selfPath(base).map { $0 + [name] }
  }

  /// A string literal without interpolation, as the string it is; nil otherwise.
  static func stringLiteral(_ expression: ExprSyntax) -> String? {
    guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
    var result = ""
    for segment in literal.segments {
      guard let text = segment.as(StringSegmentSyntax.self) else { return nil }
      guard
        let unescaped = unescape(
          text.content.text, raw: literal.openingPounds != nil, multiline: literal.openingQuote.tokenKind == .multilineStringQuote)
      else {
        return nil
      }
      result += unescaped
    }
    return result
  }

  /// A literal segment's text as the string it stands for: `\n`, `\t`, `\0`, `\\`, `\"`, `\'`, `\r`,
  /// `\u{...}`; nil for anything else (a raw string's `\#(...)` is interpolation, already excluded).
  private static func unescape(_ text: String, raw: Bool, multiline: Bool) -> String? {
    if raw { return text.contains("\\#") ? nil : text }
    guard text.contains("\\") else { return text }
    var result = ""
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      guard scalar == "\\" else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalars.next() {
      case "n": result += "\n"
      case "t": result += "\t"
      case "r": result += "\r"
      case "0": result += "\0"
      case "\\": result += "\\"
      case "\"": result += "\""
      case "'": result += "'"
      case "u":
        guard scalars.next() == "{" else { return nil }
        var hex = ""
        while let digit = scalars.next(), digit != "}" { hex.unicodeScalars.append(digit) }
        guard hex.count <= 8, let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) else { return nil }
        result.unicodeScalars.append(decoded)
      default:
        return nil  // a line continuation of a multi-line literal, or invalid
      }
    }
    return multiline ? nil : result
  }

  /// `let properties = [...]` just before the call's statement, in the same block, used nowhere else in it.
  private static func localDictionary(named name: String, before call: FunctionCallExprSyntax) -> (
    dictionary: DictionaryExprSyntax, statement: Range<Int>
  )? {
    guard let statement = statement(of: call), let list = statement.parent?.as(CodeBlockItemListSyntax.self) else { return nil }
    let items = Array(list)
    guard let index = items.firstIndex(where: { $0.id == statement.id }), index > 0 else { return nil }
    let previous = items[index - 1]
    guard let declaration = previous.item.as(VariableDeclSyntax.self), declaration.bindings.count == 1, let binding = declaration.bindings.first,
      binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name,
      let dictionary = binding.initializer?.value.as(DictionaryExprSyntax.self)
    else { return nil }
    // Used by this call alone: the name appears once in the block after its declaration.
    let uses = items.dropFirst(index).reduce(0) { count, item in
      count + ReferenceCounter.count(name, in: Syntax(item))
    }
    guard uses == 1 else { return nil }
    return (dictionary, previous.byteRange)
  }

  /// The statement the call is, when it is one of its own (`track(...)`, `try? track(...)`, `await ...`).
  static func statement(of call: FunctionCallExprSyntax) -> CodeBlockItemSyntax? {
    var node = Syntax(call)
    while let parent = node.parent {
      if let item = parent.as(CodeBlockItemSyntax.self) { return item }
      guard parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) || parent.is(ExpressionStmtSyntax.self) else { return nil }
      node = parent
    }
    return nil
  }

  // MARK: Surroundings

  /// The type and function the call is written in, and what makes its firing conditional.
  private func surroundings(of node: Syntax) -> (type: String?, function: AnalyticsCall.Function?, contexts: [AnalyticsCall.Context]) {
    var contexts: [AnalyticsCall.Context] = []
    var function: AnalyticsCall.Function?
    var types: [String] = []
    var child = node
    var current = node.parent
    while let parent = current {
      if function == nil {
        if let context = context(of: parent, child: child) { contexts.append(context) }
        if let codeBlock = parent.as(CodeBlockItemListSyntax.self), let exit = earlyExit(in: codeBlock, before: child) { contexts.append(exit) }
      }
      if function == nil, let declaration = parent.as(FunctionDeclSyntax.self) {
        function = Self.function(declaration)
      } else if function == nil, let declaration = parent.as(InitializerDeclSyntax.self) {
        function = AnalyticsCall.Function(
          name: "init(" + declaration.signature.parameterClause.parameters.map { ($0.firstName.text.trimmingBackticks) + ":" }.joined() + ")",
          isMethod: false, isStatic: false, parameters: [])
      } else if function == nil, let binding = parent.as(PatternBindingSyntax.self) {
        function = AnalyticsCall.Function(name: "var " + binding.pattern.trimmedDescription, isMethod: false, isStatic: false, parameters: [])
      } else if let declaration = parent.asProtocol(NamedDeclSyntax.self),
        parent.is(ClassDeclSyntax.self) || parent.is(StructDeclSyntax.self)
          || parent.is(EnumDeclSyntax.self) || parent.is(ActorDeclSyntax.self)
      {
        types.insert(declaration.name.text.trimmingBackticks, at: 0)
      } else if let extensionDecl = parent.as(ExtensionDeclSyntax.self) {
        types.insert(extensionDecl.extendedType.trimmedDescription.filter { !$0.isWhitespace }, at: 0)
      }
      child = parent
      current = parent.parent
    }
    if var method = function, !types.isEmpty {
      method.isMethod = true
      function = method
    }
    return (types.isEmpty ? nil : types.joined(separator: "."), function, contexts)
  }

  private static func function(_ declaration: FunctionDeclSyntax) -> AnalyticsCall.Function {
    let parameters = declaration.signature.parameterClause.parameters.map { parameter in
      let label = parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text.trimmingBackticks
      let name = (parameter.secondName ?? parameter.firstName).text.trimmingBackticks
      return (label: label, name: name, type: parameter.type.trimmedDescription)
    }
    let name = declaration.name.text.trimmingBackticks + "(" + parameters.map { ($0.label ?? "_") + ":" }.joined() + ")"
    let isStatic = declaration.modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    return AnalyticsCall.Function(name: name, isMethod: false, isStatic: isStatic, parameters: parameters)
  }

  /// What a node around the call makes of its firing, seen from the child the call is in.
  private func context(of parent: Syntax, child: Syntax) -> AnalyticsCall.Context? {
    func make(_ kind: AnalyticsCall.Context.Kind, _ what: String) -> AnalyticsCall.Context {
      AnalyticsCall.Context(kind: kind, what: what, line: lines.position(ofByteOffset: parent.positionAfterSkippingLeadingTrivia.utf8Offset).line)
    }
    if parent.is(ClosureExprSyntax.self) { return make(.closure, "inside a closure") }
    if parent.is(ForStmtSyntax.self) || parent.is(WhileStmtSyntax.self) || parent.is(RepeatStmtSyntax.self) { return make(.loop, "inside a loop") }
    if let ifExpr = parent.as(IfExprSyntax.self), child.id != ifExpr.conditions.id { return make(.condition, "inside an if") }
    if let guardStmt = parent.as(GuardStmtSyntax.self), child.id == guardStmt.body.id { return make(.condition, "inside a guard's else") }
    if parent.is(SwitchCaseSyntax.self) { return make(.condition, "inside a switch case") }
    if parent.is(CatchClauseSyntax.self) { return make(.condition, "inside a catch clause") }
    if parent.is(DeferStmtSyntax.self) { return make(.closure, "inside a defer block") }
    if let ternary = parent.as(TernaryExprSyntax.self), child.id != ternary.condition.id { return make(.condition, "inside a ?: branch") }
    if let infix = parent.as(InfixOperatorExprSyntax.self), child.id == infix.rightOperand.id,
      let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text, ["&&", "||", "??"].contains(op)
    {
      return make(.condition, "on the right of \(op)")
    }
    if let sequence = parent.as(SequenceExprSyntax.self) {
      let elements = Array(sequence.elements)
      if let index = elements.firstIndex(where: { $0.id == child.id }),
        elements[..<index].contains(where: { ["&&", "||", "??", "?"].contains($0.as(BinaryOperatorExprSyntax.self)?.operator.text ?? "") })
      {
        return make(.condition, "after a conditional operator")
      }
    }
    if let optionalChain = parent.as(OptionalChainingExprSyntax.self) {
      _ = optionalChain
      return make(.condition, "inside an optional chain")
    }
    return nil
  }

  /// A `guard`, `return`, `throw`, `break` or `continue` in a statement before the call's in the same
  /// block (outside closures): whether the call fires depends on it.
  private func earlyExit(in block: CodeBlockItemListSyntax, before child: Syntax) -> AnalyticsCall.Context? {
    for item in block {
      if item.id == child.id { break }
      if let exit = Self.firstExit(in: Syntax(item)) {
        return AnalyticsCall.Context(
          kind: .condition, what: "after an early exit", line: lines.position(ofByteOffset: exit.positionAfterSkippingLeadingTrivia.utf8Offset).line)
      }
    }
    return nil
  }

  private static func firstExit(in node: Syntax) -> Syntax? {
    if node.is(GuardStmtSyntax.self) || node.is(ReturnStmtSyntax.self) || node.is(ThrowStmtSyntax.self) || node.is(BreakStmtSyntax.self)
      || node.is(ContinueStmtSyntax.self)
    {
      return node
    }
    if node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) { return nil }
    for child in node.children(viewMode: .sourceAccurate) {
      if let found = firstExit(in: child) { return found }
    }
    return nil
  }

  private func location(of node: some SyntaxProtocol) -> SourceLocation {
    let position = lines.position(ofByteOffset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
    return SourceLocation(file: file, line: position.line, column: position.column)
  }
}

/// How many times a name is referred to (not how many tokens spell it: an argument label may).
private final class ReferenceCounter: SyntaxVisitor {
  let name: String
  var count = 0

  init(_ name: String) {
    self.name = name
    super.init(viewMode: .sourceAccurate)
  }

  static func count(_ name: String, in node: Syntax) -> Int {
    let counter = ReferenceCounter(name)
    counter.walk(node)
    return counter.count
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    if node.baseName.text.trimmingBackticks == name { count += 1 }
    return .visitChildren
  }
}

extension SyntaxProtocol {
  /// The node's text, without its leading and trailing trivia, as byte offsets.
  var byteRange: Range<Int> { positionAfterSkippingLeadingTrivia.utf8Offset..<endPositionBeforeTrailingTrivia.utf8Offset }
}
