/// A bound property (`{from: self.cart.total}`) matched against the code: where its value comes from,
/// each step's declaration, the Swift type it ends in and how that becomes a property value. Worked out
/// once in `MatchedPlan`, for the binding rules and the generated capture code alike.
public enum BindingResolution: Sendable {
  /// Every step found, and the value is one a property can hold.
  case resolved(BoundValue)
  /// The binding cannot be checked: its screen, handler or path does not resolve (other rules say why),
  /// or the registry does not list the parameters or properties needed.
  case notChecked
  /// The root names no parameter of the handler.
  case unknownParameter(name: String, method: MethodReference, candidates: [String])
  /// Step `step` (0 for the first after the root) names no instance property of `ownerName`.
  case unknownProperty(step: Int, name: String, ownerName: String, candidates: [String], ownerDeclaration: SourceLocation?)
  /// The path reaches a type the sources do not declare (`sender.tag` on a `UIButton`): the steps after
  /// it cannot be checked. Under `objc-runtime` the adapter can still read them by key path (with a
  /// declared `type:`); generated Swift cannot (`binding-not-interceptable` says which).
  case outsideSources(OutsideValue)
  /// The value (or a step the path goes through) has a type that is not a property value.
  case unsupportedType(typeText: String?, refusal: TypeRefusal, declaration: SourceLocation)

  /// Why a Swift type cannot be a property value.
  public enum TypeRefusal: Error, Sendable, Hashable {
    /// The declaration writes no type and its initial value does not tell it plainly.
    case untyped
    /// `[String]`, `Set<T>`, a tuple, a closure, `T??`, or text that is not a type.
    case notNamed(SwiftValueType.Unreadable)
    /// A named type that is neither a standard value type, a raw-value enum nor (with `type: string`) a
    /// `CustomStringConvertible`; `describable` when it is one of those, so `type: string` would do.
    case notAValue(name: String, describable: Bool)
    /// A type trackc cannot tell, which may well be a property value: a type outside the sources that is
    /// none of the standard ones (`OSStatus`, an SDK alias trackc does not list), an existential of a
    /// protocol outside the sources, a name several modules declare. `type:` on the property says it.
    case unknownType(name: String, why: UnknownType)
    /// A standard type whose properties the sources do not declare (`String`, `Int`): a path cannot go on.
    case noProperties(name: String)
    /// A generic parameter whose argument the path does not tell (`Value` of a `Box<Value>` reached
    /// without a `Box<String>` along the way): its type cannot be known without the compiler.
    case genericParameter(name: String, owner: String)
  }

  /// Why trackc cannot tell a type.
  public enum UnknownType: Sendable, Hashable {
    /// Declared outside the sources, and none of the standard value types.
    case outsideSources
    /// `any P`, `some P`, `P & Q`: the value's type is hidden, and no protocol of the sources says more.
    case existential
    /// Declared in several modules, none of them the code's own.
    case ambiguous(modules: [String])
    /// Aliases of aliases deeper than trackc follows.
    case tooDeep
  }
}

extension BindingResolution {
  /// Where a resolved binding, or one whose path leaves the sources, reads: its root, the steps resolved
  /// in the sources, the names written after them (none when resolved), and the declaration of the value
  /// (or of the type outside the sources). Nil for the bindings that do not resolve.
  public var reading: (root: BoundValue.Root, checked: [BoundValue.Step], unchecked: [String], declaration: SourceLocation)? {
    switch self {
    case .resolved(let value): return (value.root, value.steps, [], value.declaration)
    case .outsideSources(let value): return (value.root, value.checkedSteps, value.uncheckedSteps, value.declaration)
    default: return nil
    }
  }
}

/// A binding whose path leaves the sources part of the way.
public struct OutsideValue: Sendable {
  public let root: BoundValue.Root
  /// The steps read inside the sources, resolved.
  public let checkedSteps: [BoundValue.Step]
  /// The names written after them, read on `typeName`.
  public let uncheckedSteps: [String]
  /// The type outside the sources, as written.
  public let typeName: String
  /// The aliases followed from the written type to the type outside the sources, and that type's name
  /// (`T`, a generic parameter, read on a `Holder<CLLocation>`, is a `CLLocation`).
  public var aliases: [String] = []
  /// Where the value of that type is declared (the parameter's handler, or the last checked property).
  public let declaration: SourceLocation
}

/// A binding that resolved: the reading the generated code does.
public struct BoundValue: Sendable {
  public enum Root: Sendable, Hashable {
    /// The screen (`self`).
    case screen
    /// The handler's parameter at this position.
    case parameter(index: Int)
  }

  public struct Step: Sendable {
    public let name: String
    public let property: PropertyReference
    /// The property's type is an optional (so the rest of the path is read through `?.`).
    public let isOptional: Bool
  }

  public let root: Root
  /// The root parameter's type is an optional.
  public let rootIsOptional: Bool
  public let steps: [Step]
  /// The type the path ends in, as Swift reads it: aliases followed, generic arguments substituted
  /// (`Double` for a `CLLocationDegrees`, `String` for the `value` of a `Box<String>`).
  public let valueType: SwiftValueType
  /// The type as the declaration writes it (`CLLocationDegrees`, `Value`).
  public let writtenType: String
  /// The aliases followed from the written type to `valueType`, outermost first.
  public let aliases: [String]
  /// Its type on the wire.
  public let wireType: PropertyType
  public let conversion: CaptureConversion
  /// Some step (or the value itself) is an optional: the value may be nil.
  public let isOptional: Bool
  /// Where the value is declared: the last step's property, or the handler for a parameter.
  public let declaration: SourceLocation
  /// The type is one trackc cannot tell (`OSStatus`, `any P`), and the config's declared `type:` was
  /// taken for it: the compiler checks the generated capture against the real type.
  public var isTrusted = false
}

extension MatchedPlan {
  /// Resolves every binding of the plan (nothing when it has none).
  static func resolveBindings(
    _ plan: ResolvedPlan, _ index: CodeIndex, screens: [CodeIndex.ScreenResolution?], handlers: [CodeIndex.HandlerResolution?]
  )
    -> [BindingResolution]
  {
    plan.bindings.map { binding in
      let event = plan[binding.event]
      let written = plan.written(binding)
      guard case .success(let path)? = written.binding?.path, let screenID = event.screen, case .found(let screen)? = screens[Int(screenID.rawValue)]
      else {
        return .notChecked
      }
      let declared = plan.expectedType(of: written)
      switch path.root {
      case .screen:
        return BindingResolver(index: index, declared: declared)
          .walk(from: screen, rootIsOptional: false, root: .screen, steps: path.steps, rootDeclaration: index[screen].nameLocation)
      case .parameter(let name):
        guard case .page = event.trigger else {
          guard case .found(let method)? = handlers[Int(event.id.rawValue)] else { return .notChecked }
          return BindingResolver(index: index, declared: declared).parameter(name, of: method, steps: path.steps)
        }
        return .notChecked  // binding-on-page-event
      }
    }
  }
}

/// One binding's walk through the code. Every type on the way is read by the code index's `TypeResolver`,
/// with the generic arguments known so far: aliases are followed, `Box<String>`'s `value: Value` is a
/// `String`.
private struct BindingResolver {
  let index: CodeIndex
  /// The type the config expects (`type:` or the plan's `properties`): decides whether a describable
  /// type may be sent as its description.
  let declared: PropertyType?

  func parameter(_ name: String, of method: MethodReference, steps: [String]) -> BindingResolution {
    let declaredMethod = index[method]
    guard let parameters = declaredMethod.signature?.parameters else { return .notChecked }
    // Inside the body a name is the parameter's own (`a` of `b a: String`); a label only when no
    // parameter is named so (`ambiguous-binding-parameter` says when both readings exist).
    guard let position = parameters.firstIndex(where: { $0.name == name }) ?? parameters.firstIndex(where: { $0.label == name }) else {
      var candidates: [String] = []
      for parameter in parameters {
        for word in [parameter.label, parameter.name] { if let word, !candidates.contains(word) { candidates.append(word) } }
      }
      return .unknownParameter(name: name, method: method, candidates: candidates)
    }
    let parameter = parameters[position]
    let scope = index.types.scope(of: method.type)
    return read(
      parameter.type, in: scope, root: .parameter(index: position), rootIsOptional: nil, steps: steps, done: [],
      declaration: declaredMethod.nameLocation)
  }

  func walk(from type: Int, rootIsOptional: Bool, root: BoundValue.Root, steps: [String], rootDeclaration: SourceLocation) -> BindingResolution {
    step(on: type, arguments: [], root: root, rootIsOptional: rootIsOptional, steps: steps, done: [])
  }

  /// Reads `steps[done.count]` on the declared type `owner` with its generic `arguments`.
  private func step(
    on owner: Int, arguments: [ResolvedType], argumentAliases: [[String]] = [], root: BoundValue.Root, rootIsOptional: Bool,
    steps: [String], done: [BoundValue.Step]
  ) -> BindingResolution {
    let name = steps[done.count]
    guard index[owner].properties != nil else { return .notChecked }
    guard let (reference, bound) = index.instanceProperty(named: name, on: owner, arguments: arguments) else {
      return .unknownProperty(
        step: done.count, name: name, ownerName: index[owner].name, candidates: index.instancePropertyNames(of: owner),
        ownerDeclaration: index[owner].nameLocation)
    }
    let property = index[reference]
    guard let text = property.type else {
      return .unsupportedType(typeText: nil, refusal: .untyped, declaration: property.nameLocation)
    }
    var scope = index.types.scope(of: reference.type, arguments: bound)
    if reference.type == owner {
      // What each argument was written as goes with it (`Holder<EmailAddress>`'s `value: T` is an email).
      for (parameter, aliases) in zip(index[owner].genericParameters ?? [], argumentAliases) where !aliases.isEmpty {
        scope.argumentAliases[parameter] = aliases
      }
    }
    return read(
      text, in: scope, root: root, rootIsOptional: rootIsOptional, steps: steps, done: done, property: (name, reference),
      declaration: property.nameLocation)
  }

  /// Reads a value of the type `text` declares (a parameter's, or the property `property` of the path):
  /// the value itself when the path ends there, else the next step on its type.
  private func read(
    _ text: String, in scope: TypeScope, root: BoundValue.Root, rootIsOptional: Bool?, steps: [String], done: [BoundValue.Step],
    property: (name: String, reference: PropertyReference)? = nil, declaration: SourceLocation
  ) -> BindingResolution {
    let (resolved, aliases, argumentAliases) = index.types.resolveWithArguments(text, in: scope)
    var type = resolved
    var isOptional = false
    if case .optional(let wrapped) = type {
      isOptional = true
      type = wrapped
    }
    if case .optional = type { return .unsupportedType(typeText: text, refusal: .notNamed(.other), declaration: declaration) }
    if case .unnamed(let reason) = type {
      if let why = Self.unknown(reason) {
        // Unknown to trackc, not impossible: a declared `type:` is trusted where the path ends here.
        if done.count + (property == nil ? 0 : 1) == steps.count, let trusted = trusted(isOptional: isOptional) {
          return trustedValue(
            trusted, text: text, aliases: aliases, root: root, rootIsOptional: rootIsOptional ?? isOptional, done: done, property: property,
            isOptional: isOptional, declaration: declaration)
        }
        return .unsupportedType(typeText: text, refusal: .unknownType(name: text, why: why), declaration: declaration)
      }
      return .unsupportedType(typeText: text, refusal: .notNamed(reason), declaration: declaration)
    }
    if case .parameter(let name) = type {
      return .unsupportedType(
        typeText: text, refusal: .genericParameter(name: name, owner: scope.context.map { index[$0].name } ?? "?"), declaration: declaration)
    }
    let rootIsOptional = rootIsOptional ?? isOptional
    var walked = done
    if let property { walked.append(BoundValue.Step(name: property.name, property: property.reference, isOptional: isOptional)) }
    if walked.count == steps.count {
      return finish(
        type, isOptional: isOptional, text: text, aliases: aliases, root: root, rootIsOptional: rootIsOptional, steps: walked,
        declaration: declaration)
    }
    switch type {
    case .declared(let next, let arguments):
      return step(
        on: next, arguments: arguments, argumentAliases: argumentAliases, root: root, rootIsOptional: rootIsOptional, steps: steps,
        done: walked)
    case .parameter:
      return .notChecked  // said above
    case .external(_, let arguments) where !arguments.isEmpty:
      // `[Item]`, `Set<Item>`: a collection's elements are not a path's to read.
      return .unsupportedType(typeText: text, refusal: .notNamed(.collectionOrGeneric), declaration: declaration)
    case .external(let name, let arguments):
      if arguments.isEmpty, CaptureConversion.standard(name) != nil || CaptureConversion.describableStandardTypes.contains(name) {
        return .unsupportedType(typeText: text, refusal: .noProperties(name: name), declaration: declaration)
      }
      // A type outside the sources (`UIButton`): its properties cannot be checked.
      return .outsideSources(
        OutsideValue(
          root: root, checkedSteps: walked, uncheckedSteps: Array(steps[walked.count...]), typeName: text, aliases: aliases + [name],
          declaration: declaration))
    case .optional, .unnamed:
      return .unsupportedType(typeText: text, refusal: .notNamed(.other), declaration: declaration)
    }
  }

  private func finish(
    _ type: ResolvedType, isOptional: Bool, text: String, aliases: [String], root: BoundValue.Root, rootIsOptional: Bool,
    steps: [BoundValue.Step], declaration: SourceLocation
  ) -> BindingResolution {
    switch conversion(of: type) {
    case .failure(.unknownType(let name, let why)):
      if let trusted = trusted(isOptional: isOptional) {
        return .resolved(
          BoundValue(
            root: root, rootIsOptional: rootIsOptional, steps: steps, valueType: SwiftValueType(components: [name], isOptional: isOptional),
            writtenType: text, aliases: aliases, wireType: trusted.0, conversion: trusted.1,
            isOptional: rootIsOptional || steps.contains { $0.isOptional } || isOptional, declaration: declaration, isTrusted: true))
      }
      return .unsupportedType(typeText: text, refusal: .unknownType(name: name, why: why), declaration: declaration)
    case .failure(let refusal):
      return .unsupportedType(typeText: text, refusal: refusal, declaration: declaration)
    case .success(let (wire, conversion)):
      let name = index.types.describe(type)
      let valueType = SwiftValueType(components: name.split(separator: ".").map(String.init), isOptional: isOptional)
      return .resolved(
        BoundValue(
          root: root, rootIsOptional: rootIsOptional, steps: steps, valueType: valueType, writtenType: text, aliases: aliases,
          wireType: wire, conversion: conversion, isOptional: rootIsOptional || steps.contains { $0.isOptional } || isOptional,
          declaration: declaration))
    }
  }

  /// Reasons a type is unreadable that mean trackc cannot tell it (rather than that it is no value).
  static func unknown(_ reason: SwiftValueType.Unreadable) -> BindingResolution.UnknownType? {
    switch reason {
    case .existential: return .existential
    case .ambiguous(_, let modules): return .ambiguous(modules: modules)
    case .tooDeep: return .tooDeep
    case .notAType, .collectionOrGeneric, .other, .aliasCycle: return nil
    }
  }

  /// The wire type and conversion a declared `type:` asks of a value trackc cannot tell: trusted, as the
  /// compiler will check the generated capture against the real type.
  private func trusted(isOptional: Bool) -> (PropertyType, CaptureConversion)? {
    switch declared {
    case .string?: return (.string, .description)
    case .int?: return (.int, .integer)
    case .double?: return (.double, .floatingPoint)
    case .bool?: return (.bool, .direct)
    case nil: return nil
    }
  }

  private func trustedValue(
    _ trusted: (PropertyType, CaptureConversion), text: String, aliases: [String], root: BoundValue.Root, rootIsOptional: Bool,
    done: [BoundValue.Step], property: (name: String, reference: PropertyReference)?, isOptional: Bool, declaration: SourceLocation
  ) -> BindingResolution {
    var walked = done
    if let property { walked.append(BoundValue.Step(name: property.name, property: property.reference, isOptional: isOptional)) }
    return .resolved(
      BoundValue(
        root: root, rootIsOptional: rootIsOptional, steps: walked, valueType: SwiftValueType(components: [text], isOptional: isOptional),
        writtenType: text, aliases: aliases, wireType: trusted.0, conversion: trusted.1,
        isOptional: rootIsOptional || walked.contains { $0.isOptional } || isOptional, declaration: declaration, isTrusted: true))
  }

  /// How a value of `type` becomes a property value.
  private func conversion(of type: ResolvedType) -> Result<(PropertyType, CaptureConversion), BindingResolution.TypeRefusal> {
    switch type {
    case .declared(let found, _):
      let declaration = index[found]
      if declaration.kind == .enum, let raw = declaration.inheritance.first,
        case .external(let rawName, let rawArguments) = index.types.type(raw, in: index.types.inheritanceScope(of: found)), rawArguments.isEmpty,
        let standard = CaptureConversion.standard(rawName), standard.conversion == .direct
      {
        return .success((standard.type, .rawValue(raw: standard.conversion)))
      }
      let describable = index.types.inheritedNames(of: found).contains {
        ["CustomStringConvertible", "LosslessStringConvertible"].contains(WrittenTypeName($0).base)
      }
      if describable && declared == .string { return .success((.string, .description)) }
      return .failure(.notAValue(name: index.types.describe(type), describable: describable))
    case .external(let name, let arguments):
      guard arguments.isEmpty else { return .failure(.notNamed(.collectionOrGeneric)) }
      if let standard = CaptureConversion.standard(name) { return .success(standard) }
      if CaptureConversion.describableStandardTypes.contains(name) {
        return declared == .string ? .success((.string, .description)) : .failure(.notAValue(name: name, describable: true))
      }
      // A framework class trackc knows (`UIButton`) is an object, no value.
      if index.frameworkClasses.contains(name) { return .failure(.notAValue(name: name, describable: false)) }
      // Outside the sources and none of the standard types: what it is (an SDK alias of an integer such
      // as `OSStatus`, a class trackc does not list) only the SDK knows.
      return .failure(.unknownType(name: name, why: .outsideSources))
    case .parameter(let name):
      return .failure(.genericParameter(name: name, owner: "?"))
    case .optional, .unnamed:
      return .failure(.notNamed(.other))
    }
  }
}

extension MatchedPlan {
  /// A bound property with its `from:` and what it resolved to, for the binding rules.
  public struct BindingSite {
    public let binding: ResolvedPlan.BoundProperty
    public let property: TrackingConfig.Property
    /// `from:` as written: where binding findings point.
    public let source: Located<String>
    public let resolution: BindingResolution
    /// "property 'total' of handler 'checkout(_:)' of 'Cart'": words for messages.
    public let subject: String
  }

  /// Every binding with a `from:`, in plan order.
  public func forEachBinding(_ body: (BindingSite) -> Void) {
    for binding in plan.bindings {
      let property = plan.written(binding)
      guard let source = property.binding?.source else { continue }
      body(
        BindingSite(
          binding: binding, property: property, source: source, resolution: resolution(of: binding.id),
          subject: "property '\(property.key.value)' of \(plan.describe(plan[binding.event]))"))
    }
  }
}
