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
    /// A standard type whose properties the sources do not declare (`String`, `Int`): a path cannot go on.
    case noProperties(name: String)
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
  /// The type the path ends in, as read from the code.
  public let valueType: SwiftValueType
  /// Its type on the wire.
  public let wireType: PropertyType
  public let conversion: CaptureConversion
  /// Some step (or the value itself) is an optional: the value may be nil.
  public let isOptional: Bool
  /// Where the value is declared: the last step's property, or the handler for a parameter.
  public let declaration: SourceLocation
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

/// One binding's walk through the code.
private struct BindingResolver {
  let index: CodeIndex
  /// The type the config expects (`type:` or the plan's `properties`): decides whether a describable
  /// type may be sent as its description.
  let declared: PropertyType?

  func parameter(_ name: String, of method: MethodReference, steps: [String]) -> BindingResolution {
    let declaredMethod = index[method]
    guard let parameters = declaredMethod.signature?.parameters else { return .notChecked }
    guard let position = parameters.firstIndex(where: { $0.label == name || $0.name == name }) else {
      var candidates: [String] = []
      for parameter in parameters {
        for word in [parameter.label, parameter.name] { if let word, !candidates.contains(word) { candidates.append(word) } }
      }
      return .unknownParameter(name: name, method: method, candidates: candidates)
    }
    let parameter = parameters[position]
    let location = declaredMethod.nameLocation
    switch SwiftValueType.read(parameter.type) {
    case .failure(let unreadable):
      return .unsupportedType(typeText: parameter.type, refusal: .notNamed(unreadable), declaration: location)
    case .success(let type):
      if steps.isEmpty {
        return finish(
          type, text: parameter.type, context: method.type, root: .parameter(index: position), rootIsOptional: type.isOptional, steps: [],
          declaration: location)
      }
      return continueWalk(
        through: type, text: parameter.type, context: method.type, root: .parameter(index: position), rootIsOptional: type.isOptional,
        steps: steps, done: [], declaration: location)
    }
  }

  func walk(from type: Int, rootIsOptional: Bool, root: BoundValue.Root, steps: [String], rootDeclaration: SourceLocation) -> BindingResolution {
    step(on: type, root: root, rootIsOptional: rootIsOptional, steps: steps, done: [])
  }

  /// Reads `steps[done.count]` on the declared type `owner`.
  private func step(on owner: Int, root: BoundValue.Root, rootIsOptional: Bool, steps: [String], done: [BoundValue.Step]) -> BindingResolution {
    let name = steps[done.count]
    guard index[owner].properties != nil else { return .notChecked }
    guard let reference = index.instanceProperty(named: name, on: owner) else {
      return .unknownProperty(
        step: done.count, name: name, ownerName: index[owner].name, candidates: index.instancePropertyNames(of: owner),
        ownerDeclaration: index[owner].nameLocation)
    }
    let property = index[reference]
    guard let text = property.type else {
      return .unsupportedType(typeText: nil, refusal: .untyped, declaration: property.nameLocation)
    }
    switch SwiftValueType.read(text) {
    case .failure(let unreadable):
      return .unsupportedType(typeText: text, refusal: .notNamed(unreadable), declaration: property.nameLocation)
    case .success(let type):
      let walked = done + [BoundValue.Step(name: name, property: reference, isOptional: type.isOptional)]
      if walked.count == steps.count {
        return finish(
          type, text: text, context: reference.type, root: root, rootIsOptional: rootIsOptional, steps: walked, declaration: property.nameLocation)
      }
      return continueWalk(
        through: type, text: text, context: reference.type, root: root, rootIsOptional: rootIsOptional, steps: steps, done: walked,
        declaration: property.nameLocation)
    }
  }

  /// Goes on from a value of `type` (declared inside `context`) to the next step.
  private func continueWalk(
    through type: SwiftValueType, text: String, context: Int, root: BoundValue.Root, rootIsOptional: Bool, steps: [String], done: [BoundValue.Step],
    declaration: SourceLocation
  ) -> BindingResolution {
    let name = Self.standardName(type)
    switch index.lookUpType(type.components, from: context) {
    case .found(let next):
      return step(on: next, root: root, rootIsOptional: rootIsOptional, steps: steps, done: done)
    case .ambiguous, .notFound:
      if CaptureConversion.standard(name) != nil || CaptureConversion.describableStandardTypes.contains(name) {
        return .unsupportedType(typeText: text, refusal: .noProperties(name: name), declaration: declaration)
      }
      // A type outside the sources (`UIButton`): its properties cannot be checked.
      return .outsideSources(
        OutsideValue(
          root: root, checkedSteps: done, uncheckedSteps: Array(steps[done.count...]), typeName: text, declaration: declaration))
    }
  }

  private func finish(
    _ type: SwiftValueType, text: String, context: Int, root: BoundValue.Root, rootIsOptional: Bool, steps: [BoundValue.Step],
    declaration: SourceLocation
  ) -> BindingResolution {
    switch conversion(of: type, context: context) {
    case .failure(let refusal):
      return .unsupportedType(typeText: text, refusal: refusal, declaration: declaration)
    case .success(let (wire, conversion)):
      return .resolved(
        BoundValue(
          root: root, rootIsOptional: rootIsOptional, steps: steps, valueType: type, wireType: wire, conversion: conversion,
          isOptional: rootIsOptional || steps.contains { $0.isOptional } || type.isOptional, declaration: declaration))
    }
  }

  /// How a value of `type` becomes a property value.
  private func conversion(of type: SwiftValueType, context: Int) -> Result<(PropertyType, CaptureConversion), BindingResolution.TypeRefusal> {
    let name = Self.standardName(type)
    switch index.lookUpType(type.components, from: context) {
    case .found(let found):
      let declaration = index[found]
      if declaration.kind == .enum, let raw = declaration.inheritance.first.map(Self.standardName), let standard = CaptureConversion.standard(raw),
        standard.conversion == .direct
      {
        return .success((standard.type, .rawValue(raw: standard.conversion)))
      }
      let describable = declaration.inheritance.contains { ["CustomStringConvertible", "LosslessStringConvertible"].contains(Self.standardName($0)) }
      if describable && declared == .string { return .success((.string, .description)) }
      return .failure(.notAValue(name: declaration.name, describable: describable))
    case .ambiguous, .notFound:
      if let standard = CaptureConversion.standard(name) { return .success(standard) }
      if CaptureConversion.describableStandardTypes.contains(name) {
        return declared == .string ? .success((.string, .description)) : .failure(.notAValue(name: name, describable: true))
      }
      return .failure(.notAValue(name: type.name, describable: false))
    }
  }

  /// `Swift.Int` is `Int`; other names as written.
  static func standardName(_ type: SwiftValueType) -> String {
    type.components.count == 2 && CaptureConversion.standardModules.contains(type.components[0]) ? type.components[1] : type.name
  }

  static func standardName(_ text: String) -> String {
    guard case .success(let type) = SwiftValueType.read(text) else { return text }
    return standardName(type)
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
