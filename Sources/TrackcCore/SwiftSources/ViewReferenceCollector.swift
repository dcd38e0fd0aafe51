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
    if let name = Self.typeName(callee) {
      if Self.hostingControllers.contains(name.base) {
        var roots = name.arguments
        if let root = node.arguments.first(where: { $0.label?.text == "rootView" }) { roots += candidates(in: root.expression) }
        add(.hosts, roots, at: node)
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
      add(.hosts, arguments.map { lines.text(of: $0.argument) }, at: node)
    }
    return .visitChildren
  }

  override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  // A class inheriting `UIHostingController<Root>` is read from the registry's types, where it is tied to
  // the class (which may be a screen of its own).
  override func visit(_ node: InheritanceClauseSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  private func add(_ kind: ScannedReference.Kind, _ names: [String], at node: some SyntaxProtocol) {
    guard kind == .navigates || !names.isEmpty else { return }
    references.append(
      ScannedReference(kind: kind, names: Array(names.prefix(Self.candidateLimit)), owner: owner, position: lines.scannedPosition(of: node)))
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
    var current: Syntax? = node.parent
    while let scope = current {
      if let block = scope.as(CodeBlockItemListSyntax.self) {
        for item in block.reversed() where item.endPosition <= node.position {
          guard let variable = item.item.as(VariableDeclSyntax.self) else { continue }
          for binding in variable.bindings {
            guard binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name else { continue }
            let finder = ConstructedTypes(viewMode: .sourceAccurate)
            if let value = binding.initializer?.value { finder.walk(value) }
            let declared = binding.typeAnnotation.map { [WrittenTypeName(lines.text(of: $0.type)).qualified] } ?? []
            return declared + finder.found.compactMap { if case .type(let type) = $0 { type } else { nil } }
          }
        }
      }
      if scope.is(DeclSyntax.self) && !scope.is(VariableDeclSyntax.self) { break }
      current = scope.parent
    }
    return []
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
  }

  var kind: Kind
  var names: [String]
  /// The declaration it is written in, by index in `FileScan.declarations`; nil at the top level.
  var owner: Int?
  var position: ScannedPosition
}
