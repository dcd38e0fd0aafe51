import SwiftParser
import SwiftSyntax

/// Reads one Swift file with swift-syntax's parser and collects its types, extensions and methods.
///
/// Only declarations matter, so bodies (of functions, closures, accessors) and top-level statements are
/// skipped: the walk costs a fraction of the parse. A file that is not valid Swift still yields what the
/// parser recovered, plus a problem at the first error.
enum SwiftFileScanner {
  static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> FileScan {
    if let problem = TextEncoding.problem(in: bytes) {
      let message: String
      var position = SourcePosition.start
      switch problem {
      case .utf16, .utf32: message = "the file is not UTF-8 (it starts with a UTF-16 or UTF-32 byte order mark); it was not read"
      case .invalidUTF8(let offset, let byte):
        position = TextEncoding.position(ofByteOffset: offset, in: bytes)
        message = "the file is not valid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)) here); it was not read"
      }
      return FileScan(problems: [ScanProblem(line: position.line, column: position.column, message: message)])
    }
    let tree = Parser.parse(source: bytes)
    let lines = LineTable(bytes)
    let collector = DeclarationCollector(lines: lines)
    collector.walk(tree)
    var scan = collector.scan
    let uses = HandlerUseCollector(lines: lines)
    uses.walk(tree)
    scan.uses = uses.uses
    if ViewReferenceCollector.isWorthWalking(bytes, importsSwiftUI: scan.imports.contains("SwiftUI")) {
      let references = ViewReferenceCollector(lines: lines, declarations: scan.declarations)
      references.walk(tree)
      references.finish()
      scan.references += references.references
    }
    if tree.hasError {
      let errors = SwiftParseErrors.errors(in: tree)
      if let first = errors.first {
        let position = lines.position(ofByteOffset: first.position.utf8Offset)
        let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
        scan.problems.append(
          ScanProblem(
            line: position.line, column: position.column,
            message: "this is not valid Swift: \(first.message)\(more); declarations after it may be missed"))
      }
    }
    return scan
  }
}

/// Byte offsets to 1-based lines and character columns, as trackc reports positions everywhere.
struct LineTable {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var lineStarts: [Int] = [0]

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
        lineStarts.append(index + 1)
      }
      index += 1
    }
  }

  /// A node's text as written, without its leading and trailing trivia.
  func text(of node: some SyntaxProtocol) -> String {
    text(from: node.positionAfterSkippingLeadingTrivia.utf8Offset, to: node.endPositionBeforeTrailingTrivia.utf8Offset)
  }

  /// The source text between two byte offsets.
  func text(from start: Int, to end: Int) -> String {
    let start = max(0, min(start, bytes.count))
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<max(start, min(end, bytes.count))]), as: UTF8.self)
  }

  /// Where a node starts, past its leading trivia, as the scanner records it.
  func scannedPosition(of node: some SyntaxProtocol) -> ScannedPosition {
    let start = position(ofByteOffset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
    return ScannedPosition(line: start.line, column: start.column)
  }

  func position(ofByteOffset offset: Int) -> SourcePosition {
    var low = 0
    var high = lineStarts.count
    while low + 1 < high {
      let middle = (low + high) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle }
    }
    var column = 1
    var index = lineStarts[low]
    while index < min(offset, bytes.count) {
      if bytes[index] & 0xC0 != 0x80 { column += 1 }
      index += 1
    }
    return SourcePosition(line: low + 1, column: column)
  }
}

private final class DeclarationCollector: SyntaxVisitor {
  private let lines: LineTable
  private(set) var scan = FileScan()
  private var contexts: [Context] = []
  private var conditionalDepth = 0

  private struct Context {
    /// The declaration's index in `scan.declarations`.
    var owner: Int
    var name: String
    /// Members are in a generic context (a generic type, or a constrained extension).
    var isGeneric: Bool
    /// The `@available` attributes in force: the declaration's own and its enclosing types'.
    var availability: [String] = []
  }

  init(lines: LineTable) {
    self.lines = lines
    super.init(viewMode: .sourceAccurate)
  }

  // MARK: Types

  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
    openType(
      .class, node.name, node.genericParameterClause != nil, node.inheritanceClause, node.attributes, node.modifiers,
      generics: Self.genericParameterNames(node.genericParameterClause))
  }
  override func visitPost(_ node: ClassDeclSyntax) { contexts.removeLast() }

  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
    openType(
      .struct, node.name, node.genericParameterClause != nil, node.inheritanceClause, node.attributes, node.modifiers,
      generics: Self.genericParameterNames(node.genericParameterClause))
  }
  override func visitPost(_ node: StructDeclSyntax) { contexts.removeLast() }

  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
    openType(
      .enum, node.name, node.genericParameterClause != nil, node.inheritanceClause, node.attributes, node.modifiers,
      generics: Self.genericParameterNames(node.genericParameterClause))
  }
  override func visitPost(_ node: EnumDeclSyntax) { contexts.removeLast() }

  override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
    openType(
      .actor, node.name, node.genericParameterClause != nil, node.inheritanceClause, node.attributes, node.modifiers,
      generics: Self.genericParameterNames(node.genericParameterClause))
  }
  override func visitPost(_ node: ActorDeclSyntax) { contexts.removeLast() }

  override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
    openType(.protocol, node.name, false, node.inheritanceClause, node.attributes, node.modifiers)
  }
  override func visitPost(_ node: ProtocolDeclSyntax) { contexts.removeLast() }

  private func openType(
    _ kind: ScannedDeclaration.Kind, _ nameToken: TokenSyntax, _ isGeneric: Bool, _ inheritance: InheritanceClauseSyntax?,
    _ attributes: AttributeListSyntax, _ modifiers: DeclModifierListSyntax, generics: [String] = []
  ) -> SyntaxVisitorContinueKind {
    let name = SwiftIdentifier.unescaped(nameToken.text)
    let qualified = contexts.last.map { "\($0.name).\(name)" } ?? name
    let generic = isGeneric || contexts.last?.isGeneric == true
    let written = attributeNames(attributes)
    let availability = inheritedAvailability(written)
    scan.declarations.append(
      ScannedDeclaration(
        kind: kind, name: qualified, inheritance: inherited(inheritance), attributes: written + availability.filter { !written.contains($0) },
        isGeneric: generic, access: Self.access(modifiers), conditional: conditionalDepth > 0, position: lines.scannedPosition(of: nameToken),
        genericParameters: generics))
    contexts.append(Context(owner: scan.declarations.count - 1, name: qualified, isGeneric: generic, availability: availability))
    return .visitChildren
  }

  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
    let name = sourceText(node.extendedType).filter { $0 != " " && $0 != "`" }
    scan.declarations.append(
      ScannedDeclaration(
        kind: .extension, name: name, inheritance: inherited(node.inheritanceClause), attributes: attributeNames(node.attributes),
        isGeneric: node.genericWhereClause != nil, access: Self.access(node.modifiers), conditional: conditionalDepth > 0,
        position: lines.scannedPosition(of: node.extendedType), requirements: sameTypeRequirements(node.genericWhereClause)))
    let availability = attributeNames(node.attributes).filter { $0.hasPrefix("@available(") }
    contexts.append(Context(owner: scan.declarations.count - 1, name: name, isGeneric: node.genericWhereClause != nil, availability: availability))
    return .visitChildren
  }
  override func visitPost(_ node: ExtensionDeclSyntax) { contexts.removeLast() }

  // MARK: Methods

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
    guard let context = contexts.last else { return .skipChildren }
    var attributes = withAvailability(attributeNames(node.attributes), of: context)
    var explicitSelector: String?
    for element in node.attributes {
      if case .attribute(let attribute) = element, case .objCName(let pieces)? = attribute.arguments {
        explicitSelector = pieces.map { ($0.name?.text ?? "") + ($0.colon != nil ? ":" : "") }.joined()
      }
    }
    var isStatic = false
    for modifier in node.modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.static), .keyword(.class): isStatic = true
      case .keyword(.dynamic): attributes.append("dynamic")
      case .keyword(.final): attributes.append("final")
      case .keyword(.override): attributes.append("override")
      case .keyword(.mutating): attributes.append("mutating")
      case .keyword(.nonisolated): attributes.append("nonisolated")
      default: break
      }
    }
    let effects = node.signature.effectSpecifiers
    var method = ScannedMethod(
      baseName: SwiftIdentifier.unescaped(node.name.text),
      labels: node.signature.parameterClause.parameters.map { parameter in
        parameter.firstName.tokenKind == .wildcard ? nil : SwiftIdentifier.unescaped(parameter.firstName.text)
      },
      isStatic: isStatic, access: Self.access(node.modifiers), attributes: attributes, explicitSelector: explicitSelector,
      isGeneric: node.genericParameterClause != nil, isThrowing: effects?.throwsClause != nil,
      isAsync: effects?.asyncSpecifier != nil, conditional: conditionalDepth > 0,
      documentation: Self.documentation(node.leadingTrivia), position: lines.scannedPosition(of: node.name))
    method.parameterTypes = node.signature.parameterClause.parameters.map { parameter in
      sourceText(parameter.type) + (parameter.ellipsis != nil ? "..." : "")
    }
    method.parameters = Self.parameters(node.signature.parameterClause)
    method.returnType = node.signature.returnClause.map { sourceText($0.type) }
    method.effects = effects.map { sourceText($0) }
    method.deriveNames()
    scan.declarations[context.owner].methods.append(method)
    return .skipChildren
  }

  // MARK: Properties, initializers and subscripts

  override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
    // Members only: the variables of bodies are never reached (bodies are skipped), top-level ones have no
    // context. Accessor bodies and initial values are not walked.
    guard let context = contexts.last else { return .skipChildren }
    var attributes = withAvailability(attributeNames(node.attributes), of: context)
    var isStatic = false
    for modifier in node.modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.static), .keyword(.class): isStatic = true
      case .keyword(.lazy): attributes.append("lazy")
      case .keyword(.weak): attributes.append("weak")
      case .keyword(.unowned): attributes.append("unowned")
      case .keyword(.dynamic): attributes.append("dynamic")
      case .keyword(.final): attributes.append("final")
      case .keyword(.override): attributes.append("override")
      case .keyword(.nonisolated): attributes.append("nonisolated")
      default: break
      }
    }
    let access = Self.access(node.modifiers)
    let isConstant = node.bindingSpecifier.tokenKind == .keyword(.let)
    var properties: [ScannedProperty] = []
    // `var a, b: Int`: a binding without a type or a value of its own has the type of the next one that has one.
    var pendingWithoutType: [Int] = []
    for binding in node.bindings {
      guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
      var type = binding.typeAnnotation.map { sourceText($0.type) }
      var inferred = false
      if type == nil, let value = binding.initializer?.value {
        type = inferredType(value)
        inferred = type != nil
      }
      var isComputed = false
      var effectful = false
      switch binding.accessorBlock?.accessors {
      case .getter?:
        isComputed = true
      case .accessors(let accessors)?:
        for accessor in accessors {
          switch accessor.accessorSpecifier.tokenKind {
          case .keyword(.get), .keyword(._read), .keyword(.unsafeAddress):
            isComputed = true
            if accessor.effectSpecifiers != nil { effectful = true }
          default: continue
          }
        }
      case nil: break
      }
      properties.append(
        ScannedProperty(
          name: SwiftIdentifier.unescaped(pattern.identifier.text), type: type, typeIsInferred: inferred, isStatic: isStatic, isComputed: isComputed,
          isConstant: isConstant, access: access, attributes: attributes, hasEffectfulGetter: effectful,
          conditional: conditionalDepth > 0, position: lines.scannedPosition(of: pattern.identifier)))
      if binding.typeAnnotation == nil && binding.initializer == nil && binding.accessorBlock == nil {
        pendingWithoutType.append(properties.count - 1)
      } else if let written = binding.typeAnnotation.map({ sourceText($0.type) }) {
        for index in pendingWithoutType { properties[index].type = written }
        pendingWithoutType.removeAll()
      }
    }
    scan.declarations[context.owner].properties += properties
    if let wrapper = Self.viewModelWrapper(node.attributes) {
      for property in properties {
        guard let type = wrapper.type ?? property.type.map({ WrittenTypeName($0).qualified }) else { continue }
        scan.references.append(ScannedReference(kind: .holds, names: [type], owner: context.owner, position: property.position))
      }
    }
    return .skipChildren
  }

  override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    guard let context = contexts.last else { return .skipChildren }
    var attributes = withAvailability(attributeNames(node.attributes), of: context)
    for modifier in node.modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.convenience): attributes.append("convenience")
      case .keyword(.required): attributes.append("required")
      case .keyword(.override): attributes.append("override")
      case .keyword(.nonisolated): attributes.append("nonisolated")
      default: break
      }
    }
    let clause = node.signature.parameterClause
    let initializer = ScannedInitializer(
      labels: clause.parameters.map { $0.firstName.tokenKind == .wildcard ? nil : SwiftIdentifier.unescaped($0.firstName.text) },
      parameterTypes: clause.parameters.map { sourceText($0.type) + ($0.ellipsis != nil ? "..." : "") },
      parameters: Self.parameters(clause), failability: node.optionalMark.map(\.text), access: Self.access(node.modifiers),
      attributes: attributes, isGeneric: node.genericParameterClause != nil, effects: node.signature.effectSpecifiers.map { sourceText($0) },
      conditional: conditionalDepth > 0, documentation: Self.documentation(node.leadingTrivia), position: lines.scannedPosition(of: node.initKeyword))
    scan.declarations[context.owner].initializers.append(initializer)
    return .skipChildren
  }

  override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind {
    // A generic subscript (`subscript<T>`) satisfies no collection's requirement; accessor bodies are not walked.
    guard let context = contexts.last, node.genericParameterClause == nil else { return .skipChildren }
    let isStatic = node.modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    scan.declarations[context.owner].subscripts.append(
      ScannedSubscript(
        parameterTypes: node.parameterClause.parameters.map { sourceText($0.type) + ($0.ellipsis != nil ? "..." : "") },
        resultType: sourceText(node.returnClause.type), isStatic: isStatic, access: Self.access(node.modifiers),
        conditional: conditionalDepth > 0, position: lines.scannedPosition(of: node.subscriptKeyword)))
    return .skipChildren
  }

  /// The property wrappers through which a view holds an observable model: `@StateObject`,
  /// `@ObservedObject`, `@EnvironmentObject`, `@State`, `@Bindable`, and `@Environment(Model.self)`, which
  /// names the model's type itself.
  private static let viewModelWrappers: Set<String> = ["StateObject", "ObservedObject", "EnvironmentObject", "State", "Bindable", "Environment"]

  private struct ViewModelWrapper {
    /// The model's type when the wrapper names it (`@Environment(Model.self)`).
    var type: String?
  }

  private static func viewModelWrapper(_ attributes: AttributeListSyntax) -> ViewModelWrapper? {
    for element in attributes {
      guard case .attribute(let attribute) = element, let name = attribute.attributeName.as(IdentifierTypeSyntax.self)?.name.text,
        viewModelWrappers.contains(name)
      else { continue }
      guard name == "Environment" else { return ViewModelWrapper() }
      // `@Environment(Model.self)`; `@Environment(\.dismiss)` holds no model.
      guard case .argumentList(let arguments)? = attribute.arguments, arguments.count == 1,
        let member = arguments.first?.expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
        let base = member.base
      else { return nil }
      return ViewModelWrapper(type: base.trimmedDescription)
    }
    return nil
  }

  /// Each parameter's own name (`position` in `at position: Int`; the label when it has no second name;
  /// nil for `_`) and whether it has a default value.
  private static func parameters(_ clause: FunctionParameterClauseSyntax) -> ScannedParameters {
    var result = ScannedParameters()
    for parameter in clause.parameters {
      let name = parameter.secondName ?? parameter.firstName
      result.names.append(name.tokenKind == .wildcard ? nil : SwiftIdentifier.unescaped(name.text))
      result.hasDefault.append(parameter.defaultValue != nil)
    }
    return result
  }

  /// The type of an initial value, when the value says it plainly: a literal (`false`, `0`, `0.5`, `"a"`),
  /// a call of a type (`Cart()`, `Shop.Cart(items: [])`, `Box<String>(value: "")`) or a member of one
  /// (`Tab.home`). Nil otherwise: a
  /// property whose type cannot be told without the compiler has none.
  private func inferredType(_ value: ExprSyntax) -> String? {
    if value.is(BooleanLiteralExprSyntax.self) { return "Bool" }
    if value.is(IntegerLiteralExprSyntax.self) { return "Int" }
    if value.is(FloatLiteralExprSyntax.self) { return "Double" }
    if value.is(StringLiteralExprSyntax.self) { return "String" }
    if let prefix = value.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
      if prefix.expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
      if prefix.expression.is(FloatLiteralExprSyntax.self) { return "Double" }
    }
    if let call = value.as(FunctionCallExprSyntax.self), call.trailingClosure == nil {
      // `Box<String>(value: "")`: the type with its generic arguments, as written.
      if let specialized = call.calledExpression.as(GenericSpecializationExprSyntax.self), typeReference(specialized.expression) != nil {
        return sourceText(specialized).filter { $0 != " " && $0 != "\n" }
      }
      return typeReference(call.calledExpression)
    }
    if let member = value.as(MemberAccessExprSyntax.self), let base = member.base {
      return typeReference(base)
    }
    return nil
  }

  /// `Cart`, `Shop.Cart`: an expression that names a type by the convention that types are capitalised.
  private func typeReference(_ expression: ExprSyntax) -> String? {
    if let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil {
      let name = SwiftIdentifier.unescaped(reference.baseName.text)
      guard let first = name.unicodeScalars.first, first.properties.isUppercase else { return nil }
      return name
    }
    if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, let head = typeReference(base) ?? moduleName(base) {
      let name = SwiftIdentifier.unescaped(member.declName.baseName.text)
      guard member.declName.argumentNames == nil, let first = name.unicodeScalars.first, first.properties.isUppercase else { return nil }
      return head + "." + name
    }
    return nil
  }

  /// A lower-case first component (`shop.Cart` is rare, but modules may be named so): only as a base.
  private func moduleName(_ expression: ExprSyntax) -> String? {
    guard let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil else { return nil }
    return SwiftIdentifier.unescaped(reference.baseName.text)
  }

  // MARK: Conditional compilation

  override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
    conditionalDepth += 1
    return .visitChildren
  }
  override func visitPost(_ node: IfConfigDeclSyntax) { conditionalDepth -= 1 }

  // MARK: What is skipped

  override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
    // Top-level statements and expressions hold no declarations trackc looks at.
    node.item.is(DeclSyntax.self) ? .visitChildren : .skipChildren
  }
  override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  override func visit(_ node: EnumCaseDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
    // In a function body (never walked) an alias is local; at the top level and in types it is the code's.
    let name = SwiftIdentifier.unescaped(node.name.text)
    scan.typeAliases.append(
      ScannedTypeAlias(
        name: contexts.last.map { "\($0.name).\(name)" } ?? name, genericParameters: Self.genericParameterNames(node.genericParameterClause),
        aliased: sourceText(node.initializer.value), access: Self.access(node.modifiers), conditional: conditionalDepth > 0,
        position: lines.scannedPosition(of: node.name)))
    return .skipChildren
  }
  override func visit(_ node: MacroExpansionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
    if conditionalDepth == 0, contexts.isEmpty, let module = node.path.first?.name.text, !scan.imports.contains(module) {
      scan.imports.append(module)
    }
    return .skipChildren
  }

  // MARK: Helpers

  /// A node's text as written, without its leading and trailing trivia: read from the source rather than
  /// through swift-syntax's `trimmedDescription`, which builds a new tree (a third of the walk's time).
  private func sourceText(_ node: some SyntaxProtocol) -> String {
    lines.text(from: node.positionAfterSkippingLeadingTrivia.utf8Offset, to: node.endPositionBeforeTrailingTrivia.utf8Offset)
  }

  private static func genericParameterNames(_ clause: GenericParameterClauseSyntax?) -> [String] {
    clause?.parameters.map { SwiftIdentifier.unescaped($0.name.text) } ?? []
  }

  /// `where Value == String, Key == Int`: the same-type requirements, as written without spaces.
  private func sameTypeRequirements(_ clause: GenericWhereClauseSyntax?) -> [SameTypeRequirement] {
    clause?.requirements.compactMap { element in
      guard case .sameTypeRequirement(let requirement) = element.requirement else { return nil }
      return SameTypeRequirement(
        left: sourceText(requirement.leftType).filter { $0 != " " }, right: sourceText(requirement.rightType).filter { $0 != " " })
    } ?? []
  }

  private func inherited(_ clause: InheritanceClauseSyntax?) -> [String] {
    clause?.inheritedTypes.map { sourceText($0.type) } ?? []
  }

  /// `@objc`, `@objc(name:)`, `@IBAction`, ...: attributes as written, without their spacing; the
  /// arguments of `@objc(name:)` and of `@available` (`Self.availability`) are kept.
  private func attributeNames(_ attributes: AttributeListSyntax) -> [String] {
    attributes.compactMap { element in
      guard case .attribute(let attribute) = element else { return nil }
      let name = "@" + sourceText(attribute.attributeName)
      guard let arguments = attribute.arguments else { return name }
      switch arguments {
      case .objCName(let pieces):
        return name + "(" + pieces.map { ($0.name?.text ?? "") + ($0.colon != nil ? ":" : "") }.joined() + ")"
      case .availability(let list):
        return Self.availability(list)
      default:
        return name
      }
    }
  }

  /// `@available(iOS 17, macOS 14, *)`, `@available(iOS, introduced: 17.0, deprecated: 18.0)`,
  /// `@available(*, deprecated)`: the arguments that say where and since when, one space after each
  /// comma; a `message:` or `renamed:` string is left out (generated code repeats only platforms and
  /// versions, `Availability`).
  private static func availability(_ list: AvailabilityArgumentListSyntax) -> String {
    let arguments: [String] = list.compactMap { element in
      switch element.argument {
      case .token(let token):
        return token.text
      case .availabilityVersionRestriction(let restriction):
        return restriction.platform.text + (restriction.version.map { " " + $0.trimmedDescription } ?? "")
      case .availabilityLabeledArgument(let labeled):
        guard case .version(let version) = labeled.value else { return nil }
        return labeled.label.text + ": " + version.trimmedDescription
      }
    }
    return "@available(" + arguments.joined(separator: ", ") + ")"
  }

  /// A type's `@available` attributes and those of the type or extension it is declared in.
  private func inheritedAvailability(_ written: [String]) -> [String] {
    let own = written.filter { $0.hasPrefix("@available(") }
    return own + (contexts.last?.availability ?? []).filter { !own.contains($0) }
  }

  /// A member's attributes, with the `@available` attributes of its type (and the types around it) or
  /// extension that it does not repeat: where the member can be used.
  private func withAvailability(_ written: [String], of context: Context) -> [String] {
    written + context.availability.filter { !written.contains($0) }
  }

  private static func access(_ modifiers: DeclModifierListSyntax) -> AccessLevel? {
    for modifier in modifiers where modifier.detail == nil {
      switch modifier.name.tokenKind {
      case .keyword(.private): return .private
      case .keyword(.fileprivate): return .fileprivate
      case .keyword(.internal): return .internal
      case .keyword(.package): return .package
      case .keyword(.public): return .public
      case .keyword(.open): return .open
      default: continue
      }
    }
    return nil
  }

  /// The doc comment in front of a declaration (`///` lines or a `/** */` block), without its markers.
  private static func documentation(_ trivia: Trivia) -> String? {
    var lines: [String] = []
    for piece in trivia {
      switch piece {
      case .docLineComment(let text):
        lines.append(String(text.dropFirst(3)).trimmingLeadingSpace())
      case .docBlockComment(let text):
        let body = text.dropFirst(3).dropLast(2)
        lines.append(
          contentsOf: body.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.drop { $0 == " " || $0 == "*" || $0 == "\t" })
          })
      case .lineComment, .blockComment:
        lines.removeAll()  // an ordinary comment between ends the doc comment before it
      default:
        continue
      }
    }
    let text = lines.joined(separator: "\n").trimmingCharacters(in: " \n\t")
    return text.isEmpty ? nil : text
  }
}

extension String {
  fileprivate func trimmingLeadingSpace() -> String {
    String(drop { $0 == " " })
  }

  fileprivate func trimmingCharacters(in set: String) -> String {
    let scalars = unicodeScalars
    guard let start = scalars.firstIndex(where: { !set.unicodeScalars.contains($0) }) else { return "" }
    let end = scalars.lastIndex(where: { !set.unicodeScalars.contains($0) })!
    return String(scalars[start...end])
  }
}
