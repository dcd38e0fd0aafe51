import SwiftSyntax

/// What the code says about SwiftUI screens inside bodies, which the declaration walk skips: where a view
/// is the root of a hosting controller, presented (a sheet, a navigation destination, a window, a tab),
/// where a view sets up navigation (a navigation stack or title: a screen's root), and each use of the
/// generated `.tracked(_:)` modifier. Each is attributed to the type or extension it is written in.
///
/// It walks the whole tree, bodies included, so it runs only on files that import SwiftUI (a hosting
/// controller, a presentation and the modifier all need it); the others cost nothing.
final class ViewReferenceCollector: SyntaxVisitor {
  private let lines: LineTable
  /// The declarations of the file by the position of their name, from the declaration walk.
  private let owners: [ScannedPosition: Int]
  private var ownerStack: [Int?] = []
  private(set) var references: [ScannedReference] = []

  /// Functions that host a view, by the label of the view's argument.
  static let hostingControllers: Set<String> = ["UIHostingController", "NSHostingController"]
  /// Modifiers whose content is presented as a screen of its own.
  static let presentingModifiers: Set<String> = ["sheet", "fullScreenCover", "popover", "navigationDestination", "inspector"]
  /// Views and scenes whose content is a screen of its own.
  static let presentingViews: Set<String> = ["NavigationLink", "WindowGroup", "Window", "DocumentGroup", "UtilityWindow", "Tab"]
  static let navigationViews: Set<String> = ["NavigationStack", "NavigationView", "NavigationSplitView"]
  static let navigationModifiers: Set<String> = ["navigationTitle", "navigationBarTitle"]
  /// At most this many type names are kept per reference: the screen is among the first.
  static let candidateLimit = 8

  /// Whether a file may hold references worth the walk: it imports SwiftUI (given), or names a hosting
  /// controller or a view's body (a module may re-export SwiftUI).
  static func isWorthWalking(_ bytes: UnsafeBufferPointer<UInt8>, importsSwiftUI: Bool) -> Bool {
    importsSwiftUI || contains("HostingController", in: bytes) || contains("some View", in: bytes) || contains("some Scene", in: bytes)
  }

  private static func contains(_ needle: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
    guard let base = bytes.baseAddress, pattern.count > 0, bytes.count >= pattern.count else { return false }
    var offset = 0
    while offset + pattern.count <= bytes.count,
      let found = Platform.firstByte(pattern[0], in: base + offset, count: bytes.count - pattern.count + 1 - offset)
    {
      let start = found - base
      if Platform.compareBytes(found, pattern.baseAddress!, count: pattern.count) == 0 { return true }
      offset = start + 1
    }
    return false
  }

  init(lines: LineTable, declarations: [ScannedDeclaration]) {
    self.lines = lines
    var owners: [ScannedPosition: Int] = [:]
    for (index, declaration) in declarations.enumerated() { owners[declaration.position] = index }
    self.owners = owners
    super.init(viewMode: .sourceAccurate)
  }

  private var owner: Int? { ownerStack.last ?? nil }

  // MARK: Owners

  private func open(_ token: some SyntaxProtocol) -> SyntaxVisitorContinueKind {
    ownerStack.append(owners[lines.scannedPosition(of: token)])
    memberStack.append(nil)
    return .visitChildren
  }

  // MARK: Members

  /// The member of the owner (a method by its base name, a property by its name, `init`) whose code is
  /// being read: calls are recorded per member, so that what `body` reaches can be told from what
  /// only an uncalled method does.
  private var memberStack: [String?] = []
  private var member: String? { memberStack.last ?? nil }

  /// A member declaration directly in a type or an extension (a local function or variable stays part of
  /// the member around it).
  private func isMember(_ node: some SyntaxProtocol) -> Bool {
    node.parent?.is(MemberBlockItemSyntax.self) == true
  }

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
    if isMember(node) { memberStack.append(SwiftIdentifier.unescaped(node.name.text)) }
    if let result = node.signature.returnClause?.type, owner == nil || result.is(SomeOrAnyTypeSyntax.self),
      node.parent?.is(MemberBlockItemSyntax.self) == true || node.parent?.is(CodeBlockItemSyntax.self) == true
    {
      recordResult(SwiftIdentifier.unescaped(node.name.text), result: result, body: node.body?.statements, at: node.name)
    }
    return .visitChildren
  }

  /// A function's or a computed property's result, for hosting roots made by calling or reading it.
  private func recordResult(_ name: String, result: TypeSyntax, body: CodeBlockItemListSyntax?, at position: some SyntaxProtocol) {
    var names = [name]
    var modifiers: [String] = []
    if result.is(SomeOrAnyTypeSyntax.self), let body, let returned = Self.returnedExpression(body),
      let value = rootValue(of: returned, depth: 0), let type = value.type
    {
      names.append(type)
      modifiers = value.modifiers
    }
    references.append(
      ScannedReference(
        kind: .returns, names: names, owner: owner, position: lines.scannedPosition(of: position), root: lines.text(of: result),
        modifiers: Array(modifiers.prefix(Self.candidateLimit))))
  }

  /// The expression a body returns: its only expression, or its last `return`'s at the top level.
  private static func returnedExpression(_ body: CodeBlockItemListSyntax) -> ExprSyntax? {
    if body.count == 1, let only = body.first?.item.as(ExprSyntax.self) { return only }
    for item in body.reversed() {
      if let statement = item.item.as(ReturnStmtSyntax.self) { return statement.expression }
      if let statement = item.item.as(ExpressionStmtSyntax.self), body.count == 1 { return statement.expression }
    }
    return nil
  }
  override func visitPost(_ node: FunctionDeclSyntax) { if isMember(node) { memberStack.removeLast() } }
  override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
    if isMember(node) {
      let name = node.bindings.first?.pattern.as(IdentifierPatternSyntax.self).map { SwiftIdentifier.unescaped($0.identifier.text) }
      memberStack.append(name ?? "")
      // `var settingsScreen: some View { ... }`: an opaque computed property.
      if let name, node.bindings.count == 1, let binding = node.bindings.first, let type = binding.typeAnnotation?.type,
        type.is(SomeOrAnyTypeSyntax.self), let accessors = binding.accessorBlock?.accessors
      {
        switch accessors {
        case .getter(let body): recordResult(name, result: type, body: body, at: binding.pattern)
        case .accessors(let list):
          let getter = list.first { $0.accessorSpecifier.tokenKind == .keyword(.get) }
          recordResult(name, result: type, body: getter?.body?.statements, at: binding.pattern)
        }
      }
    }
    return .visitChildren
  }
  override func visitPost(_ node: VariableDeclSyntax) { if isMember(node) { memberStack.removeLast() } }
  override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    if isMember(node) { memberStack.append("init") }
    return .visitChildren
  }
  override func visitPost(_ node: InitializerDeclSyntax) { if isMember(node) { memberStack.removeLast() } }

  /// A member read without a call (`content` in `var body: some View { content }`, `self.header`) is a
  /// step on the way from `body` too.
  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    guard owner != nil, node.argumentNames == nil else { return .visitChildren }
    if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id { return .visitChildren }
    if let access = node.parent?.as(MemberAccessExprSyntax.self), access.declName.id == node.id {
      guard access.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self),
        access.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id != access.id
      else { return .visitChildren }
    }
    recordCall(SwiftIdentifier.unescaped(node.baseName.text), at: node)
    return .visitChildren
  }

  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { open(node.name) }
  override func visitPost(_ node: ClassDeclSyntax) { ownerStack.removeLast() }
  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { open(node.name) }
  override func visitPost(_ node: StructDeclSyntax) { ownerStack.removeLast() }
  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { open(node.name) }
  override func visitPost(_ node: EnumDeclSyntax) { ownerStack.removeLast() }
  override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { open(node.name) }
  override func visitPost(_ node: ActorDeclSyntax) { ownerStack.removeLast() }
  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { open(node.extendedType) }
  override func visitPost(_ node: ExtensionDeclSyntax) { ownerStack.removeLast() }
  override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  // MARK: References

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    let callee = node.calledExpression
    recordCalls(node)
    if let name = Self.typeName(callee) {
      if Self.hostingControllers.contains(name.base) {
        var roots = name.arguments
        let argument = node.arguments.first(where: { $0.label?.text == "rootView" })
        if let argument { roots += candidates(in: argument.expression) }
        var root = name.arguments.first.map { RootValue(type: $0) }
        if root == nil, let argument { root = rootValue(of: argument.expression, depth: 0) }
        add(.hosts, roots, at: node, root: root)
      } else if Self.presentingViews.contains(name.base) {
        let content =
          node.arguments.first(where: { $0.label?.text == "destination" }).map { Syntax($0.expression) }
          ?? node.trailingClosure.map(Syntax.init)
        if let content { add(.presents, candidates(in: content), at: node) }
      } else if Self.navigationViews.contains(name.base) {
        add(.navigates, [], at: node)
      }
    } else if let member = callee.as(MemberAccessExprSyntax.self) {
      let name = member.declName.baseName.text
      if Self.presentingModifiers.contains(name) {
        let content =
          node.trailingClosure.map(Syntax.init)
          ?? node.arguments.first(where: { $0.label?.text == "content" || $0.label?.text == "destination" }).map { Syntax($0.expression) }
        if let content { add(.presents, candidates(in: content), at: member.declName) }
      } else if name == "tabItem", let base = member.base {
        add(.presents, candidates(in: Syntax(base)), at: member.declName)
      } else if Self.navigationModifiers.contains(name) {
        add(.navigates, [], at: member.declName)
      } else if name == "tracked", node.arguments.count == 1, let argument = node.arguments.first, argument.label == nil,
        let screen = argument.expression.as(MemberAccessExprSyntax.self)
      {
        add(.tracked, [SwiftIdentifier.unescaped(screen.declName.baseName.text)], at: member.declName)
      }
    }
    return .visitChildren
  }

  /// `UIHostingController<SettingsView>` written as a type: a stored hosting controller, a cast.
  override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
    if Self.hostingControllers.contains(node.name.text), let arguments = node.genericArgumentClause?.arguments {
      let names = arguments.map { lines.text(of: $0.argument) }
      add(.hosts, names, at: node, root: names.first.map { RootValue(type: $0) })
    }
    return .visitChildren
  }

  override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  // A class inheriting `UIHostingController<Root>` is read from the registry's types, where it is tied to
  // the class (which may be a screen of its own).
  override func visit(_ node: InheritanceClauseSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  private func add(_ kind: ScannedReference.Kind, _ names: [String], at node: some SyntaxProtocol, root: RootValue? = nil) {
    guard kind == .navigates || !names.isEmpty || root != nil else { return }
    references.append(
      ScannedReference(
        kind: kind, names: Array(names.prefix(Self.candidateLimit)), owner: owner, position: lines.scannedPosition(of: node),
        root: root?.type, modifiers: Array((root?.modifiers ?? []).prefix(Self.candidateLimit))))
  }

  // MARK: Calls of the owner's own methods

  /// At most this many names are kept per member: a body calls its few lifecycle methods among them.
  static let callLimit = 256
  private struct Caller: Hashable {
    var owner: Int
    var member: String?
  }
  private var calls: [Caller: (names: [String], seen: Set<String>, position: ScannedPosition)] = [:]

  private func recordCall(_ name: String, at position: some SyntaxProtocol) {
    guard let owner, let first = name.unicodeScalars.first, first.properties.isLowercase else { return }
    let caller = Caller(owner: owner, member: member)
    if calls[caller] == nil { calls[caller] = ([], [], lines.scannedPosition(of: position)) }
    guard calls[caller]!.names.count < Self.callLimit, calls[caller]!.seen.insert(name).inserted else { return }
    calls[caller]!.names.append(name)
  }

  /// `onAppear()`, `self.load()`, and `perform: onAppear` / `action: save` handed to a call.
  private func recordCalls(_ node: FunctionCallExprSyntax) {
    guard owner != nil else { return }
    func record(_ name: String, at position: some SyntaxProtocol) { recordCall(name, at: position) }
    if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) {
      record(SwiftIdentifier.unescaped(reference.baseName.text), at: node)
    } else if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
      member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
    {
      record(SwiftIdentifier.unescaped(member.declName.baseName.text), at: node)
    }
    for argument in node.arguments where argument.label?.text == "perform" || argument.label?.text == "action" {
      if let reference = argument.expression.as(DeclReferenceExprSyntax.self) {
        record(SwiftIdentifier.unescaped(reference.baseName.text), at: argument)
      } else if let member = argument.expression.as(MemberAccessExprSyntax.self),
        member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
      {
        record(SwiftIdentifier.unescaped(member.declName.baseName.text), at: argument)
      }
    }
  }

  /// The `calls` references, one per owner and member (the member as the reference's `root`), after the walk.
  func finish() {
    let sorted = calls.sorted {
      ($0.key.owner, $0.value.position.line, $0.value.position.column, $0.key.member ?? "")
        < ($1.key.owner, $1.value.position.line, $1.value.position.column, $1.key.member ?? "")
    }
    for (caller, found) in sorted {
      references.append(ScannedReference(kind: .calls, names: found.names, owner: caller.owner, position: found.position, root: caller.member))
    }
    calls = [:]
  }

  // MARK: Hosting roots

  /// The type a hosting controller's root value has, as far as the expression tells.
  struct RootValue {
    /// nil when the value is a function's result or a property's value: the first modifier names it.
    var type: String?
    var modifiers: [String] = []
  }

  /// `ReceiptView()`, `AnyView(ReceiptView())`, `Card<ReceiptView>(...)`, `view.padding()`, a local's
  /// declared type or value; nil for anything else (a call of a function, a conditional, a closure).
  private func rootValue(of expression: ExprSyntax, depth: Int) -> RootValue? {
    guard depth < 16 else { return nil }
    if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
      return rootValue(of: only.expression, depth: depth + 1)
    }
    if let call = expression.as(FunctionCallExprSyntax.self) {
      if Self.typeName(call.calledExpression) != nil { return RootValue(type: lines.text(of: call.calledExpression)) }
      if let function = Self.function(call.calledExpression) { return RootValue(type: nil, modifiers: [function]) }
      if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
        var value = rootValue(of: base, depth: depth + 1)
      {
        value.modifiers.append(SwiftIdentifier.unescaped(member.declName.baseName.text))
        return value
      }
      return nil
    }
    if let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil {
      if let binding = localBinding(named: reference.baseName.text, before: Syntax(reference)) {
        if let annotation = binding.typeAnnotation { return RootValue(type: lines.text(of: annotation.type)) }
        if let value = binding.initializer?.value { return rootValue(of: value, depth: depth + 1) }
        return nil
      }
    }
    // A property read (`settingsScreen`, `self.settingsScreen`): its value.
    if let property = Self.function(expression) { return RootValue(type: nil, modifiers: [property]) }
    return nil
  }

  // MARK: Reading expressions

  /// The types an expression constructs, in source order (`NavigationStack { SettingsView(model: m) }`
  /// gives `NavigationStack`, `SettingsView`), a local constant standing for the value it was given
  /// (`let view = SettingsView(); UIHostingController(rootView: view)`).
  private func candidates(in node: some SyntaxProtocol) -> [String] {
    let finder = ConstructedTypes(viewMode: .sourceAccurate)
    finder.walk(node)
    var names: [String] = []
    for found in finder.found where names.count < Self.candidateLimit {
      switch found {
      case .type(let name): if !names.contains(name) { names.append(name) }
      case .local(let name, let at):
        for name in localValue(named: name, before: at) where !names.contains(name) { names.append(name) }
      }
    }
    return names
  }

  /// The types the nearest `let name = ...` (or `var`) before `node`, in the code blocks around it,
  /// constructs; its declared type first (`let view: SettingsView = ...`).
  private func localValue(named name: String, before node: Syntax) -> [String] {
    guard let binding = localBinding(named: name, before: node) else { return [] }
    let finder = ConstructedTypes(viewMode: .sourceAccurate)
    if let value = binding.initializer?.value { finder.walk(value) }
    let declared = binding.typeAnnotation.map { [WrittenTypeName(lines.text(of: $0.type)).qualified] } ?? []
    return declared + finder.found.compactMap { if case .type(let type) = $0 { type } else { nil } }
  }

  /// The nearest `let name = ...` (or `var`) before `node`, in the code blocks around it.
  private func localBinding(named name: String, before node: Syntax) -> PatternBindingSyntax? {
    var current: Syntax? = node.parent
    while let scope = current {
      if let block = scope.as(CodeBlockItemListSyntax.self) {
        for item in block.reversed() where item.endPosition <= node.position {
          guard let variable = item.item.as(VariableDeclSyntax.self) else { continue }
          for binding in variable.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
            return binding
          }
        }
      }
      if scope.is(DeclSyntax.self) && !scope.is(VariableDeclSyntax.self) { break }
      current = scope.parent
    }
    return nil
  }

  /// `erase`, `self.erase`, `Factory.erase`: a function or property of the owner, a free one, or a type's
  /// (qualified by it), by the convention that types are capitalised and members not.
  static func function(_ expression: ExprSyntax) -> String? {
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      let name = SwiftIdentifier.unescaped(reference.baseName.text)
      guard name.first?.isLowercase == true, name != "self", name != "super" else { return nil }
      return name
    }
    if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self) {
      let name = SwiftIdentifier.unescaped(member.declName.baseName.text)
      guard name.first?.isLowercase == true else { return nil }
      if base.baseName.tokenKind == .keyword(.self) { return name }
      let type = SwiftIdentifier.unescaped(base.baseName.text)
      guard type.first?.isUppercase == true else { return nil }
      return type + "." + name
    }
    return nil
  }

  /// `SettingsView`, `Feature.SettingsView`, `UIHostingController<Root>`: a callee that names a type (by
  /// the convention that types are capitalised).
  static func typeName(_ expression: ExprSyntax) -> WrittenTypeName? {
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      let name = SwiftIdentifier.unescaped(reference.baseName.text)
      guard reference.argumentNames == nil, name.first?.isUppercase == true else { return nil }
      return WrittenTypeName(name)
    }
    if let specialized = expression.as(GenericSpecializationExprSyntax.self), var name = typeName(specialized.expression) {
      name.arguments = specialized.genericArgumentClause.arguments.map { $0.argument.trimmedDescription }
      return name
    }
    if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self) {
      let name = SwiftIdentifier.unescaped(member.declName.baseName.text)
      guard member.declName.argumentNames == nil, name.first?.isUppercase == true else { return nil }
      return WrittenTypeName(SwiftIdentifier.unescaped(base.baseName.text) + "." + name)
    }
    return nil
  }

}

/// The types constructed in an expression, and the local names it reads, in source order.
private final class ConstructedTypes: SyntaxVisitor {
  enum Found {
    case type(String)
    case local(String, at: Syntax)
  }

  private(set) var found: [Found] = []

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    if let name = ViewReferenceCollector.typeName(node.calledExpression) { found.append(.type(name.qualified)) }
    return .visitChildren
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    // A lower-case name read as a value, alone or at the start of a chain (`screen.environment(model)`),
    // not called and not a member's name: a local the value came from.
    let name = node.baseName.text
    guard name.first?.isLowercase == true, node.argumentNames == nil else { return .visitChildren }
    if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id { return .visitChildren }
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.base?.id != node.id { return .visitChildren }
    found.append(.local(name, at: Syntax(node)))
    return .visitChildren
  }

  override func visit(_ node: ClosureSignatureSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}

/// A reference to SwiftUI screens inside a body (`ViewReferenceCollector`).
struct ScannedReference: FieldRecord, Equatable {
  enum Kind: String, FieldEnum {
    /// `UIHostingController(rootView: ...)`, `UIHostingController<Root>`: names are the root's candidates.
    case hosts
    /// The content of a sheet, a navigation destination, a window or a tab: names are the types it constructs.
    case presents
    /// A navigation stack or title: the owner is a screen's root view. No names.
    case navigates
    /// `.tracked(.settingsView)`: the name is the screen's case.
    case tracked
    /// A property of the owner that holds a view model (`@StateObject`, `@ObservedObject`, `@State`,
    /// `@Bindable`, `@EnvironmentObject`, `@Environment(Model.self)`): the name is its type.
    case holds
    /// The owner's code calls these methods of its own (`onAppear()`, `self.load()`) or hands them over
    /// (`.onAppear(perform: onAppear)`, `Button(action: save)`): names are base names, each once;
    /// `root` is the member whose code does.
    case calls
    /// A free function, or a function or computed property with an opaque result (`some View`): names
    /// are its base name and the type its body returns (for an opaque result, when the body says it);
    /// `root` the result type as declared, `modifiers` what the body applies to its value.
    case returns
  }

  var kind = Kind.hosts
  var names: [String] = []
  /// The declaration it is written in, by index in `FileScan.declarations`; nil at the top level.
  var owner: Int? = nil
  var position = ScannedPosition()
  /// `hosts`: the root view's type as the expression gives it, when it tells plainly (`AnyView` for
  /// `AnyView(ReceiptView())`, `Card<ReceiptView>`, the declared type of a local); nil when it does not.
  /// `calls`: the member of the owner whose code makes the calls (`body`, `start`, `init`).
  var root: String? = nil
  /// `hosts`: the methods applied to the root's value, in order (`padding`, `eraseToAnyView`): SwiftUI's
  /// modifiers are seen through at run time, a method of the sources that returns `AnyView` erases it.
  var modifiers: [String] = []

  mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("kind", &kind)
    try coder.field("modifiers", &modifiers)
    try coder.field("names", &names)
    try coder.field("owner", &owner)
    try coder.field("position", &position)
    try coder.field("root", &root)
  }
}
