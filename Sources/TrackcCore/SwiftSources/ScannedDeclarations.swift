/// What one Swift file declares, as far as trackc cares: types, extensions and their methods.
///
/// It is position-exact and path-free (the path is attached when files are linked into a registry), so
/// that a file's scan can be cached by its content and reused wherever that content appears.
struct FileScan: Codable, Sendable {
  var types: [ScannedType] = []
  var extensions: [ScannedExtension] = []
  /// The modules the file imports outside `#if` (what generated code beside its types must import too).
  var imports: [String] = []
  /// Problems reading the file (invalid Swift), as line, column and message.
  var problems: [ScanProblem] = []
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

struct ScannedType: Codable, Sendable {
  var kind: DeclaredType.Kind
  /// Qualified by enclosing types and extensions: `Outer.Inner`.
  var name: String
  var inheritance: [String]
  var isGeneric: Bool
  /// Declared inside a generic type or a constrained extension.
  var inGenericContext: Bool
  var objcMembers: Bool
  var access: AccessLevel?
  var conditional: Bool
  var position: ScannedPosition
  var methods: [ScannedMethod]
}

struct ScannedExtension: Codable, Sendable {
  /// The extended type as written (`Outer.Inner`, `Shop.HomeViewController`).
  var extendedName: String
  var inheritance: [String]
  var isObjC: Bool
  var hasWhereClause: Bool
  var access: AccessLevel?
  var conditional: Bool
  var position: ScannedPosition
  var methods: [ScannedMethod]
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
