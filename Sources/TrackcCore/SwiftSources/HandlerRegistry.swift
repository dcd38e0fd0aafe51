/// The handlers declared in a set of Swift sources: every type with its methods, extensions merged in.
///
/// It is what `trackc scan` writes as JSON (described by `Schemas/handlers.schema.json`) and what
/// `trackc lint --handlers` reads, so a registry made another way (from the Kotlin sources of an Android
/// app that shares the config, say) is checked the same way. Everything is sorted: the same sources
/// always give the same bytes.
public struct HandlerRegistry: FieldRecord, Equatable {
  public static let formatVersion = 1

  public var version = HandlerRegistry.formatVersion
  public var types: [DeclaredType] = []
  /// What bodies say about SwiftUI screens (hosting controllers, presentations, navigation, the
  /// `.tracked(_:)` modifier, view models held), sorted by location; nil when the registry does not say.
  public var viewReferences: [ViewReference]? = nil
  /// How bodies reach methods by name (selectors, calls from Swift), sorted by location; nil when the
  /// registry does not say.
  public var methodUses: [MethodUse]? = nil
  /// The `typealias` declarations of the sources, sorted by name, module, then location; nil when the
  /// registry does not say (then names are read as written, aliases not followed).
  public var typeAliases: [DeclaredTypeAlias]? = nil

  public init() {}

  public init(
    types: [DeclaredType], viewReferences: [ViewReference]? = nil, methodUses: [MethodUse]? = nil, typeAliases: [DeclaredTypeAlias]? = nil
  ) {
    var types = types
    types.sortByOrder()
    self.init(
      sortedTypes: types, viewReferences: viewReferences?.sorted { $0.location < $1.location },
      methodUses: methodUses?.sorted { $0.location < $1.location }, typeAliases: typeAliases?.sorted(by: DeclaredTypeAlias.order))
  }

  /// Types already in registry order (see `sortByOrder`).
  init(
    sortedTypes: [DeclaredType], viewReferences: [ViewReference]?, methodUses: [MethodUse]? = nil, typeAliases: [DeclaredTypeAlias]? = nil
  ) {
    version = Self.formatVersion
    types = sortedTypes
    self.viewReferences = viewReferences
    self.methodUses = methodUses
    self.typeAliases = typeAliases
  }

  public mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("methodUses", &methodUses)
    try coder.field("typeAliases", &typeAliases, .omittedWhenEmpty)
    try coder.field("types", &types)
    try coder.field("version", &version)
    try coder.field("viewReferences", &viewReferences)
  }
}

/// A way a method is reached, written in a body of the sources: by name, as written, since what a call's
/// receiver is cannot be told without the compiler.
public struct MethodUse: FieldRecord, Equatable {
  public enum Kind: String, FieldEnum {
    /// `#selector(onTap(_:))`: called through the Objective-C runtime (target-action, a gesture recognizer,
    /// a bar button item, `perform(_:)`, a notification observer).
    case selector
    /// A call from Swift code: `onTap(sender)`, `self.onTap(sender)`, `screen.onTap(sender)`.
    case call
    /// A call from Swift code inside a `UIAction`'s closure.
    case actionClosureCall
  }

  public var kind = Kind.selector
  /// `onTap(_:)`, as the call's or the selector's labels give it; a selector's base name alone when it
  /// gives no labels (`#selector(onTap)`).
  public var name = ""
  /// What a selector is handed to (`addTarget`, `UITapGestureRecognizer`, `UIBarButtonItem`); nil for calls.
  public var via: String? = nil
  public var location = RegistryLocation()

  public init() {}

  public init(kind: Kind, name: String, via: String? = nil, location: RegistryLocation) {
    self.kind = kind
    self.name = name
    self.via = via
    self.location = location
  }

  public mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("kind", &kind)
    try coder.field("location", &location)
    try coder.field("name", &name)
    try coder.field("via", &via)
  }

  /// Whether it names the method `name` (`onTap(_:)`, base `onTap`): a call by its full name, a selector
  /// by its full name or, without labels, by its base name.
  public func names(_ method: DeclaredMethod) -> Bool {
    name == method.name || (kind == .selector && !name.hasSuffix(")") && name == method.baseName)
  }
}

/// A `typealias` of the sources: `typealias ProductID = String`, `typealias Pair<T> = (T, T)`,
/// `struct Product { typealias ID = String }` (named `Product.ID`).
public struct DeclaredTypeAlias: FieldRecord, Equatable {
  /// Qualified by the types and extensions around it: `Product.ID`.
  public var name = ""
  public var module: String? = nil
  /// Its own generic parameters: `T` of `typealias Pair<T> = (T, T)`.
  public var genericParameters: [String]? = nil
  /// The type it stands for, as written.
  public var aliased = ""
  public var access = AccessLevel.internal
  /// Declared inside `#if`.
  public var conditional = false
  public var location = RegistryLocation()

  public init() {}

  public init(
    name: String, module: String?, genericParameters: [String]? = nil, aliased: String, access: AccessLevel = .internal,
    conditional: Bool = false, location: RegistryLocation
  ) {
    self.name = name
    self.module = module
    self.genericParameters = genericParameters
    self.aliased = aliased
    self.access = access
    self.conditional = conditional
    self.location = location
  }

  public mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("access", &access)
    try coder.field("aliased", &aliased)
    try coder.field("conditional", &conditional)
    try coder.field("genericParameters", &genericParameters)
    try coder.field("location", &location)
    try coder.field("module", &module)
    try coder.field("name", &name)
  }

  static func order(_ lhs: DeclaredTypeAlias, _ rhs: DeclaredTypeAlias) -> Bool {
    if let byName = UTF8Order.compare(lhs.name, rhs.name) { return byName }
    if let byModule = UTF8Order.compare(lhs.module ?? "", rhs.module ?? "") { return byModule }
    return lhs.location < rhs.location
  }
}

/// What a body or a property says about SwiftUI screens, written in a type of the sources.
public struct ViewReference: FieldRecord, Equatable {
  public enum Kind: String, FieldEnum {
    /// A hosting controller's root view: `UIHostingController(rootView: SettingsView())`,
    /// `UIHostingController<SettingsView>`. `names` are the types the root may be, likeliest first.
    case hosts
    /// The content of a sheet, a full-screen cover, a popover, a navigation link or destination, a window
    /// or a tab: `names` are the types it constructs, in order.
    case presents
    /// A navigation stack or title in the owner: the owner is a screen's root view. No names.
    case navigates
    /// `.tracked(.settingsView)`: `names` holds the screen's case.
    case tracked
    /// A property of the owner holds a view model (`@StateObject`, `@ObservedObject`, `@State`,
    /// `@Bindable`, `@EnvironmentObject`, `@Environment(Model.self)`): `names` holds its type.
    case holds
    /// The owner's code calls these methods of its own or hands them over (`onAppear()`,
    /// `.onAppear(perform: onAppear)`): `names` are base names; `root` the member whose code does.
    case calls
    /// A function (the owner's, or a free one when there is no owner) or a computed property whose
    /// result is a view: `names` holds its base name and, for an opaque result (`some View`), the type
    /// its body returns; `root` is the result type as declared; `modifiers` what the body applies to the
    /// value it returns.
    case returns
  }

  public var kind = Kind.hosts
  public var names: [String] = []
  /// The type it is written in, as the registry names it, and that type's module; nil at the top level.
  public var owner: String? = nil
  public var module: String? = nil
  public var location = RegistryLocation()
  /// `hosts`: the root view's type as the code gives it (`AnyView`, `Card<ReceiptView>`, `ReceiptView`);
  /// nil when the expression does not tell it plainly (then `names` are the candidates). `calls`: the
  /// member whose code makes the calls. `returns`: the declared result type.
  public var root: String? = nil
  /// `hosts`: the methods applied to the root value, in order (`padding`, `eraseToAnyView`); without a
  /// `root`, the first is the function or property whose result the root is (`erase`, `settingsScreen`,
  /// `Factory.erase`). `returns`: what the body applies to the value it returns.
  public var modifiers: [String]? = nil

  public init() {}

  public init(
    kind: Kind, names: [String], owner: String?, module: String?, location: RegistryLocation, root: String? = nil, modifiers: [String]? = nil
  ) {
    self.kind = kind
    self.names = names
    self.owner = owner
    self.module = module
    self.location = location
    self.root = root
    self.modifiers = modifiers
  }

  public mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("kind", &kind)
    try coder.field("location", &location)
    try coder.field("modifiers", &modifiers)
    try coder.field("module", &module)
    try coder.field("names", &names)
    try coder.field("owner", &owner)
    try coder.field("root", &root)
  }
}

/// A type declared in the sources (or only extended there: `declared` is then false).
public struct DeclaredType: FieldRecord, Equatable {
  public enum Kind: String, FieldEnum {
    case `class`, `struct`, `enum`, actor, `protocol`
    /// Extended in the sources but declared elsewhere (a framework type such as `UIViewController`).
    case external
  }

  /// Qualified by enclosing types: `Outer.Inner`.
  public var name: String
  /// The module, from the SwiftPM layout (`Sources/<Module>/...`) or the scan's option; nil if unknown.
  public var module: String? = nil
  public var kind = Kind.class
  /// Superclass and conformances as written (for a class, the first may be its superclass).
  public var inheritance: [String] = []
  /// The type's attributes as written, without arguments (`@Observable`, `@MainActor`, `@objcMembers`), but
  /// for `@available`, whose platforms and versions are kept, with those of the enclosing types;
  /// nil when the registry does not say.
  public var attributes: [String]? = nil
  /// The type or an enclosing type has generic parameters.
  public var isGeneric = false
  /// Its own generic parameters, by name and in order (`Value` of `Box<Value>`); nil when the registry
  /// does not say.
  public var genericParameters: [String]? = nil
  /// `@objcMembers`: every member is exposed to Objective-C.
  public var objcMembers = false
  /// Declared inside `#if`.
  public var conditional = false
  public var access = AccessLevel.internal
  /// Where the type is declared (or first extended, for an external type).
  public var location = RegistryLocation()
  /// Where it is extended.
  public var extensions: [RegistryLocation] = []
  public var methods: [DeclaredMethod] = []
  /// Stored and computed properties, from its declaration and extensions; nil when the registry does not
  /// say (one made another way), in which case bindings to its state cannot be checked.
  public var properties: [DeclaredProperty]? = nil
  /// Its initializers; nil when the registry does not say.
  public var initializers: [DeclaredInitializer]? = nil
  /// Its subscripts without generic parameters of their own (what a collection's `Element` is inferred
  /// from), linked with the properties; nil when it has none or the registry does not say (the same to
  /// what reads them: nothing to infer from).
  public var subscripts: [DeclaredSubscript]? = nil
  /// The modules imported (outside `#if`) by the files that declare or extend it: what generated code
  /// that repeats its methods' signatures must import. Nil when the registry does not say.
  public var imports: [String]? = nil

  /// The name with its module: `Home.HomeViewController`.
  public var qualifiedName: String { module.map { "\($0).\(name)" } ?? name }

  /// Where the type's own name is written.
  var nameLocation: SourceLocation { location.sourceLocation(spanning: name.split(separator: ".").last ?? Substring(name)) }

  public mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("access", &access)
    try coder.field("attributes", &attributes)
    try coder.field("conditional", &conditional)
    try coder.field("extensions", &extensions)
    try coder.field("genericParameters", &genericParameters, .omittedWhenEmpty)
    try coder.field("imports", &imports)
    try coder.field("inheritance", &inheritance)
    try coder.field("initializers", &initializers)
    try coder.field("isGeneric", &isGeneric)
    try coder.field("kind", &kind)
    try coder.field("location", &location)
    try coder.field("methods", &methods)
    try coder.field("module", &module)
    try coder.field("name", &name)
    try coder.field("objcMembers", &objcMembers)
    try coder.field("properties", &properties)
    try coder.field("subscripts", &subscripts)
  }
}

extension DeclaredType {
  /// An empty one, for reading to fill in. (Its name has no default, so that this one can be public; in the
  /// type's body, it would take the memberwise initializer away.)
  public init() { self.init(name: "") }
}

/// A method of a type, from its declaration or one of its extensions.
public struct DeclaredMethod: FieldRecord, Equatable {
  /// The Swift full name: `open(item:at:)`.
  public var name: String
  public var isStatic = false
  /// The effective access: the method's own, bounded by its extension's and its type's.
  public var access = AccessLevel.internal
  /// As written: `@objc`, `@objc(name:)`, `@IBAction`, `@nonobjc`, `dynamic`, `final`, `override`; and
  /// `@available(iOS 17, *)`, its own and its type's or extension's (what generated code repeats).
  public var attributes: [String] = []
  /// The Objective-C selector, when the method is exposed to Objective-C; nil otherwise.
  public var objcSelector: String? = nil
  /// The selector it would have if exposed (for matching selector-form handler keys).
  public var derivedSelector = ""
  /// The method, its type or its extension is generic.
  public var inGenericContext = false
  /// Declared inside `#if`.
  public var conditional = false
  /// The doc comment, without its markers.
  public var documentation: String? = nil
  public var location = RegistryLocation()
  /// The parameter and result types as written; nil when the registry does not say (one made from
  /// another language's sources, say), in which case no replacement can be generated for it.
  public var signature: MethodSignature? = nil

  /// `open`: the name before the arguments.
  public var baseName: String { String(name.prefix { $0 != "(" }) }

  /// Declared `async` (a dynamic replacement of it that calls the original calls itself, in Swift 6.3).
  public var isAsync: Bool { signature?.effects?.split(separator: " ").contains("async") == true }

  /// What a dynamic replacement in another module can reach: not private or fileprivate, not in a generic
  /// context (`some P` parameters included), not async, no variadic parameter (`handler-not-interceptable`
  /// says which, for a handler).
  public var isReplaceable: Bool {
    access > .fileprivate && !inGenericContext && !isAsync
      && signature?.parameters.contains(where: { $0.type.hasPrefix("some ") || $0.isVariadic }) != true
  }

  /// Where the method's base name is written.
  var nameLocation: SourceLocation { location.sourceLocation(spanning: name.prefix { $0 != "(" }) }

  public mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("access", &access)
    try coder.field("attributes", &attributes)
    try coder.field("conditional", &conditional)
    try coder.field("derivedSelector", &derivedSelector)
    try coder.field("documentation", &documentation)
    try coder.field("inGenericContext", &inGenericContext)
    try coder.field("isStatic", &isStatic)
    try coder.field("location", &location)
    try coder.field("name", &name)
    try coder.field("objcSelector", &objcSelector)
    try coder.field("signature", &signature)
  }
}

extension DeclaredMethod {
  /// An empty one, for reading to fill in. (Its name has no default, so that this one can be public; in the
  /// type's body, it would take the memberwise initializer away.)
  public init() { self.init(name: "") }
}

/// A stored or computed property of a type, from its declaration or one of its extensions.
public struct DeclaredProperty: FieldRecord, Equatable {
  public var name = ""
  /// The type as written (`Int`, `Cart?`); when the declaration does not write it, the type of its
  /// literal or `Type(...)` initial value (`typeIsInferred`); nil when neither tells.
  public var type: String? = nil
  public var typeIsInferred = false
  public var isStatic = false
  /// It has a getter (computed, or a protocol requirement) rather than storage.
  public var isComputed = false
  /// Declared with `let`.
  public var isConstant = false
  /// The getter's effective access: its own, bounded by its extension's and its type's (`private(set)`
  /// does not narrow it).
  public var access = AccessLevel.internal
  /// As written: `@objc`, `@objc(name)`, `@IBOutlet`, `@Published`, `lazy`, `weak`, `unowned`, `dynamic`,
  /// `final`, `override`; and `@available(iOS 17, *)`, its own and its type's or extension's.
  public var attributes: [String] = []
  /// The key Objective-C (and key-value coding) knows it by, when it is exposed to Objective-C; nil otherwise.
  public var objcName: String? = nil
  /// Its getter `throws` or is `async`.
  public var hasEffectfulGetter = false
  /// Declared inside `#if`.
  public var conditional = false
  public var location = RegistryLocation()
  /// The same-type requirements of the constrained extension that declares it (`where Value == String`):
  /// the property exists only for those generic arguments. Nil when there are none.
  public var requirements: [SameTypeRequirement]? = nil

  public init() {}

  public init(
    name: String, type: String?, typeIsInferred: Bool = false, isStatic: Bool = false, isComputed: Bool = false, isConstant: Bool = false,
    access: AccessLevel = .internal, attributes: [String] = [], objcName: String? = nil, hasEffectfulGetter: Bool = false,
    conditional: Bool = false, location: RegistryLocation
  ) {
    self.name = name
    self.type = type
    self.typeIsInferred = typeIsInferred
    self.isStatic = isStatic
    self.isComputed = isComputed
    self.isConstant = isConstant
    self.access = access
    self.attributes = attributes
    self.objcName = objcName
    self.hasEffectfulGetter = hasEffectfulGetter
    self.conditional = conditional
    self.location = location
  }

  public mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("access", &access)
    try coder.field("attributes", &attributes)
    try coder.field("conditional", &conditional)
    try coder.field("hasEffectfulGetter", &hasEffectfulGetter, .omittedWhenEmpty)
    try coder.field("isComputed", &isComputed)
    try coder.field("isConstant", &isConstant)
    try coder.field("isStatic", &isStatic)
    try coder.field("location", &location)
    try coder.field("name", &name)
    try coder.field("objcName", &objcName)
    try coder.field("requirements", &requirements, .omittedWhenEmpty)
    try coder.field("type", &type)
    try coder.field("typeIsInferred", &typeIsInferred, .omittedWhenEmpty)
  }

  /// Where the property's name is written.
  var nameLocation: SourceLocation { location.sourceLocation(spanning: Substring(name)) }
}

/// An initializer of a type, from its declaration or one of its extensions.
public struct DeclaredInitializer: FieldRecord, Equatable {
  /// `init(feed:)`, `init()`.
  public var name: String
  /// `?` or `!` for a failable initializer; nil otherwise.
  public var failability: String? = nil
  /// The effective access, as for methods.
  public var access = AccessLevel.internal
  /// As written: `@objc`, `@MainActor`, `convenience`, `required`, `override`, `nonisolated`.
  public var attributes: [String] = []
  /// The initializer, its type or its extension is generic.
  public var inGenericContext = false
  public var conditional = false
  public var documentation: String? = nil
  public var location = RegistryLocation()
  /// Its parameters (labels, names, types, defaults) and effects; no result type.
  public var signature = MethodSignature()

  /// Where the `init` keyword is written.
  var nameLocation: SourceLocation { location.sourceLocation(spanning: "init") }

  public mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("access", &access)
    try coder.field("attributes", &attributes)
    try coder.field("conditional", &conditional)
    try coder.field("documentation", &documentation)
    try coder.field("failability", &failability)
    try coder.field("inGenericContext", &inGenericContext)
    try coder.field("location", &location)
    try coder.field("name", &name)
    try coder.field("signature", &signature)
  }
}

extension DeclaredInitializer {
  /// An empty one, for reading to fill in. (Its name has no default, so that this one can be public; in the
  /// type's body, it would take the memberwise initializer away.)
  public init() { self.init(name: "") }
}

/// A subscript of a type without generic parameters of its own, from its declaration or one of its
/// extensions: the compiler infers a collection's `Element` from it (`subscript(position: Int) -> Book`).
public struct DeclaredSubscript: FieldRecord, Equatable {
  /// The parameters' types as written.
  public var parameterTypes: [String] = []
  /// The result type as written.
  public var resultType = ""
  public var isStatic = false
  /// The effective access, as for methods.
  public var access = AccessLevel.internal
  public var conditional = false
  public var location = RegistryLocation()

  public init() {}

  public init(
    parameterTypes: [String], resultType: String, isStatic: Bool = false, access: AccessLevel = .internal, conditional: Bool = false,
    location: RegistryLocation
  ) {
    self.parameterTypes = parameterTypes
    self.resultType = resultType
    self.isStatic = isStatic
    self.access = access
    self.conditional = conditional
    self.location = location
  }

  public mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("access", &access)
    try coder.field("conditional", &conditional)
    try coder.field("isStatic", &isStatic)
    try coder.field("location", &location)
    try coder.field("parameterTypes", &parameterTypes)
    try coder.field("resultType", &resultType)
  }
}

/// A method's signature as written in its declaration.
public struct MethodSignature: FieldRecord, Equatable {
  public struct Parameter: FieldRecord, Equatable {
    /// The argument label; nil for `_`.
    public var label: String? = nil
    /// The parameter's own name inside the function (`position` in `at position: Int`, the label when it
    /// has no second name); nil for `_`, and when the registry does not say.
    public var name: String? = nil
    /// The type as written: `Int`, `inout [String]`, `@escaping () -> Void`, `Int...` (variadic).
    public var type = ""
    /// It has a default value (`= 0`), so that a call may leave it out.
    public var hasDefaultValue = false

    public init() {}

    public init(label: String?, name: String? = nil, type: String, hasDefaultValue: Bool = false) {
      self.label = label
      self.name = name
      self.type = type
      self.hasDefaultValue = hasDefaultValue
    }

    public mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
      try coder.field("hasDefaultValue", &hasDefaultValue, .omittedWhenEmpty)
      try coder.field("label", &label)
      try coder.field("name", &name)
      try coder.field("type", &type)
    }

    /// The parameter's type is an optional (`T?`, `T!`, `Optional<T>`), so that a call may pass nil.
    public var isOptional: Bool {
      let type = type.filter { $0 != " " }
      return type.hasSuffix("?") || type.hasSuffix("!") || (type.hasPrefix("Optional<") && type.hasSuffix(">"))
    }

    public var isVariadic: Bool { type.hasSuffix("...") }
    public var isInout: Bool { type.hasPrefix("inout ") }
  }

  public var parameters: [Parameter] = []
  /// The result type as written, nil for `Void` written as nothing.
  public var returnType: String? = nil
  /// `async`, `throws`, `async throws`, `throws(MyError)`, `rethrows`, as written.
  public var effects: String? = nil

  public init() {}

  public init(parameters: [Parameter], returnType: String?, effects: String?) {
    self.parameters = parameters
    self.returnType = returnType
    self.effects = effects
  }

  public mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("effects", &effects)
    try coder.field("parameters", &parameters)
    try coder.field("returnType", &returnType)
  }
}

/// A file and a 1-based line and column (column in characters).
public struct RegistryLocation: FieldRecord, Hashable, Comparable {
  public var file = ""
  public var line = 0
  public var column = 0

  public init() {}

  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  public static func < (lhs: RegistryLocation, rhs: RegistryLocation) -> Bool {
    if let byFile = UTF8Order.compare(lhs.file, rhs.file) { return byFile }
    return (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }

  public mutating func fields<Coder: FieldCoder>(_ coder: inout Coder) throws(Coder.Failure) {
    try coder.field("column", &column)
    try coder.path("file", &file)
    try coder.field("line", &line)
  }

  var sourceLocation: SourceLocation { SourceLocation(file: file, line: line, column: column) }

  /// The location as a range over a name that starts here (so that SARIF viewers underline it).
  func sourceLocation(spanning name: Substring) -> SourceLocation {
    let start = SourcePosition(line: line, column: column)
    let end = SourcePosition(line: line, column: column + name.unicodeScalars.count)
    return SourceLocation(file: file, range: SourceRange(start: start, end: end))
  }
}

/// Comparing strings by their UTF-8 bytes.
enum UTF8Order {
  /// Whether `lhs` sorts strictly before `rhs`: a `sorted(by:)` predicate.
  static func less(_ lhs: String, _ rhs: String) -> Bool {
    compare(lhs, rhs) ?? false
  }

  /// Whether `lhs` sorts before `rhs`, or nil when they are equal.
  static func compare(_ lhs: String, _ rhs: String) -> Bool? {
    var lhs = lhs
    var rhs = rhs
    return lhs.withUTF8 { left in
      rhs.withUTF8 { right in
        let common = min(left.count, right.count)
        if common > 0 {
          let order = Platform.compareBytes(left.baseAddress!, right.baseAddress!, count: common)
          if order != 0 { return order < 0 }
        }
        return left.count == right.count ? nil : left.count < right.count
      }
    }
  }
}
