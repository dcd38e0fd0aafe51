import SwiftParser
import SwiftSyntax

/// A type as the code writes it (`String?`, `Optional<Cart>`, `Swift.Int`, `inout Tab`, `[String]`),
/// read by swift-syntax's parser into what a binding needs: the named type it is, and whether it is
/// optional. Anything else (collections, tuples, closures, existentials, generic arguments) is kept as a
/// reason, for the message.
///
/// Types come from the code (or a registry file, which may hold anything): the text is only read here,
/// never written into generated code.
public struct SwiftValueType: Sendable, Hashable {
  /// The named type's dotted components, without backticks (`["Swift", "Int"]`, `["Cart"]`).
  public var components: [String]
  /// `T?`, `T!`, `Optional<T>` (one level: `T??` is refused).
  public var isOptional: Bool

  public var name: String { components.joined(separator: ".") }

  /// Why a type is not a named type a binding can read.
  public enum Unreadable: Error, Hashable, Sendable {
    /// Not a Swift type at all.
    case notAType
    /// `[String]`, `[K: V]`, `Set<T>`, `Box<T>`: a type with elements or generic arguments.
    case collectionOrGeneric
    /// `(Int, Int)`, `() -> Void`, `some P`, `any P`, `P & Q`, `T??`.
    case other
    /// `any P`, `some P`, `P & Q` of protocols outside the sources: the value's type is hidden from
    /// the code that reads it, and trackc cannot tell it (as written).
    case existential(String)
    /// Aliases that stand, through one another, for themselves (`A`, `B`, `A`): no type at all.
    case aliasCycle([String])
    /// A name several modules declare, written unqualified where none of them is the code's own.
    case ambiguous(name: String, modules: [String])
    /// Aliases of aliases deeper than trackc follows.
    case tooDeep
  }

  /// Parses `text`; a parameter's `inout`, `@escaping`, `borrowing` and `consuming` are looked through.
  public static func read(_ text: String) -> Result<SwiftValueType, Unreadable> {
    // Types in real code are short; a registry could hold anything, and nothing longer is a type here.
    guard !text.isEmpty, text.utf8.count <= 1_000 else { return .failure(.notAType) }
    var parser = Parser(text)
    let type = TypeSyntax.parse(from: &parser)
    guard !type.hasError, type.trimmedDescription == text.trimmingSpaces else { return .failure(.notAType) }
    return read(type, optional: false)
  }

  private static func read(_ type: TypeSyntax, optional: Bool) -> Result<SwiftValueType, Unreadable> {
    if let attributed = type.as(AttributedTypeSyntax.self) {
      // `@escaping` goes with closures, which are refused below anyway.
      return read(attributed.baseType, optional: optional)
    }
    if let wrapped = type.as(OptionalTypeSyntax.self) {
      return optional ? .failure(.other) : read(wrapped.wrappedType, optional: true)
    }
    if let wrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return optional ? .failure(.other) : read(wrapped.wrappedType, optional: true)
    }
    if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil {
      return read(only.type, optional: optional)
    }
    if type.is(ArrayTypeSyntax.self) || type.is(DictionaryTypeSyntax.self) { return .failure(.collectionOrGeneric) }
    guard let components = components(type) else { return .failure(.other) }
    if let last = components.last, last.arguments != nil {
      // `Optional<T>` is `T?`; any other generic argument makes it a generic type.
      if components.count <= 2, last.name == "Optional", components.count == 1 || components[0].name == "Swift",
        last.arguments!.count == 1, let argument = last.arguments!.first?.argument.as(TypeSyntax.self)
      {
        return optional ? .failure(.other) : read(argument, optional: true)
      }
      return .failure(.collectionOrGeneric)
    }
    guard components.allSatisfy({ $0.arguments == nil }) else { return .failure(.collectionOrGeneric) }
    return .success(SwiftValueType(components: components.map(\.name), isOptional: optional))
  }

  private struct Component {
    var name: String
    var arguments: GenericArgumentListSyntax?
  }

  /// `A.B.C`, each with its generic arguments; nil for anything that is not a named type.
  private static func components(_ type: TypeSyntax) -> [Component]? {
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      return [Component(name: SwiftIdentifier.unescaped(identifier.name.text), arguments: identifier.genericArgumentClause?.arguments)]
    }
    if let member = type.as(MemberTypeSyntax.self), let base = components(member.baseType) {
      return base + [Component(name: SwiftIdentifier.unescaped(member.name.text), arguments: member.genericArgumentClause?.arguments)]
    }
    return nil
  }

}

extension String {
  /// Without leading and trailing spaces.
  fileprivate var trimmingSpaces: String {
    let scalars = unicodeScalars
    guard let start = scalars.firstIndex(where: { $0 != " " }) else { return "" }
    let end = scalars.lastIndex(where: { $0 != " " })!
    return String(scalars[start...end])
  }
}

/// The Swift types a bound value may have, and how each becomes a property value: what the binding rules
/// check and the generated capture code converts, decided once (`MatchedPlan`).
public indirect enum CaptureConversion: Sendable, Hashable {
  /// `String`, `Int`, `Double`, `Bool`: as they are.
  case direct
  /// Other integer types (`Int32`, `UInt64`), clamped to `Int`.
  case integer
  /// Other floating-point types (`Float`, `CGFloat`), widened to `Double`.
  case floatingPoint
  /// A `RawRepresentable` (an enum with a raw type): its raw value, itself converted by `raw`.
  case rawValue(raw: CaptureConversion)
  /// A `CustomStringConvertible` (`Substring`, `UUID`, a type of the app's), by its `description`.
  case description

  /// The standard library's and Foundation's types a property may have, by name: their wire type and
  /// conversion. (`UUID`, `URL` and `Decimal` are `CustomStringConvertible`: strings only when declared so.)
  /// Aliases of these (`Float64`, `TimeInterval`, `CLLocationDegrees`) are `SDKTypeAliases`', followed
  /// before this is asked.
  static func standard(_ name: String) -> (type: PropertyType, conversion: CaptureConversion)? {
    switch name {
    case "String": return (.string, .direct)
    case "Substring", "Character": return (.string, .description)
    case "Int": return (.int, .direct)
    case "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64": return (.int, .integer)
    case "Double": return (.double, .direct)
    case "Float", "Float16", "CGFloat": return (.double, .floatingPoint)
    case "Bool": return (.bool, .direct)
    default: return nil
    }
  }

  /// Types outside the sources known to be `CustomStringConvertible` (and safe to describe).
  static let describableStandardTypes: Set<String> = ["UUID", "URL", "Decimal"]

  /// Module names under which the standard types are also written (`Swift.Int`, `Foundation.UUID`).
  static let standardModules: Set<String> = ["Swift", "Foundation", "CoreGraphics", "CoreFoundation"]
}
