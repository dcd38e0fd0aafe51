/// What one Swift file declares, as far as trackc cares: types, extensions and their methods, properties
/// and initializers.
///
/// It is position-exact and path-free (the path is attached when files are linked into a registry), so
/// that a file's scan can be cached by its content and reused wherever that content appears.
struct FileScan: FieldRecord, Equatable {
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

  mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("declarations", &declarations)
    try coder.field("imports", &imports)
    try coder.field("problems", &problems)
    try coder.field("references", &references)
    // A reference's owner is one of the file's declarations: a cache that says otherwise is damaged.
    try coder.require(references.allSatisfy { $0.owner.map { $0 >= 0 && $0 < declarations.count } ?? true })
    try coder.field("typeAliases", &typeAliases)
    try coder.field("uses", &uses)
  }

  var types: some Sequence<ScannedDeclaration> { declarations.lazy.filter { $0.kind != .extension } }
  var extensions: some Sequence<ScannedDeclaration> { declarations.lazy.filter { $0.kind == .extension } }
}

/// `Value == String` in a `where` clause, as written (without spaces).
public struct SameTypeRequirement: FieldRecord, Hashable {
  public var left = ""
  public var right = ""

  public init() {}

  public init(left: String, right: String) {
    self.left = left
    self.right = right
  }

  public mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("left", &left)
    try coder.field("right", &right)
  }
}

/// A `typealias`: its name qualified by the types and extensions around it (`Product.ID`), its own
/// generic parameters and the type it stands for, as written.
struct ScannedTypeAlias: FieldRecord, Equatable {
  var name = ""
  var genericParameters: [String] = []
  var aliased = ""
  var access: AccessLevel? = nil
  var conditional = false
  var position = ScannedPosition()

  mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("access", &access)
    try coder.field("aliased", &aliased)
    try coder.field("conditional", &conditional)
    try coder.field("genericParameters", &genericParameters)
    try coder.field("name", &name)
    try coder.field("position", &position)
  }
}

struct ScanProblem: FieldRecord, Hashable {
  var line = 0
  var column = 0
  var message = ""

  mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("column", &column)
    try coder.field("line", &line)
    try coder.field("message", &message)
  }
}

/// A position in a Swift file: 1-based line, 1-based column in characters (Unicode scalars).
struct ScannedPosition: FieldRecord, Hashable {
  var line = 0
  var column = 0

  mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("column", &column)
    try coder.field("line", &line)
  }
}

/// A type declaration or an extension: one shape for both, since the linker reads the same things of
/// each (an extension's members join its type's).
struct ScannedDeclaration: FieldRecord, Equatable {
  enum Kind: String, FieldEnum {
    case `class`, `struct`, `enum`, actor, `protocol`, `extension`
  }

  var kind = Kind.class
  /// A type's name qualified by enclosing types and extensions (`Outer.Inner`); an extension's extended
  /// type as written (`Outer.Inner`, `Shop.HomeViewController`).
  var name = ""
  var inheritance: [String] = []
  /// As written, without arguments except `@objc(name)`'s: `@objcMembers`, `@objc` (an extension),
  /// `@Observable`, `@MainActor`.
  var attributes: [String] = []
  /// Its members are in a generic context: the type or an enclosing type has generic parameters, or the
  /// extension has a `where` clause.
  var isGeneric = false
  var access: AccessLevel? = nil
  var conditional = false
  var position = ScannedPosition()
  /// A type's own generic parameters, by name (`Value` of `struct Box<Value>`), in order.
  var genericParameters: [String] = []
  /// An extension's same-type requirements (`where Value == String`): its members exist only for those
  /// arguments.
  var requirements: [SameTypeRequirement] = []
  var methods: [ScannedMethod] = []
  var properties: [ScannedProperty] = []
  var initializers: [ScannedInitializer] = []
  var subscripts: [ScannedSubscript] = []

  mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("access", &access)
    try coder.field("attributes", &attributes)
    try coder.field("conditional", &conditional)
    try coder.field("genericParameters", &genericParameters)
    try coder.field("inheritance", &inheritance)
    try coder.field("initializers", &initializers)
    try coder.field("isGeneric", &isGeneric)
    try coder.field("kind", &kind)
    try coder.field("methods", &methods)
    try coder.field("name", &name)
    try coder.field("position", &position)
    try coder.field("properties", &properties)
    try coder.field("requirements", &requirements)
    try coder.field("subscripts", &subscripts)
  }

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

struct ScannedMethod: FieldRecord, Equatable {
  var baseName = ""
  /// Argument labels; nil for `_`.
  var labels: [String?] = []
  var isStatic = false
  /// As written on the method; nil for the default.
  var access: AccessLevel? = nil
  /// As written: `@objc`, `@objc(name:)`, `@IBAction`, `@nonobjc`, `dynamic`, `final`, `override`, ...
  var attributes: [String] = []
  /// The name given by `@objc(name:)`, if any.
  var explicitSelector: String? = nil
  var isGeneric = false
  var isThrowing = false
  var isAsync = false
  var conditional = false
  var documentation: String? = nil
  var position = ScannedPosition()
  /// The parameters' types as written (`inout Int`, `@escaping () -> Void`, `Int...`), the result type and
  /// the effects (`async throws`), for generated code that must repeat the signature.
  var parameterTypes: [String] = []
  /// The parameters' own names (`position` in `at position: Int`) and whether each has a default value.
  var parameters = ScannedParameters()
  var returnType: String? = nil
  var effects: String? = nil
  /// `open(item:at:)`. Worked out when the file is scanned (in parallel, and cached), not when linking.
  var fullName: String = ""
  /// The selector Objective-C would see, were the method exposed to it.
  var derivedSelector: String = ""

  mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("access", &access)
    try coder.field("attributes", &attributes)
    try coder.field("baseName", &baseName)
    try coder.field("conditional", &conditional)
    try coder.field("derivedSelector", &derivedSelector)
    try coder.field("documentation", &documentation)
    try coder.field("effects", &effects)
    try coder.field("explicitSelector", &explicitSelector)
    try coder.field("fullName", &fullName)
    try coder.field("isAsync", &isAsync)
    try coder.field("isGeneric", &isGeneric)
    try coder.field("isStatic", &isStatic)
    try coder.field("isThrowing", &isThrowing)
    try coder.field("labels", &labels)
    try coder.field("parameterTypes", &parameterTypes)
    try coder.field("parameters", &parameters)
    try coder.field("position", &position)
    try coder.field("returnType", &returnType)
  }

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
struct ScannedParameters: FieldRecord, Hashable {
  /// The parameter's name inside the function; nil when it is `_` (or not given).
  var names: [String?] = []
  var hasDefault: [Bool] = []

  mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("hasDefault", &hasDefault)
    try coder.field("names", &names)
  }
}

/// A stored or computed property of a type or extension (not an enum case, not a local variable).
struct ScannedProperty: FieldRecord, Equatable {
  var name = ""
  /// As written (`Int`, `Cart?`, `[String]`); when not written, inferred from a literal or a `Type(...)`
  /// initial value (`typeIsInferred`); nil when neither.
  var type: String? = nil
  var typeIsInferred = false
  var isStatic = false
  /// Has a getter of its own (`var total: Double { ... }`, `{ get }` in a protocol), rather than storage.
  var isComputed = false
  /// `let`.
  var isConstant = false
  /// The getter's access as written (`private(set)` does not narrow it); nil for the default.
  var access: AccessLevel? = nil
  /// As written: `@objc`, `@objc(name)`, `@IBOutlet`, `@Published`, and the modifiers `lazy`, `weak`,
  /// `unowned`, `dynamic`, `final`, `override`.
  var attributes: [String] = []
  /// The getter `throws` or is `async`, so that reading it needs `try` or `await`.
  var hasEffectfulGetter = false
  var conditional = false
  var position = ScannedPosition()

  mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("access", &access)
    try coder.field("attributes", &attributes)
    try coder.field("conditional", &conditional)
    try coder.field("hasEffectfulGetter", &hasEffectfulGetter)
    try coder.field("isComputed", &isComputed)
    try coder.field("isConstant", &isConstant)
    try coder.field("isStatic", &isStatic)
    try coder.field("name", &name)
    try coder.field("position", &position)
    try coder.field("type", &type)
    try coder.field("typeIsInferred", &typeIsInferred)
  }

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
struct ScannedInitializer: FieldRecord, Equatable {
  /// Argument labels; nil for `_`.
  var labels: [String?] = []
  var parameterTypes: [String] = []
  var parameters = ScannedParameters()
  /// `?` or `!` for a failable initializer.
  var failability: String? = nil
  var access: AccessLevel? = nil
  /// As written: `@objc`, `@MainActor`, and the modifiers `convenience`, `required`, `override`,
  /// `nonisolated`.
  var attributes: [String] = []
  var isGeneric = false
  /// `throws`, `async throws`, as written.
  var effects: String? = nil
  var conditional = false
  var documentation: String? = nil
  var position = ScannedPosition()

  mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("access", &access)
    try coder.field("attributes", &attributes)
    try coder.field("conditional", &conditional)
    try coder.field("documentation", &documentation)
    try coder.field("effects", &effects)
    try coder.field("failability", &failability)
    try coder.field("isGeneric", &isGeneric)
    try coder.field("labels", &labels)
    try coder.field("parameterTypes", &parameterTypes)
    try coder.field("parameters", &parameters)
    try coder.field("position", &position)
  }

  /// `init(feed:)`.
  var fullName: String { "init(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")" }
}

/// A subscript of a type or extension that has no generic parameters of its own: what the compiler
/// infers a collection's `Element` from (`subscript(position: Int) -> Book`).
struct ScannedSubscript: FieldRecord, Equatable {
  /// The parameters' types as written.
  var parameterTypes: [String] = []
  /// The result type as written.
  var resultType = ""
  var isStatic = false
  var access: AccessLevel? = nil
  var conditional = false
  var position = ScannedPosition()

  mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("access", &access)
    try coder.field("conditional", &conditional)
    try coder.field("isStatic", &isStatic)
    try coder.field("parameterTypes", &parameterTypes)
    try coder.field("position", &position)
    try coder.field("resultType", &resultType)
  }
}

/// Swift access levels, in increasing order.
public enum AccessLevel: String, FieldEnum, Comparable {
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
