import SwiftSyntax

/// Generated Swift as typed values, in the manner of swift-openapi-generator's
/// `StructuredSwiftRepresentation`: what the emitters build and `SwiftRenderer` writes.
///
/// Nothing here is code held as text. A string is a `String` the renderer escapes
/// (`TextEscaping.swiftStringLiteral`); a name is a `ValidIdentifier` or an `ArgumentLabel`, each checked (or
/// derived) to be one; a comment is a `Comment`, one line of visible characters; a type from the code is
/// the `TypeSyntax` that `ReplacementSignature` parsed and checked. So whatever the emitters do with a
/// string from a config or a registry, it cannot become code.
///
/// (Built as swift-syntax nodes instead, a 10,000-event registry took 3.4 s and 600 MB: each node and
/// token has an arena of its own. This renders it in about 50 ms, and the tests parse every file it
/// writes with swift-syntax.)
enum SwiftCode {
  /// A file: comment lines, then declarations.
  struct File {
    var header: [Comment]
    var declarations: [Member]
  }

  /// A declaration in a file or a type, with what stands before it.
  struct Member {
    var declaration: Declaration
    /// A blank line before it (after its opening brace, none is written).
    var blankLineBefore = false
    /// `//` lines, then a blank line, before the declaration (and its documentation).
    var comments: [Comment] = []
    /// `///` lines.
    var documentation: [Comment] = []
  }

  indirect enum Declaration {
    /// `import A`, `@testable import A.B`, `@_spi(Generated) import A` (what only generated code sees
    /// of the runtime)
    case importModule(testable: Bool, generatedSPI: Bool = false, [ValidIdentifier])
    /// `<modifiers> enum Name: A, B { members }`
    case enumeration([Modifier], ValidIdentifier, inherits: [ValidIdentifier], [Member])
    /// `<modifiers> struct Name: A { members }`
    case structure([Modifier], ValidIdentifier, inherits: [ValidIdentifier], [Member])
    /// `extension A.B { members }`, after its attributes (`@available(iOS 17, *)`), each on a line
    case extensionOf([ValidIdentifier], [Member], attributes: [Attribute] = [])
    /// `<modifiers> let name = value`
    case constant([Modifier], ValidIdentifier, Expression)
    /// `<modifiers> let name: Type = value`
    case typedConstant([Modifier], ValidIdentifier, TypeReference, Expression)
    /// `case name = value`
    case enumCase(ValidIdentifier, rawValue: Expression)
    /// `case name(label: Type, ...)`; `case name` without values.
    case caseWithValues(ValidIdentifier, [(label: ArgumentLabel, type: TypeReference)])
    /// `<modifiers> var name: Type { statements }`
    case computedProperty([Modifier], ValidIdentifier, TypeReference, [Statement])
    /// `<modifiers> init() {}`
    case emptyInitializer([Modifier])
    case function(Function)
    /// `#if canImport(Module)`, the members one level in, `#endif`: code for the platforms that have a
    /// framework (SwiftUI), which the others skip.
    case ifCanImport(ValidIdentifier, [Member])
  }

  enum Modifier: String {
    /// `@_spi(Generated)`: what the runtime keeps from apps, and generated code conforms with; first.
    case generatedSPI = "@_spi(Generated)"
    case `public`, `private`, `static`, nonisolated, mutating, `fileprivate`
  }

  struct Function {
    var attributes: [Attribute] = []
    var modifiers: [Modifier]
    var name: ValidIdentifier
    var parameters: [Parameter]
    /// `throws`, `rethrows`, as the code writes them (checked).
    var effects: FunctionEffectSpecifiersSyntax? = nil
    var result: TypeReference?
    var body: [Statement]
  }

  enum Attribute {
    /// `@_dynamicReplacement(for: name(label:_:))`, on a line of its own.
    case dynamicReplacement(ValidIdentifier, labels: [ArgumentLabel?])
    /// `@MainActor`, before the modifiers.
    case mainActor
    /// `@available(iOS 17, *)`, on a line of its own: what the code it names says (checked platforms and
    /// versions only).
    case available(Availability)
  }

  /// `label name: Type`; `_ name: Type` without a label, `label: Type` without a name.
  struct Parameter {
    var label: ArgumentLabel?
    var name: ValidIdentifier?
    var type: TypeReference
  }

  indirect enum TypeReference {
    /// `A`, `A.B`
    case named([ValidIdentifier])
    /// `A?`
    case optional(TypeReference)
    /// `[A]`
    case array(TypeReference)
    /// `A<B, C>`
    case generic(ValidIdentifier, [TypeReference])
    /// A type from the code, as `ReplacementSignature` read it.
    case syntax(TypeSyntax)
    /// `some A`
    case opaque([ValidIdentifier])
  }

  indirect enum Statement {
    case expression(Expression)
    case returnValue(Expression)
    /// `let name = value`
    case constant(ValidIdentifier, Expression)
    /// `defer { expression }`
    case deferred(Expression)
    /// `switch subject { cases }`, the cases at the switch's indentation.
    case switchOn(Expression, [Case])
    /// `call { parameter in statements }`
    case callWithClosure(Expression, closureParameter: ValidIdentifier, [Statement])
    /// `let name = call { parameter in statements }`: a call with a trailing closure of one parameter.
    case constantWithClosure(ValidIdentifier, Expression, closureParameter: ValidIdentifier, [Statement])
    /// `if conditions { statements }`
    case ifThen([Condition], [Statement])
    /// `if #available(iOS 17, macOS 14, *) { statements }`
    case ifAvailable([Availability.PlatformVersion], [Statement])
    /// `guard conditions else { statements }`
    case guardElse([Condition], [Statement])
    /// `break` (a `default:` that does nothing).
    case breakStatement
  }

  /// One condition of an `if` or a `guard`.
  enum Condition {
    /// A Boolean expression.
    case test(Expression)
    /// `let name = value`: an optional unwrapped.
    case binding(ValidIdentifier, Expression)
  }

  /// `case a, b:` (or `default:` without patterns) and its statements.
  struct Case {
    var patterns: [Expression]
    var body: [Statement]
  }

  indirect enum Expression {
    case string(String)
    case integer(Int)
    /// A finite double.
    case double(Double)
    case boolean(Bool)
    case nilLiteral
    case selfReference
    /// `name`, `Outer.member`
    case reference([ValidIdentifier])
    /// `.name`: a member of the type the context gives.
    case implicitMember(ValidIdentifier)
    case call(Expression, [Argument])
    case array([Expression])
    case dictionary([(key: Expression, value: Expression)])
    /// `&name`
    case inOut(ValidIdentifier)
    /// `try expression`
    case tryExpression(Expression)
    /// `base?.name`
    case optionalMember(Expression, ValidIdentifier)
    /// `(base as? A.B)`
    case conditionalCast(Expression, [ValidIdentifier])
    /// `0x0123456789ABCDEF`: a 64-bit value (a hash) in hexadecimal.
    case hexadecimal(UInt64)
    /// `base.member`
    case member(Expression, ValidIdentifier)
    /// `A.B.self`
    case metatype([ValidIdentifier])
    /// `let name`, in a pattern (`case .product(let id)`).
    case binding(ValidIdentifier)
    /// `value == nil`
    case isNil(Expression)
    /// `callee { body }`: a call with a trailing closure of no parameters, whose body is one expression.
    case trailingClosure(Expression, Expression)
  }

  struct Argument {
    var label: ArgumentLabel?
    var value: Expression

    init(_ label: ArgumentLabel?, _ value: Expression) {
      self.label = label
      self.value = value
    }

    /// Without a label.
    init(_ value: Expression) {
      self.init(nil, value)
    }
  }
}

/// One line of a comment: visible characters only (`SwiftSource.commentText`), so that a line break in
/// a file or type name cannot end the comment and start code.
struct Comment {
  let text: String

  init(_ text: String) {
    self.text = SwiftSource.commentText(text)
  }
}
