import SwiftSyntax

/// How methods are reached in bodies, which the declaration walk skips: each `#selector(...)` (a method
/// called through the Objective-C runtime: a control's or a bar button item's action, a gesture
/// recognizer's, `perform(_:)`, a notification observer), and each call from Swift code, apart when it is
/// inside a `UIAction`'s closure. Recorded by name, as written (a call's argument labels, a selector's),
/// once per file, name and kind: enough to tell whether a handler's callers all call it directly, never
/// through the runtime (`handler-called-directly`), without resolving what each call's receiver is.
final class HandlerUseCollector: SyntaxVisitor {
  private let lines: LineTable
  private(set) var uses: [ScannedUse] = []
  private var seen = Set<String>()
  /// Inside this many `UIAction` closures.
  private var actionClosures = 0
  /// The closures that are a `UIAction`'s handler, by their position.
  private var actionClosureStarts = Set<AbsolutePosition>()

  /// At most this many uses are kept per file (a generated file of a million calls costs no more).
  static let limit = 10_000

  init(lines: LineTable) {
    self.lines = lines
    super.init(viewMode: .sourceAccurate)
  }

  // MARK: Selectors

  override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
    guard node.macroName.text == "selector", let argument = node.arguments.first, argument.label == nil else { return .visitChildren }
    // `#selector(getter: title)` names a property's accessor, not a method.
    guard let name = Self.methodName(argument.expression) else { return .skipChildren }
    add(.selector, name, via: enclosingCall(of: Syntax(node)), at: node)
    return .skipChildren
  }

  /// `onTap(_:)`, `Self.onTap(_:)`, `CartViewController.onTap`, `(onTap(_:))`: the method's name as the
  /// selector writes it (its base name alone when it gives no labels).
  private static func methodName(_ expression: ExprSyntax) -> String? {
    if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
      return methodName(only.expression)
    }
    let reference: DeclReferenceExprSyntax
    if let plain = expression.as(DeclReferenceExprSyntax.self) {
      reference = plain
    } else if let member = expression.as(MemberAccessExprSyntax.self) {
      reference = member.declName
    } else {
      return nil
    }
    let base = SwiftIdentifier.unescaped(reference.baseName.text)
    guard let labels = reference.argumentNames else { return base }
    return base + "(" + labels.arguments.map { SwiftIdentifier.unescaped($0.name.text) + ":" }.joined() + ")"
  }

  /// The function or type a selector is handed to: `addTarget`, `UITapGestureRecognizer`, `UIBarButtonItem`,
  /// `perform`, `addObserver`.
  private func enclosingCall(of node: Syntax) -> String? {
    var current = node.parent
    while let candidate = current {
      if let call = candidate.as(FunctionCallExprSyntax.self) {
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        return nil
      }
      if candidate.is(CodeBlockItemSyntax.self) || candidate.is(MemberBlockItemSyntax.self) { return nil }
      current = candidate.parent
    }
    return nil
  }

  // MARK: Calls

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    // `UIAction { ... }`, `UIAction(title:) { ... }`, `UIAction(handler: { ... })`: the closure runs when
    // the action fires, and what it calls, Swift calls directly.
    if let type = node.calledExpression.as(DeclReferenceExprSyntax.self), type.baseName.text == "UIAction" {
      if let closure = node.trailingClosure { actionClosureStarts.insert(closure.position) }
      for argument in node.arguments where argument.label?.text == "handler" {
        if let closure = argument.expression.as(ClosureExprSyntax.self) { actionClosureStarts.insert(closure.position) }
      }
    }
    let name: String
    let called = node.calledExpression
    if let reference = called.as(DeclReferenceExprSyntax.self) {
      name = reference.baseName.text
    } else if let member = called.as(MemberAccessExprSyntax.self), let base = member.base {
      // A call of `super`'s implementation is the override's own chain, not a caller.
      if let keyword = base.as(SuperExprSyntax.self), keyword.superKeyword.tokenKind == .keyword(.super) { return .visitChildren }
      name = member.declName.baseName.text
    } else {
      return .visitChildren
    }
    // Types and initializers are capitalized; a method's name is not.
    guard let first = name.unicodeScalars.first, !first.properties.isUppercase, name != "init" else { return .visitChildren }
    let labels = node.arguments.map { ($0.label.map { SwiftIdentifier.unescaped($0.text) } ?? "_") + ":" }
    let trailing = (node.trailingClosure == nil ? 0 : 1) + node.additionalTrailingClosures.count
    let full = SwiftIdentifier.unescaped(name) + "(" + labels.joined() + String(repeating: "_:", count: trailing) + ")"
    add(actionClosures > 0 ? .actionClosureCall : .call, full, via: nil, at: called)
    return .visitChildren
  }

  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
    if actionClosureStarts.contains(node.position) { actionClosures += 1 }
    return .visitChildren
  }

  override func visitPost(_ node: ClosureExprSyntax) {
    if actionClosureStarts.contains(node.position) { actionClosures -= 1 }
  }

  override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  private func add(_ kind: ScannedUse.Kind, _ name: String, via: String?, at node: some SyntaxProtocol) {
    guard uses.count < Self.limit, seen.insert("\(kind.rawValue) \(name) \(via ?? "")").inserted else { return }
    uses.append(ScannedUse(kind: kind, name: name, via: via, position: lines.scannedPosition(of: node)))
  }
}

/// A way a method is reached, found in a body (`HandlerUseCollector`).
struct ScannedUse: FieldRecord, Hashable {
  enum Kind: String, FieldEnum {
    /// `#selector(name)`: called through the Objective-C runtime.
    case selector
    /// Called from Swift code.
    case call
    /// Called from Swift code inside a `UIAction`'s closure.
    case actionClosureCall
  }

  var kind = Kind.selector
  /// `onTap(_:)`; a selector's base name alone when it gives no labels (`#selector(onTap)`).
  var name = ""
  /// What a selector is handed to (`addTarget`, `UITapGestureRecognizer`); nil for calls.
  var via: String? = nil
  var position = ScannedPosition()

  mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("kind", &kind)
    try coder.field("name", &name)
    try coder.field("position", &position)
    try coder.field("via", &via)
  }
}
