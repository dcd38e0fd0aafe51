/// How a method exposed to Objective-C is called through the runtime, as `interception: objc-runtime`'s
/// generated replacements must repeat it: each parameter's and the result's Objective-C form, read from
/// the Swift types the code writes. A replacement is a block of the same C signature that forwards every
/// argument to the original implementation, so only the form matters, not the type: every object (a
/// class, `Any`, a bridged value such as `String` or `IndexPath`, an array, a closure) is one pointer,
/// passed as `AnyObject?`; scalars, `Bool` (as `ObjCBool`), `Selector`, pointers and C structs are
/// themselves; a framework's enum or option set is its raw type. A framework type's kind comes from Apple's
/// SDK (`FrameworkTypes`), never from its name. A type whose form trackc cannot tell (one neither the
/// sources nor the SDK's table declare), and a result that is an object, are refused, and
/// `handler-not-interceptable` reports them.
public struct ObjCSignature: Hashable, Sendable {
  /// A value's form in a C signature.
  public enum Form: Hashable, Sendable {
    case object
    /// `BOOL`, as `ObjCBool`.
    case bool
    /// An integer or floating-point scalar, by its Swift name (`Int`, `CGFloat`, `UInt8`).
    case scalar(String)
    /// A C struct, by its Swift name (`CGPoint`, `NSRange`).
    case structure(String)
    case selector
    /// Any pointer, as `UnsafeMutableRawPointer?`.
    case pointer

    /// The Swift type a C or block signature spells it with.
    public var swiftType: String {
      switch self {
      case .object: return "AnyObject?"
      case .bool: return "ObjCBool"
      case .scalar(let name), .structure(let name): return name
      case .selector: return "Selector"
      case .pointer: return "UnsafeMutableRawPointer?"
      }
    }
  }

  public var parameters: [Form]
  /// nil for `Void`.
  public var result: Form?

  /// `(AnyObject?, Int) -> ObjCBool`: what generated code and its comments call the shape.
  public var description: String {
    "(" + parameters.map(\.swiftType).joined(separator: ", ") + ") -> " + (result?.swiftType ?? "Void")
  }

  /// Why a method's signature has no Objective-C form trackc knows.
  public enum Problem: Error, Hashable, Sendable {
    case noSignature
    /// A parameter's type, as written.
    case parameter(String)
    case objectResult(String)
    case result(String)
    case async
  }

  static let scalars: Set<String> = [
    "Int", "UInt", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Float", "Double", "CGFloat",
    "TimeInterval", "CFTimeInterval", "NSInteger", "NSUInteger", "unichar",
  ]
  static let structures: Set<String> = ["CGPoint", "CGSize", "CGRect", "CGVector", "CGAffineTransform", "NSRange", "_NSRange"]
  /// Swift value types that cross into Objective-C as objects.
  static let bridged: Set<String> = [
    "String", "IndexPath", "Date", "URL", "Data", "Notification", "UUID", "Locale", "TimeZone", "Calendar", "DateComponents",
    "URLRequest", "CharacterSet", "IndexSet", "Decimal", "Array", "Dictionary", "Set", "AffineTransform", "PersonNameComponents",
    "Measurement", "DateInterval", "URLComponents",
  ]
  static let pointers: Set<String> = [
    "UnsafePointer", "UnsafeMutablePointer", "UnsafeRawPointer", "UnsafeMutableRawPointer", "OpaquePointer", "AutoreleasingUnsafeMutablePointer",
  ]
  /// The method's signature as Objective-C calls it; the type names are looked up in `index` (a class of
  /// the sources is an object, an `@objc` enum its raw type).
  ///
  /// A type written through the app's aliases (`Ticket.ID`, `Count`, an `Identifiable`'s inferred `ID`)
  /// is read as what it stands for, as the compiler reads it (`TypeResolver`), from the method's type
  /// (`owner`).
  static func of(_ method: DeclaredMethod, in index: CodeIndex, owner: Int? = nil) -> Result<ObjCSignature, Problem> {
    guard let signature = method.signature else { return .failure(.noSignature) }
    if method.isAsync { return .failure(.async) }
    let scope = owner.map { index.types.scope(of: $0) } ?? TypeScope()
    var parameters: [Form] = []
    for parameter in signature.parameters {
      guard let form = form(of: index.types.withoutAliases(parameter.type, in: scope), in: index) else {
        return .failure(.parameter(parameter.type))
      }
      parameters.append(form)
    }
    var result: Form?
    if let written = signature.returnType, !["Void", "()", "Swift.Void"].contains(written.filter { $0 != " " }) {
      guard let form = form(of: index.types.withoutAliases(written, in: scope), in: index) else { return .failure(.result(written)) }
      if form == .object { return .failure(.objectResult(written)) }
      result = form
    }
    // A throwing method takes an `NSError **` last and returns `BOOL` (a result of its own is refused).
    if method.signature?.effects?.split(separator: " ").contains(where: { $0.hasPrefix("throws") }) == true {
      guard result == nil else { return .failure(.result(signature.returnType ?? "")) }
      parameters.append(.pointer)
      result = .bool
    }
    return .success(ObjCSignature(parameters: parameters, result: result))
  }

  /// A type's Objective-C form, nil when the code cannot tell it.
  static func form(of written: String, in index: CodeIndex) -> Form? {
    // Attributes (`@escaping`, `@Sendable`) say nothing of the form; `inout`, `some`, a variadic list
    // have none.
    let tokens = written.split(whereSeparator: \.isWhitespace).filter { !$0.hasPrefix("@") }
    if let first = tokens.first, ["inout", "some", "borrowing", "consuming"].contains(String(first)) { return nil }
    var text = tokens.joined()
    if text.isEmpty || text.hasSuffix("...") { return nil }
    // A closure is a block: an object.
    if text.contains("->") { return .object }
    var optional = false
    if text.hasSuffix("?") || text.hasSuffix("!") {
      optional = true
      text.removeLast()
    }
    if text.hasPrefix("(") && text.hasSuffix(")") && !text.contains(",") { return form(of: String(text.dropFirst().dropLast()), in: index) }
    // `[T]`, `[K: V]`: bridged collections.
    if text.hasPrefix("[") { return .object }
    let name = WrittenTypeName(text)
    let base = name.base
    if pointers.contains(base) { return .pointer }
    if ["Any", "AnyObject", "AnyClass", "NSObject", "NSObjectProtocol"].contains(base) || tokens.first == "any" { return .object }
    if bridged.contains(base) { return .object }
    // Values with no nil in C: an optional one is not representable (the compiler refuses it).
    if optional { return declaredForm(name, in: index) == .object || frameworkForm(name, in: index) == .object ? .object : nil }
    if base == "Bool" || base == "ObjCBool" { return .bool }
    if scalars.contains(base) { return .scalar(base == "TimeInterval" || base == "CFTimeInterval" ? "Double" : base) }
    if structures.contains(base) { return .structure(base == "_NSRange" ? "NSRange" : base) }
    if base == "Selector" { return .selector }
    if let declared = declaredForm(name, in: index) { return declared }
    return frameworkForm(name, in: index)
  }

  /// A type of the sources: a class or a protocol is an object, an `@objc` enum its raw type.
  private static func declaredForm(_ name: WrittenTypeName, in index: CodeIndex) -> Form? {
    let candidates = index.byNameLookup(name.qualified) + (name.qualified == name.base ? [] : index.byNameLookup(name.base))
    guard let type = candidates.first.map({ index[$0] }) else { return nil }
    switch type.kind {
    case .class, .protocol: return .object
    case .enum:
      guard (type.attributes ?? []).contains(where: { $0 == "@objc" || $0.hasPrefix("@objc(") }) else { return nil }
      let raw = type.inheritance.first.map { WrittenTypeName($0).base } ?? "Int"
      return scalars.contains(raw) ? .scalar(raw) : .scalar("Int")
    default: return nil
    }
  }

  /// A type of a framework: its form by its kind in Apple's SDK (`FrameworkTypes`), or an object for a class
  /// the config's `conventions.framework_classes` names; nil for a type neither knows, never a guess from
  /// its name.
  private static func frameworkForm(_ name: WrittenTypeName, in index: CodeIndex) -> Form? {
    if let form = FrameworkTypes.apple.form(of: name) { return form }
    let components = name.qualified.split(separator: ".")
    if components.count == 1 && index.frameworkClasses.contains(name.base) { return .object }
    return nil
  }
}

/// The name the Objective-C runtime knows a class of the sources by, as `ObjCHandlerHook.ClassName` says
/// it: `@objc(Name)`'s name; a framework class's own; `Module.Class` for a top-level class; the mangled
/// name Swift gives a nested one (`_TtCC4Shop5Outer5Inner`, lengths in UTF-8 bytes, as the runtime's
/// metadata spells them); or, when the sources do not say their module, the class name alone, which the
/// runtime qualifies with the module the registry is compiled into.
public enum ObjCClassName: Hashable, Sendable {
  case objc(String)
  case inRegistryModule(String)

  /// The name as written into generated code.
  var text: String {
    switch self {
    case .objc(let name), .inRegistryModule(let name): return name
    }
  }

  /// Why a class cannot be found by name at run time.
  public enum Problem: Error, Hashable, Sendable {
    /// Its name carries a private discriminator.
    case `private`(AccessLevel)
    /// A generic class has a class per specialization, none of them by this name (and none of the sources'
    /// classes below it is not generic).
    case generic
    /// Nested in a type whose kind the sources do not say, or nested without a known module.
    case nested
  }

  /// The classes whose hooks reach a screen's handlers: the screen itself, or, for a generic class (which
  /// the runtime knows only by each specialization), each class of the sources below it that is not
  /// generic, from which the runtime finds the specialization that declares the method. Fails as `of`
  /// fails for the screen when there is none.
  static func hookedClasses(for screen: Int, in index: CodeIndex) -> Result<[Int], Problem> {
    switch of(screen, in: index) {
    case .success: return .success([screen])
    case .failure(.generic):
      let below = index.registry.types.indices.filter { candidate in
        candidate != screen && index[candidate].kind == .class && index.lineage(of: candidate).contains(screen)
          && (try? of(candidate, in: index).get()) != nil
      }
      return below.isEmpty ? .failure(.generic) : .success(below)
    case .failure(let problem): return .failure(problem)
    }
  }

  static func of(_ type: Int, in index: CodeIndex) -> Result<ObjCClassName, Problem> {
    let declared = index[type]
    if let explicit = (declared.attributes ?? []).first(where: { $0.hasPrefix("@objc(") && $0.hasSuffix(")") }) {
      return .success(.objc(String(explicit.dropFirst(6).dropLast())))
    }
    if declared.kind == .external { return .success(.objc(WrittenTypeName(declared.name).base)) }
    if declared.access <= .fileprivate { return .failure(.private(declared.access)) }
    if declared.isGeneric { return .failure(.generic) }
    let path = declared.name.split(separator: ".").map(String.init)
    guard path.count > 1 else {
      return .success(declared.module.map { .objc("\($0).\(declared.name)") } ?? .inRegistryModule(declared.name))
    }
    // `_Tt` + a kind letter per level, innermost first, + the module + each name, outermost first.
    guard let module = declared.module else { return .failure(.nested) }
    var kinds = "C"
    for depth in stride(from: path.count - 1, through: 1, by: -1) {
      let enclosing = path[..<depth].joined(separator: ".")
      guard let found = index.byNameLookup(enclosing).first(where: { index[$0].module == module }) else { return .failure(.nested) }
      switch index[found].kind {
      case .class: kinds += "C"
      case .struct: kinds += "V"
      case .enum: kinds += "O"
      default: return .failure(.nested)
      }
    }
    let names = ([module] + path).map { "\($0.utf8.count)\($0)" }.joined()
    return .success(.objc("_Tt" + kinds + names))
  }
}
