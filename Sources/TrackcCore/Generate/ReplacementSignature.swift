import SwiftBasicFormat
import SwiftParser
import SwiftSyntax

/// A replaced method's name and signature, as its generated replacement repeats them: read from the
/// registry once, and checked there. The name must be a Swift full name, and its argument labels are the
/// ones `HandlerName` reads from it; the parameter types, effects and result type are parsed by
/// swift-syntax and must read back as exactly what the registry wrote, so that a type meant to close the
/// parameter list and start a function of its own is refused, never written. The generator holds only
/// signatures made here (`GenerationModel.Replacement`), and `handler-signature` reports the ones that
/// cannot be made: one computation for both.
struct ReplacementSignature {
  struct Parameter {
    /// The argument label, from the method's name; nil for `_`.
    var label: ArgumentLabel?
    /// As the registry writes it, parsed (one written over several lines or with comments is respaced on
    /// one line).
    var type: TypeSyntax
    /// An `inout` parameter is passed on as `&p0`.
    var isInout: Bool
  }

  /// The method's base name, as it is referenced (`` `default` ``).
  var baseName: ValidIdentifier
  /// The replacement's own name (`__trackc_default`).
  var replacementName: ValidIdentifier
  var parameters: [Parameter]
  var effects: FunctionEffectSpecifiersSyntax?
  var returnType: TypeSyntax?

  /// The original is called with `try`.
  var isThrowing: Bool { effects?.throwsClause != nil }

  /// Why a signature cannot be repeated; `HandlerSignatureRule` words it.
  enum Problem: Error, Equatable {
    case notASwiftName
    case argumentCount(labels: Int, parameters: Int)
    case notALabel(String)
    case doesNotParse
    case typesDoNotParse
    case notAType(String)
    case notEffects(String)
    case variadic(String)
    case async
  }

  /// Reads `name` and `signature` as the registry gives them.
  static func read(name: String, signature: MethodSignature) -> Result<ReplacementSignature, Problem> {
    guard case .success(let handler) = HandlerName.parse(name), handler.form == .swiftName, handler.canonical == name,
      let baseName = ValidIdentifier(escaping: handler.baseName), let replacementName = ValidIdentifier("__trackc_" + baseName.bare)
    else { return .failure(.notASwiftName) }
    let labels = handler.labels
    guard labels.count == signature.parameters.count else {
      return .failure(.argumentCount(labels: labels.count, parameters: signature.parameters.count))
    }
    for parameter in signature.parameters {
      if let label = parameter.label, !SwiftIdentifier.isValid(Substring(label), as: .member) { return .failure(.notALabel(label)) }
    }

    // One parse of everything the registry wrote, in the place it will stand.
    let parameterList = signature.parameters.enumerated().map { "_ p\($0.offset): \($0.element.type)" }.joined(separator: ", ")
    let effectsText = signature.effects.map { " " + $0 } ?? ""
    let resultText = signature.returnType.map { " -> " + $0 } ?? ""
    let tree = Parser.parse(source: "func f(\(parameterList))\(effectsText)\(resultText) {}\n")
    guard !tree.hasError, tree.statements.count == 1, let function = tree.statements.first?.item.as(FunctionDeclSyntax.self) else {
      return .failure(.doesNotParse)
    }
    let parsed = Array(function.signature.parameterClause.parameters)
    guard parsed.count == signature.parameters.count else { return .failure(.typesDoNotParse) }
    var parameters: [Parameter] = []
    for ((written, parameter), label) in zip(zip(signature.parameters, parsed), labels) {
      let type = parameter.type.trimmedDescription + (parameter.ellipsis != nil ? "..." : "")
      guard type == written.type, parameter.defaultValue == nil else { return .failure(.notAType(written.type)) }
      // A replacement has no way to pass a variadic list on to the original.
      guard parameter.ellipsis == nil else { return .failure(.variadic(written.type)) }
      let isInout =
        parameter.type.as(AttributedTypeSyntax.self)?.specifiers.contains {
          $0.as(SimpleTypeSpecifierSyntax.self)?.specifier.tokenKind == .keyword(.inout)
        } ?? false
      var argumentLabel: ArgumentLabel?
      if label != "_" {
        guard let valid = ArgumentLabel(label) else { return .failure(.notASwiftName) }
        argumentLabel = valid
      }
      parameters.append(Parameter(label: argumentLabel, type: plain(parameter.type), isInout: isInout))
    }
    let effects = function.signature.effectSpecifiers
    guard effects?.trimmedDescription == signature.effects else { return .failure(.notEffects(signature.effects ?? "")) }
    // A replacement of an async method that calls the original calls itself (Swift 6.3).
    guard effects?.asyncSpecifier == nil else { return .failure(.async) }
    let returnType = function.signature.returnClause?.type
    guard returnType?.trimmedDescription == signature.returnType else { return .failure(.notAType(signature.returnType ?? "")) }
    return .success(
      ReplacementSignature(
        baseName: baseName, replacementName: replacementName, parameters: parameters, effects: effects.map(plain), returnType: returnType.map(plain)))
  }

  /// The node on its own, on one line: no trivia around it, and, for the rare type a registry writes over
  /// several lines or with comments, its tokens spaced afresh by swift-syntax's `BasicFormat`.
  private static func plain<Node: SyntaxProtocol>(_ node: Node) -> Node {
    let node = node.trimmed
    guard node.description.contains(where: { $0.isNewline || $0 == "/" || $0 == "\t" }) else { return node }
    return TriviaRemover(viewMode: .sourceAccurate).rewrite(node).formatted(using: BasicFormat(indentationWidth: [])).cast(Node.self)
  }

  /// Drops every token's trivia.
  private final class TriviaRemover: SyntaxRewriter {
    override func visit(_ token: TokenSyntax) -> TokenSyntax {
      token.with(\.leadingTrivia, []).with(\.trailingTrivia, [])
    }
  }
}

/// An argument label read from a Swift full name (never `_`), of visible characters: `inout`, `var` and
/// `let` need backticks in a parameter list and a call; any other name, keywords included, stands as it is.
struct ArgumentLabel: Hashable {
  let text: String

  /// nil when `label` is not an argument label.
  init?(_ label: String) {
    guard label != "_", SwiftIdentifier.isValid(Substring(label), as: .member), !label.unicodeScalars.contains(where: TextEscaping.isInvisible)
    else { return nil }
    text = ["inout", "var", "let"].contains(label) ? "`\(label)`" : label
  }

  /// A label written in trackc's own source (`rawValue`, `eventID`).
  init(fixed label: StaticString) {
    text = label.description
    assert(ArgumentLabel(text) != nil, "'\(label)' is not an argument label")
  }
}
