/// A file of dynamic replacements for one feature module: each mapped handler and each lifecycle method
/// carrying page events reports to `Interception` and runs the original. Built as `SwiftCode` from the
/// model's replacements, whose names and signatures are checked already.
struct InterceptorEmitter {
  typealias Member = SwiftCode.Member

  let module: GenerationModel.Module
  /// The namespace enum of the registry, and the module that provides the runtime.
  let namespace: ValidIdentifier
  let runtimeModule: ValidIdentifier

  /// For the file name: the module, or `Sources` when the code gave none.
  var moduleFileStem: String { module.name.map(Self.dotted) ?? "Sources" }

  /// What the file says first, after the header.
  var explanation: [Comment] {
    [
      Comment("Dynamic replacements for \(module.name.map { "module " + Self.dotted($0) } ?? "the sources"):"),
      Comment("each method the config maps reports to Interception, then runs as before. That module is compiled"),
      Comment("with -Xfrontend -enable-implicit-dynamic, and each module imported @testable below with -enable-testing"),
      Comment("for release builds; the module holding this file with -Xfrontend -enable-dynamic-replacement-chaining."),
    ]
  }

  /// The imports, for a file of its own.
  func imports() -> [Member] {
    importedModules().enumerated().map { index, module in
      let isRuntime = module.path == [runtimeModule]
      return Member(declaration: .importModule(testable: module.testable, generatedSPI: isRuntime, module.path), blankLineBefore: index == 0)
    }
  }

  /// One extension per owner, in the order of the sorted replacements.
  func extensions() -> [Member] {
    var owners: [[ValidIdentifier]] = []
    for replacement in module.replacements where !owners.contains(replacement.owner) { owners.append(replacement.owner) }
    return owners.map { owner in
      let replacements = module.replacements.filter { $0.owner == owner }
      let members = replacements.enumerated().map { index, replacement in
        Member(declaration: .function(function(replacement)), blankLineBefore: index > 0)
      }
      let availability = replacements.first?.ownerAvailability ?? []
      return Member(declaration: .extensionOf(owner, members, attributes: availability.map { .available($0) }), blankLineBefore: true)
    }
  }

  /// The feature module (`@testable` when a replaced method is internal), the modules its files import,
  /// the modules the captured bindings reach into (`@testable` when what they read there is not public:
  /// a screen cast to in another module, a property of a type declared elsewhere), and the runtime;
  /// sorted by module name.
  func importedModules() -> [(testable: Bool, path: [ValidIdentifier])] {
    var modules: [String: (testable: Bool, path: [ValidIdentifier])] = [:]
    func add(_ path: [ValidIdentifier], testable: Bool) {
      let name = Self.dotted(path)
      modules[name] = (testable || modules[name]?.testable == true, path)
    }
    for replacement in module.replacements {
      for path in replacement.imports { add(path, testable: false) }
      for capture in replacement.captureImports { add(capture.path, testable: capture.testable) }
    }
    add([runtimeModule], testable: false)
    if let name = module.name { add(name, testable: module.replacements.contains(where: \.needsTestableImport)) }
    return modules.values.sorted { UTF8Order.less(Self.dotted($0.path), Self.dotted($1.path)) }
  }

  /// `@_dynamicReplacement(for: original(label:))`, a private function of the same signature that
  /// opens its scopes and calls the original.
  private func function(_ replacement: GenerationModel.Replacement) -> SwiftCode.Function {
    let signature = replacement.signature
    // Scopes, then the original called directly: a call from inside a closure would reach this
    // replacement again.
    var body: [SwiftCode.Statement] = []
    // What the extension and the replacement are available in; a capture that needs more is read inside
    // `if #available`.
    let context = Availability.introduced(replacement.ownerAvailability + replacement.availability)
    func capture(_ capture: GenerationModel.Capture, into properties: ValidIdentifier) -> SwiftCode.Statement {
      let statement = Self.capture(capture, into: properties)
      let beyond = Availability.beyond(capture.availability, context: context)
      return beyond.isEmpty ? statement : .ifAvailable(beyond, [statement])
    }
    func scope(_ name: ValidIdentifier, _ begin: StaticString, _ subject: SwiftCode.Expression, captures: [GenerationModel.Capture]) {
      let call = SwiftCode.Expression.call(
        .reference([ValidIdentifier(fixed: "Interception"), ValidIdentifier(fixed: begin)]),
        [SwiftCode.Argument(.selfReference), SwiftCode.Argument(subject)])
      if captures.isEmpty {
        body.append(.constant(name, call))
      } else {
        let properties = ValidIdentifier(fixed: "properties")
        body.append(.constantWithClosure(name, call, closureParameter: properties, captures.map { capture($0, into: properties) }))
      }
      body.append(.deferred(.call(.reference([name, ValidIdentifier(fixed: "end")]), [])))
    }
    for phase in replacement.phases {
      let name = ValidIdentifier(fixed: phase.staticName)
      scope(name, "beginPage", .implicitMember(name), captures: replacement.pageCaptures[phase] ?? [])
    }
    if let handler = replacement.handlerIdentifier {
      scope(
        ValidIdentifier(fixed: "call"), "beginControl", .reference([namespace, ValidIdentifier(fixed: "Handler"), handler]),
        captures: replacement.handlerCaptures)
    }
    let arguments = signature.parameters.enumerated().map { index, parameter in
      let name = Self.parameterName(index)
      return SwiftCode.Argument(parameter.label, parameter.isInout ? .inOut(name) : .reference([name]))
    }
    var original = SwiftCode.Expression.call(.reference([signature.baseName]), arguments)
    if signature.isThrowing { original = .tryExpression(original) }
    body.append(signature.returnType != nil ? .returnValue(original) : .expression(original))

    var modifiers: [SwiftCode.Modifier] = [.private]
    if replacement.isNonisolated { modifiers.append(.nonisolated) }
    if replacement.isMutating { modifiers.append(.mutating) }
    return SwiftCode.Function(
      attributes: [.dynamicReplacement(signature.baseName, labels: signature.parameters.map(\.label))]
        + replacement.availability.map { .available($0) } + (replacement.isMainActor ? [.mainActor] : []),
      modifiers: modifiers, name: signature.replacementName,
      parameters: signature.parameters.enumerated().map { index, parameter in
        SwiftCode.Parameter(label: parameter.label, name: Self.parameterName(index), type: .syntax(parameter.type))
      },
      effects: signature.effects, result: signature.returnType.map { .syntax($0) }, body: body)
  }

  /// `properties.int("position", p1, required: true)`: the value read (through `?.` after an optional),
  /// converted by a typed call of `CapturedProperties`.
  static func capture(_ capture: GenerationModel.Capture, into properties: ValidIdentifier) -> SwiftCode.Statement {
    let value = capture.value
    var expression: SwiftCode.Expression
    var lastIsOptional: Bool
    switch value.root {
    case .screen:
      if let cast = capture.screenCast {
        expression = .conditionalCast(.selfReference, cast)
        lastIsOptional = true
      } else {
        expression = .selfReference
        lastIsOptional = false
      }
    case .parameter(let index):
      expression = .reference([parameterName(index)])
      lastIsOptional = value.rootIsOptional
    }
    func member(_ name: ValidIdentifier) {
      expression = lastIsOptional ? .optionalMember(expression, name) : .member(expression, name)
    }
    for step in value.steps {
      // The scanner records declared names only, which are identifiers (a keyword gets backticks).
      member(ValidIdentifier(escaping: step.name) ?? ValidIdentifier(derived: step.name))
      lastIsOptional = step.isOptional
    }
    var conversion = value.conversion
    switch conversion {
    case .rawValue(let raw):
      member(ValidIdentifier(fixed: "rawValue"))
      lastIsOptional = false
      conversion = raw
    case .description:
      member(ValidIdentifier(fixed: "description"))
    default:
      break
    }
    let method: ValidIdentifier
    switch (value.wireType, conversion, capture.wireType) {
    case (.int, .integer, .double), (.int, .direct, .double): method = ValidIdentifier(fixed: "integerAsDouble")
    case (.int, .integer, _): method = ValidIdentifier(fixed: "integer")
    case (.double, .floatingPoint, _): method = ValidIdentifier(fixed: "floatingPoint")
    case (.string, _, _): method = ValidIdentifier(fixed: "string")
    case (.int, _, _): method = ValidIdentifier(fixed: "int")
    case (.double, _, _): method = ValidIdentifier(fixed: "double")
    case (.bool, _, _): method = ValidIdentifier(fixed: "bool")
    }
    return .expression(
      .call(
        .member(.reference([properties]), method),
        [
          SwiftCode.Argument(.string(capture.key)), SwiftCode.Argument(expression),
          SwiftCode.Argument(ArgumentLabel(fixed: "required"), .boolean(capture.isRequired)),
        ]))
  }

  /// `p0`, `p1`: the replacement's own parameter names.
  private static func parameterName(_ index: Int) -> ValidIdentifier {
    ValidIdentifier(derived: "p\(index)")
  }

  private static func dotted(_ path: [ValidIdentifier]) -> String {
    path.map(\.text).joined(separator: ".")
  }
}
