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
    guard kind == .navigates || !names.isEmpty else { return }
    references.append(
      ScannedReference(
        kind: kind, names: Array(names.prefix(Self.candidateLimit)), owner: owner, position: lines.scannedPosition(of: node),
        root: root?.type, modifiers: Array((root?.modifiers ?? []).prefix(Self.candidateLimit))))
  }

  // MARK: Calls of the owner's own methods

  /// At most this many names are kept per owner: a body calls its few lifecycle methods among them.
  static let callLimit = 256
  private var calls: [Int: (names: [String], seen: Set<String>, position: ScannedPosition)] = [:]

  /// `onAppear()`, `self.load()`, and `perform: onAppear` / `action: save` handed to a call.
  private func recordCalls(_ node: FunctionCallExprSyntax) {
    guard let owner else { return }
    func record(_ name: String, at position: some SyntaxProtocol) {
      guard let first = name.unicodeScalars.first, first.properties.isLowercase else { return }
      if calls[owner] == nil { calls[owner] = ([], [], lines.scannedPosition(of: position)) }
      guard calls[owner]!.names.count < Self.callLimit, calls[owner]!.seen.insert(name).inserted else { return }
      calls[owner]!.names.append(name)
    }
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

  /// The `calls` references, one per owner, after the walk.
  func finish() {
    for (owner, found) in calls.sorted(by: { $0.key < $1.key }) {
      references.append(ScannedReference(kind: .calls, names: found.names, owner: owner, position: found.position))
    }
    calls = [:]
  }

  // MARK: Hosting roots

  /// The type a hosting controller's root value has, as far as the expression tells.
  struct RootValue {
    var type: String
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
      if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
        var value = rootValue(of: base, depth: depth + 1)
      {
        value.modifiers.append(SwiftIdentifier.unescaped(member.declName.baseName.text))
        return value
      }
      return nil
    }
    if let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil,
      let binding = localBinding(named: reference.baseName.text, before: Syntax(reference))
    {
      if let annotation = binding.typeAnnotation { return RootValue(type: lines.text(of: annotation.type)) }
      if let value = binding.initializer?.value { return rootValue(of: value, depth: depth + 1) }
    }
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
struct ScannedReference: Codable, Sendable, Equatable {
  enum Kind: String, Codable, Sendable, CaseIterable {
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
    /// (`.onAppear(perform: onAppear)`, `Button(action: save)`): names are base names, each once.
    case calls
  }

  var kind: Kind
  var names: [String]
  /// The declaration it is written in, by index in `FileScan.declarations`; nil at the top level.
  var owner: Int?
  var position: ScannedPosition
  /// `hosts`: the root view's type as the expression gives it, when it tells plainly (`AnyView` for
  /// `AnyView(ReceiptView())`, `Card<ReceiptView>`, the declared type of a local); nil when it does not.
  var root: String? = nil
  /// `hosts`: the methods applied to the root's value, in order (`padding`, `eraseToAnyView`): SwiftUI's
  /// modifiers are seen through at run time, a method of the sources that returns `AnyView` erases it.
  var modifiers: [String] = []
}
