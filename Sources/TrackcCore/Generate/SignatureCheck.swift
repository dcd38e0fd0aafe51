import SwiftParser
import SwiftSyntax

/// Whether a method name and signature from a registry are what they claim to be: a Swift full name,
/// and parameter types, effects and a result type that swift-syntax parses back to exactly themselves.
/// Generated replacements repeat them verbatim, so anything else (a type that closes the parameter list
/// and starts a function of its own, say) must never reach the output.
enum SignatureCheck {
  /// Why the signature cannot be used; nil when it can.
  static func problem(name: String, signature: MethodSignature) -> String? {
    guard case .success(let handler) = HandlerName.parse(name), handler.form == .swiftName, handler.canonical == name else {
      return "'\(name)' is not a Swift method name"
    }
    let labelCount = name.filter { $0 == ":" }.count
    guard labelCount == signature.parameters.count else {
      return "'\(name)' has \(labelCount) arguments but the signature \(signature.parameters.count) parameters"
    }
    for parameter in signature.parameters {
      if let label = parameter.label, !SwiftIdentifier.isValid(Substring(label), as: .member) {
        return "'\(label)' is not an argument label"
      }
    }
    let parameters = signature.parameters.enumerated().map { "_ p\($0.offset): \($0.element.type)" }.joined(separator: ", ")
    let effects = signature.effects.map { " " + $0 } ?? ""
    let result = signature.returnType.map { " -> " + $0 } ?? ""
    let source = "func f(\(parameters))\(effects)\(result) {}\n"
    let tree = Parser.parse(source: source)
    guard !tree.hasError, tree.statements.count == 1, let function = tree.statements.first?.item.as(FunctionDeclSyntax.self) else {
      return "it does not parse as Swift"
    }
    let parsed = Array(function.signature.parameterClause.parameters)
    guard parsed.count == signature.parameters.count else { return "its parameter types do not parse as types" }
    for (written, parameter) in zip(signature.parameters, parsed) {
      let type = parameter.type.trimmedDescription + (parameter.ellipsis != nil ? "..." : "")
      guard type == written.type, parameter.defaultValue == nil else { return "'\(written.type)' is not a type" }
    }
    guard function.signature.effectSpecifiers?.trimmedDescription == signature.effects else {
      return "'\(signature.effects ?? "")' are not effects"
    }
    guard function.signature.returnClause?.type.trimmedDescription == signature.returnType else {
      return "'\(signature.returnType ?? "")' is not a type"
    }
    return nil
  }
}
