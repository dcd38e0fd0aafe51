import SwiftSyntax

/// What the sources say about names an event may be given by: each enum's cases (with their raw values,
/// and the strings a `var name: String { switch self { ... } }` returns for them) and each string constant
/// (`static let checkout = "Checkout Tapped"`). Only what is written as a literal is read; a name built at
/// run time (interpolated, concatenated, transformed by a function) is not.
public struct EventNameTable: Sendable {
  public struct EnumCases: Sendable {
    /// The case names, with their raw values when written as a string literal.
    var cases: [String: String?] = [:]
    /// A `String` raw type (a case without a raw value has its name as raw value).
    var hasStringRawValue = false
    /// Per computed `String` property that switches over `self`: each case's literal, nil when its case
    /// returns something else (an interpolation, a call).
    var switchedNames: [String: [String: String?]] = [:]
  }

  /// By the enum's name, qualified by its enclosing types (`Pixel.Event`).
  var enums: [String: EnumCases] = [:]
  /// String constants by `Type.name` (or `name` at the top level).
  var constants: [String: String] = [:]

  /// How names from raw values or case names are sent (the wrapper may transform them).
  public enum NameCase: String, Sendable, CaseIterable {
    /// As written.
    case asWritten = "as-written"
    /// `accountDetailsChangeAvatar` -> `account_details_change_avatar`, `helloJSONWorld` -> `hello_json_world`.
    case snakeCase = "snake_case"
  }

  public init() {}

  mutating func add(_ tree: SourceFileSyntax) {
    let collector = Collector(viewMode: .sourceAccurate)
    collector.walk(tree)
    var table = EventNameTable()
    table.enums = collector.enums
    table.constants = collector.constants
    merge(table)
  }

  /// Adds another file's names (the first declaration of a name wins, as files come in path order).
  mutating func merge(_ other: EventNameTable) {
    for (name, cases) in other.enums {
      var merged = enums[name] ?? EnumCases()
      merged.cases.merge(cases.cases) { old, _ in old }
      merged.hasStringRawValue = merged.hasStringRawValue || cases.hasStringRawValue
      merged.switchedNames.merge(cases.switchedNames) { old, _ in old }
      enums[name] = merged
    }
    constants.merge(other.constants) { old, _ in old }
  }

  /// The event name an expression gives: a string literal, a constant, or a case of an enum of the sources.
  /// - Parameters:
  ///   - eventEnum: the enum the wrapper takes, when the user names it (otherwise the only enum with such
  ///     a case).
  ///   - nameProperty: the property whose `switch` gives each case's name (otherwise `name` or
  ///     `eventName` when the enum has one, else the raw value).
  func eventName(of expression: ExprSyntax, eventEnum: String?, nameProperty: String?, nameCase: NameCase) -> AnalyticsCall.EventName {
    let text = expression.trimmedDescription
    if let literal = CallFinder.stringLiteral(expression) { return .known(literal, how: "a string literal") }
    if expression.is(StringLiteralExprSyntax.self) {
      return .unknown(expression: text, why: "the string is built at run time")
    }
    // `.signIn`, `.appDidShow(time: t)`, `AnalyticsEvent.signIn`, `Pixel.Event.appLaunch`, `Events.checkout`.
    var member = expression.as(MemberAccessExprSyntax.self)
    if let call = expression.as(FunctionCallExprSyntax.self) { member = call.calledExpression.as(MemberAccessExprSyntax.self) }
    guard let member else {
      if let reference = expression.as(DeclReferenceExprSyntax.self), let value = constants[reference.baseName.text] {
        return .known(value, how: "the constant \(reference.baseName.text)")
      }
      return .unknown(expression: text, why: "the name is a value computed at run time")
    }
    let caseName = member.declName.baseName.text.trimmingBackticks
    let base = member.base?.trimmedDescription.filter { $0 != " " }
    if let base, let value = constants[base + "." + caseName] {
      return .known(value, how: "the constant \(base).\(caseName)")
    }
    let candidates: [String]
    if let eventEnum {
      candidates = [eventEnum]
    } else if let base, enums[base] != nil {
      candidates = [base]
    } else if let base {
      candidates = enums.keys.filter { $0.hasSuffix("." + base) }
    } else {
      candidates = enums.filter { $0.value.cases[caseName] != nil }.map(\.key)
    }
    guard candidates.count == 1, let enumName = candidates.first, let cases = enums[enumName], let rawValue = cases.cases[caseName] else {
      if candidates.count > 1 {
        return .unknown(
          expression: text, why: "several enums have a case '\(caseName)' (\(candidates.sorted().joined(separator: ", "))): name the event enum")
      }
      return .unknown(expression: text, why: "no enum of the sources declares a case '\(caseName)'")
    }
    let property = nameProperty ?? ["name", "eventName"].first { cases.switchedNames[$0] != nil }
    if let property {
      guard let switched = cases.switchedNames[property] else {
        return .unknown(expression: text, why: "\(enumName) has no 'var \(property): String' that switches over its cases")
      }
      guard let found = switched[caseName], let name = found else {
        return .unknown(expression: text, why: "\(enumName).\(property) does not return a string literal for .\(caseName)")
      }
      return .known(name, how: "\(enumName).\(property) of .\(caseName)")
    }
    guard let raw = rawValue ?? (cases.hasStringRawValue ? caseName : nil) else {
      return .unknown(expression: text, why: "\(enumName) has no string raw value and no 'name' that switches over its cases")
    }
    switch nameCase {
    case .asWritten: return .known(raw, how: "the raw value of \(enumName).\(caseName)")
    case .snakeCase: return .known(Self.snakeCase(raw), how: "the raw value of \(enumName).\(caseName), in snake_case")
    }
  }

  /// `helloJSONWorld` -> `hello_json_world`; `accountDetails2` -> `account_details_2`... as the common
  /// camel-case-to-snake-case helpers do: an underscore between a lowercase letter or digit and an
  /// uppercase letter, and before the last capital of a run of capitals followed by a lowercase letter.
  static func snakeCase(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    var result = ""
    for (index, scalar) in scalars.enumerated() {
      let isUpper = ("A"..."Z").contains(scalar)
      if index > 0, isUpper {
        let previous = scalars[index - 1]
        let previousIsLowerOrDigit = ("a"..."z").contains(previous) || ("0"..."9").contains(previous)
        let previousIsUpper = ("A"..."Z").contains(previous)
        let nextIsLower = index + 1 < scalars.count && ("a"..."z").contains(scalars[index + 1])
        if previousIsLowerOrDigit || (previousIsUpper && nextIsLower) { result += "_" }
      }
      result.unicodeScalars.append(scalar)
    }
    return result.lowercased()
  }

  private final class Collector: SyntaxVisitor {
    var enums: [String: EnumCases] = [:]
    var constants: [String: String] = [:]
    private var scopes: [(name: String, isEnum: Bool)] = []

    private var qualified: String { scopes.map(\.name).joined(separator: ".") }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
      scopes.append((node.name.text.trimmingBackticks, true))
      var cases = enums[qualified] ?? EnumCases()
      cases.hasStringRawValue = node.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription == "String"
      enums[qualified] = cases
      return .visitChildren
    }
    override func visitPost(_ node: EnumDeclSyntax) { scopes.removeLast() }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { push(node.name.text) }
    override func visitPost(_ node: ClassDeclSyntax) { scopes.removeLast() }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { push(node.name.text) }
    override func visitPost(_ node: StructDeclSyntax) { scopes.removeLast() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { push(node.name.text) }
    override func visitPost(_ node: ActorDeclSyntax) { scopes.removeLast() }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
      scopes.append((node.extendedType.trimmedDescription.filter { $0 != " " }, false))
      return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { scopes.removeLast() }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    private func push(_ name: String) -> SyntaxVisitorContinueKind {
      scopes.append((name.trimmingBackticks, false))
      return .visitChildren
    }

    override func visit(_ node: EnumCaseElementSyntax) -> SyntaxVisitorContinueKind {
      guard scopes.last?.isEnum == true else { return .skipChildren }
      let raw = node.rawValue.flatMap { CallFinder.stringLiteral($0.value) }
      enums[qualified, default: EnumCases()].cases[node.name.text.trimmingBackticks] = .some(raw)
      return .skipChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
      for binding in node.bindings {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text.trimmingBackticks else { continue }
        // `static let checkout = "Checkout Tapped"` (or a top-level `let`).
        if node.bindingSpecifier.tokenKind == .keyword(.let), let value = binding.initializer.flatMap({ CallFinder.stringLiteral($0.value) }),
          scopes.isEmpty || node.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
        {
          constants[scopes.isEmpty ? name : qualified + "." + name] = value
        }
        // `var name: String { switch self { case .a: return "a" ... } }` in an enum or its extension.
        if let accessor = binding.accessorBlock, binding.typeAnnotation?.type.trimmedDescription == "String",
          let switchExpr = Self.switchOverSelf(accessor), !scopes.isEmpty
        {
          var names: [String: String?] = [:]
          for element in switchExpr.cases {
            guard let switchCase = element.as(SwitchCaseSyntax.self), case .case(let label) = switchCase.label else { continue }
            let literal = Self.returnedLiteral(switchCase.statements)
            for item in label.caseItems {
              guard let caseName = Self.caseName(item.pattern) else { continue }
              if names[caseName] == nil { names[caseName] = .some(literal) }
            }
          }
          enums[qualified, default: EnumCases()].switchedNames[name] = names
        }
      }
      return .skipChildren
    }

    /// The `switch self` that is a getter's only statement (`return switch self` included).
    private static func switchOverSelf(_ accessor: AccessorBlockSyntax) -> SwitchExprSyntax? {
      var statements: CodeBlockItemListSyntax?
      switch accessor.accessors {
      case .getter(let items): statements = items
      case .accessors(let list): statements = list.first { $0.accessorSpecifier.tokenKind == .keyword(.get) }?.body?.statements
      }
      guard let statements, statements.count == 1, let item = statements.first?.item else { return nil }
      var expression: ExprSyntax?
      if let statement = item.as(ExpressionStmtSyntax.self) { expression = statement.expression }
      if let returned = item.as(ReturnStmtSyntax.self) { expression = returned.expression }
      if let plain = item.as(ExprSyntax.self) { expression = plain }
      guard let switchExpr = expression?.as(SwitchExprSyntax.self), switchExpr.subject.trimmedDescription == "self" else { return nil }
      return switchExpr
    }

    /// `return "m_install"` or `"m_install"`, alone in a case.
    private static func returnedLiteral(_ statements: CodeBlockItemListSyntax) -> String? {
      guard statements.count == 1, let item = statements.first?.item else { return nil }
      if let returned = item.as(ReturnStmtSyntax.self), let value = returned.expression { return CallFinder.stringLiteral(value) }
      if let statement = item.as(ExpressionStmtSyntax.self) { return CallFinder.stringLiteral(statement.expression) }
      if let expression = item.as(ExprSyntax.self) { return CallFinder.stringLiteral(expression) }
      return nil
    }

    /// `.appLaunch`, `.appDidShow(let time)`, `.appDidShow`.
    private static func caseName(_ pattern: PatternSyntax) -> String? {
      guard let expression = pattern.as(ExpressionPatternSyntax.self)?.expression else { return nil }
      if let member = expression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text.trimmingBackticks }
      if let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
        return member.declName.baseName.text.trimmingBackticks
      }
      return nil
    }
  }
}

extension String {
  var trimmingBackticks: String {
    hasPrefix("`") && hasSuffix("`") && count > 1 ? String(dropFirst().dropLast()) : self
  }
}
