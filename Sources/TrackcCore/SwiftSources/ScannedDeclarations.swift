/// What one Swift file declares, as far as trackc cares: types, extensions and their methods, properties
/// and initializers.
///
/// It is position-exact and path-free (the path is attached when files are linked into a registry), so
/// that a file's scan can be cached by its content and reused wherever that content appears.
struct FileScan: Codable, Sendable {
  /// Types and extensions, in the order they are written (a nested type after its enclosing one).
  var declarations: [ScannedDeclaration] = []
  /// The modules the file imports outside `#if` (what generated code beside its types must import too).
  var imports: [String] = []
  /// What bodies and properties say about SwiftUI screens: hosting controllers, presentations, the
  /// `.tracked(_:)` modifier, view models held (`ViewReferenceCollector`).
  var references: [ScannedReference] = []
  /// Problems reading the file (invalid Swift), as line, column and message.
  var problems: [ScanProblem] = []
  /// How methods are reached in the file's bodies: selectors, calls (`HandlerUseCollector`).
  var uses: [ScannedUse] = []
  /// `typealias` declarations, at the top level and in types and extensions.
  var typeAliases: [ScannedTypeAlias] = []

  var types: some Sequence<ScannedDeclaration> { declarations.lazy.filter { $0.kind != .extension } }
  var extensions: some Sequence<ScannedDeclaration> { declarations.lazy.filter { $0.kind == .extension } }
}

/// `Value == String` in a `where` clause, as written (without spaces).
public struct SameTypeRequirement: Codable, Sendable, Hashable {
  public var left: String
  public var right: String

  public init(left: String, right: String) {
    self.left = left
    self.right = right
  }
}

/// A `typealias`: its name qualified by the types and extensions around it (`Product.ID`), its own
/// generic parameters and the type it stands for, as written.
struct ScannedTypeAlias: Codable, Sendable {
  var name: String
  var genericParameters: [String]
  var aliased: String
  var access: AccessLevel?
  var conditional: Bool
  var position: ScannedPosition
}

struct ScanProblem: Codable, Sendable, Hashable {
  var line: Int
  var column: Int
  var message: String
}

/// A position in a Swift file: 1-based line, 1-based column in characters (Unicode scalars).
struct ScannedPosition: Codable, Sendable, Hashable {
  var line: Int
  var column: Int
}

/// A type declaration or an extension: one shape for both, since the linker reads the same things of
/// each (an extension's members join its type's).
struct ScannedDeclaration: Codable, Sendable {
  enum Kind: String, Codable, Sendable, CaseIterable {
    case `class`, `struct`, `enum`, actor, `protocol`, `extension`
  }

  var kind: Kind
  /// A type's name qualified by enclosing types and extensions (`Outer.Inner`); an extension's extended
  /// type as written (`Outer.Inner`, `Shop.HomeViewController`).
  var name: String
  var inheritance: [String]
  /// As written, without arguments except `@objc(name)`'s: `@objcMembers`, `@objc` (an extension),
  /// `@Observable`, `@MainActor`.
  var attributes: [String] = []
  /// Its members are in a generic context: the type or an enclosing type has generic parameters, or the
  /// extension has a `where` clause.
  var isGeneric: Bool
  var access: AccessLevel?
  var conditional: Bool
  var position: ScannedPosition
  /// A type's own generic parameters, by name (`Value` of `struct Box<Value>`), in order.
  var genericParameters: [String] = []
  /// An extension's same-type requirements (`where Value == String`): its members exist only for those
  /// arguments.
  var requirements: [SameTypeRequirement] = []
  var methods: [ScannedMethod] = []
  var properties: [ScannedProperty] = []
  var initializers: [ScannedInitializer] = []
  var subscripts: [ScannedSubscript] = []

  /// Every member is exposed to Objective-C: `@objcMembers` on a type, `@objc` on an extension.
  var exposesMembersToObjC: Bool {
    attributes.contains(kind == .extension ? "@objc" : "@objcMembers")
  }

  /// The kind of type it declares; nil for an extension.
  var typeKind: DeclaredType.Kind? {
    switch kind {
    case .class: return .class
    case .struct: return .struct
    case .enum: return .enum
    case .actor: return .actor
    case .protocol: return .protocol
    case .extension: return nil
    }
  }
}

struct ScannedMethod: Codable, Sendable {
  var baseName: String
  /// Argument labels; nil for `_`.
  var labels: [String?]
  var isStatic: Bool
  /// As written on the method; nil for the default.
  var access: AccessLevel?
  /// As written: `@objc`, `@objc(name:)`, `@IBAction`, `@nonobjc`, `dynamic`, `final`, `override`, ...
  var attributes: [String]
  /// The name given by `@objc(name:)`, if any.
  var explicitSelector: String?
  var isGeneric: Bool
  var isThrowing: Bool
  var isAsync: Bool
  var conditional: Bool
  var documentation: String?
  var position: ScannedPosition
  /// The parameters' types as written (`inout Int`, `@escaping () -> Void`, `Int...`), the result type and
  /// the effects (`async throws`), for generated code that must repeat the signature.
  var parameterTypes: [String] = []
  /// The parameters' own names (`position` in `at position: Int`) and whether each has a default value.
  var parameters = ScannedParameters()
  var returnType: String?
  var effects: String?
  /// `open(item:at:)`. Worked out when the file is scanned (in parallel, and cached), not when linking.
  var fullName: String = ""
  /// The selector Objective-C would see, were the method exposed to it.
  var derivedSelector: String = ""

  /// Sets the names derived from the others.
  mutating func deriveNames() {
    fullName = baseName + "(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
    derivedSelector = explicitSelector ?? ObjCSelector.derive(baseName: baseName, labels: labels, isThrowing: isThrowing, isAsync: isAsync)
  }

  var hasObjCAttribute: Bool {
    attributes.contains { $0 == "@objc" || $0.hasPrefix("@objc(") || $0 == "@IBAction" || $0 == "@IBSegueAction" }
  }

  var isNonObjC: Bool { attributes.contains("@nonobjc") }
}

/// What a parameter list says beyond labels and types: each parameter's own name and whether it has a
/// default value. Kept apart so that the common case (the name is the label, no default) costs a byte.
struct ScannedParameters: Codable, Sendable, Hashable {
  /// The parameter's name inside the function; nil when it is `_` (or not given).
  var names: [String?] = []
  var hasDefault: [Bool] = []
}

/// A stored or computed property of a type or extension (not an enum case, not a local variable).
struct ScannedProperty: Codable, Sendable {
  var name: String
  /// As written (`Int`, `Cart?`, `[String]`); when not written, inferred from a literal or a `Type(...)`
  /// initial value (`typeIsInferred`); nil when neither.
  var type: String?
  var typeIsInferred = false
  var isStatic: Bool
  /// Has a getter of its own (`var total: Double { ... }`, `{ get }` in a protocol), rather than storage.
  var isComputed: Bool
  /// `let`.
  var isConstant: Bool
  /// The getter's access as written (`private(set)` does not narrow it); nil for the default.
  var access: AccessLevel?
  /// As written: `@objc`, `@objc(name)`, `@IBOutlet`, `@Published`, and the modifiers `lazy`, `weak`,
  /// `unowned`, `dynamic`, `final`, `override`.
  var attributes: [String]
  /// The getter `throws` or is `async`, so that reading it needs `try` or `await`.
  var hasEffectfulGetter = false
  var conditional: Bool
  var position: ScannedPosition

  var hasObjCAttribute: Bool {
    attributes.contains {
      $0 == "@objc" || $0.hasPrefix("@objc(") || $0 == "@IBOutlet" || $0 == "@IBInspectable" || $0 == "@NSManaged"
        || $0 == "@GKInspectable"
    }
  }

  var isNonObjC: Bool { attributes.contains("@nonobjc") }

  /// The name given by `@objc(name)`, if any.
  var explicitObjCName: String? {
    guard let attribute = attributes.first(where: { $0.hasPrefix("@objc(") && $0.hasSuffix(")") }) else { return nil }
    return String(attribute.dropFirst(6).dropLast())
  }
}

/// An `init` of a type or extension.
struct ScannedInitializer: Codable, Sendable {
  /// Argument labels; nil for `_`.
  var labels: [String?]
  var parameterTypes: [String]
  var parameters: ScannedParameters
  /// `?` or `!` for a failable initializer.
  var failability: String?
  var access: AccessLevel?
  /// As written: `@objc`, `@MainActor`, and the modifiers `convenience`, `required`, `override`,
  /// `nonisolated`.
  var attributes: [String]
  var isGeneric: Bool
  /// `throws`, `async throws`, as written.
  var effects: String?
  var conditional: Bool
  var documentation: String?
  var position: ScannedPosition

  /// `init(feed:)`.
  var fullName: String { "init(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")" }
}

/// A subscript of a type or extension that has no generic parameters of its own: what the compiler
/// infers a collection's `Element` from (`subscript(position: Int) -> Book`).
struct ScannedSubscript: Codable, Sendable {
  /// The parameters' types as written.
  var parameterTypes: [String]
  /// The result type as written.
  var resultType: String
  var isStatic: Bool
  var access: AccessLevel?
  var conditional: Bool
  var position: ScannedPosition
}

/// Swift access levels, in increasing order.
public enum AccessLevel: String, Codable, Sendable, Comparable, CaseIterable {
  case `private`, `fileprivate`, `internal`, `package`, `public`, `open`

  public static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// A source the scanner could not read completely (unreadable, not UTF-8, too large, crashing or stalling
/// swift-syntax's parser, or not valid Swift), where and why. The scanner knows no rules: the
/// `swift-source` rule turns these into warnings.
public struct SourceProblem: Sendable, Hashable {
  public var message: String
  public var location: SourceLocation

  public init(_ message: String, at location: SourceLocation) {
    self.message = message
    self.location = location
  }
}
