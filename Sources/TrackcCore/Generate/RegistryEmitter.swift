/// The registry file: event IDs, handler IDs, rules, and the `TrackingRegistry` conformance, as
/// `SwiftCode` built from the generation model.
struct RegistryEmitter {
  typealias Expression = SwiftCode.Expression
  typealias Member = SwiftCode.Member

  let model: GenerationModel
  /// The namespace enum, and the module that provides the runtime.
  let name: ValidIdentifier
  let runtimeModule: ValidIdentifier
  let configFileName: String
  /// The config file's content hash (`PlanHash`); nil when it could not be read (then no stamp).
  var planHash: String? = nil

  /// The file's declarations: the runtime's import and the namespace.
  func declarations() -> [Member] {
    let members =
      [
        Member(
          declaration: .constant([.public, .static], ValidIdentifier(fixed: "registry"), .call(Self.reference("Registry"), [])),
          documentation: [Comment("The registry to give `Tracker`.")]),
        eventIDs(), handlers(), rules(), Member(declaration: registry(), blankLineBefore: true),
      ] + (model.manualEvents.isEmpty ? [] : [manualTracking()])
    return [
      Member(declaration: .importModule(testable: false, generatedSPI: true, [runtimeModule]), blankLineBefore: true),
      Member(
        declaration: .enumeration([.public], name, inherits: [], members), blankLineBefore: true,
        documentation: [Comment("The events of \(configFileName), and the rules the tracker reads.")]),
    ] + (model.objcHooks.isEmpty ? [] : [objcReplacements()])
  }

  /// `public enum EventID: String, TrackingEventID, CaseIterable { case name = "ID" }`
  private func eventIDs() -> Member {
    let cases = model.eventIDs.map { event in Member(declaration: .enumCase(event.identifier, rawValue: .string(event.id))) }
    let inherits = [ValidIdentifier(fixed: "String"), ValidIdentifier(fixed: "TrackingEventID"), ValidIdentifier(fixed: "CaseIterable")]
    return Member(
      declaration: .enumeration([.public], ValidIdentifier(fixed: "EventID"), inherits: inherits, cases), blankLineBefore: true,
      documentation: [Comment("Every event ID of the config, for code that tracks by hand.")])
  }

  /// `public enum Handler { public static let name = HandlerID(rawValue: 0) }`, each documented with its name.
  private func handlers() -> Member {
    let constants = model.handlers.enumerated().map { index, handler in
      Member(
        declaration: .constant([.public, .static], handler.identifier, Self.identifierValue("HandlerID", index)),
        documentation: [Comment(handler.name)])
    }
    return Member(
      declaration: .enumeration([.generatedSPI, .public], ValidIdentifier(fixed: "Handler"), inherits: [], constants), blankLineBefore: true,
      documentation: [Comment("The handlers the config maps, numbered (the generated interceptors pass these).")])
  }

  /// `public enum Track { public static func name(label: Type) { ... } }`: an event with bindings,
  /// tracked by hand with its properties as typed parameters.
  private func manualTracking() -> Member {
    let properties = ValidIdentifier(fixed: "properties")
    let functions = model.manualEvents.enumerated().map { index, event in
      let captures = event.parameters.enumerated().map { position, parameter -> SwiftCode.Statement in
        let method: ValidIdentifier
        switch parameter.type {
        case .string: method = ValidIdentifier(fixed: "string")
        case .int: method = ValidIdentifier(fixed: "int")
        case .double: method = ValidIdentifier(fixed: "double")
        case .bool: method = ValidIdentifier(fixed: "bool")
        }
        return .expression(
          .call(
            .member(.reference([properties]), method),
            [
              SwiftCode.Argument(.string(parameter.key)), SwiftCode.Argument(.reference([Self.parameterName(position)])),
              SwiftCode.Argument(ArgumentLabel(fixed: "required"), .boolean(!parameter.isOptional)),
            ]))
      }
      let track = SwiftCode.Expression.call(
        .optionalMember(.reference([ValidIdentifier(fixed: "Interception"), ValidIdentifier(fixed: "tracker")]), ValidIdentifier(fixed: "track")),
        [SwiftCode.Argument(.reference([name, ValidIdentifier(fixed: "EventID"), event.identifier]))])
      let function = SwiftCode.Function(
        modifiers: [.public, .static], name: event.identifier,
        parameters: event.parameters.enumerated().map { position, parameter in
          let type = SwiftCode.TypeReference.named([ValidIdentifier(fixed: parameter.type.swiftName)])
          return SwiftCode.Parameter(label: parameter.label, name: Self.parameterName(position), type: parameter.isOptional ? .optional(type) : type)
        },
        result: nil, body: [.callWithClosure(track, closureParameter: properties, captures)])
      return Member(declaration: .function(function), blankLineBefore: index > 0, documentation: [Comment(event.eventID)])
    }
    return Member(
      declaration: .enumeration([.public], ValidIdentifier(fixed: "Track"), inherits: [], functions), blankLineBefore: true,
      documentation: [Comment("Tracking by hand, for the events with bindings: their properties as typed parameters.")])
  }

  private static func parameterName(_ index: Int) -> ValidIdentifier {
    ValidIdentifier(derived: "p\(index)")
  }

  /// `enum Rules { static let name = EventRule(eventID:routing:properties:) }`
  private func rules() -> Member {
    let constants = model.rules.map { rule in
      let routing: Expression
      switch rule.routing {
      case .unrestricted:
        routing = .implicitMember(ValidIdentifier(fixed: "unrestricted"))
      case .only(let destinations):
        routing = .call(.implicitMember(ValidIdentifier(fixed: "only")), [SwiftCode.Argument(.array(destinations.map { .string($0) }))])
      }
      var arguments = [SwiftCode.Argument(ArgumentLabel(fixed: "eventID"), .string(rule.eventID))]
      if let wireName = rule.wireName { arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "wireName"), .string(wireName))) }
      if rule.sendsEnterAsTrack { arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "sendsEnterAsTrack"), .boolean(true))) }
      arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "routing"), routing))
      // No properties is `EventRule`'s default.
      if !rule.properties.isEmpty {
        let properties = rule.properties.map { (key: Expression.string($0.key), value: literal($0.value)) }
        arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "properties"), .dictionary(properties)))
      }
      if !rule.keyPathBindings.isEmpty {
        arguments.append(SwiftCode.Argument(ArgumentLabel(fixed: "keyPathBindings"), .array(rule.keyPathBindings.map(keyPathBinding))))
      }
      return Member(declaration: .constant([.static], rule.identifier, .call(Self.reference("EventRule"), arguments)))
    }
    return Member(
      declaration: .enumeration([], ValidIdentifier(fixed: "Rules"), inherits: [], constants), blankLineBefore: true,
      documentation: [Comment("One rule per mapping, with its routing resolved.")])
  }

  /// `KeyPathBinding(key:root:steps:type:isRequired:)`
  private func keyPathBinding(_ capture: GenerationModel.KeyPathCapture) -> Expression {
    let type: StaticString
    switch capture.wireType {
    case .string: type = "string"
    case .int: type = "int"
    case .double: type = "double"
    case .bool: type = "bool"
    }
    return .call(
      Self.reference("KeyPathBinding"),
      [
        SwiftCode.Argument(ArgumentLabel(fixed: "key"), .string(capture.key)),
        SwiftCode.Argument(
          ArgumentLabel(fixed: "root"),
          capture.argument.map { .call(.implicitMember(ValidIdentifier(fixed: "argument")), [SwiftCode.Argument(.integer($0))]) }
            ?? .implicitMember(ValidIdentifier(fixed: "screen"))),
        SwiftCode.Argument(ArgumentLabel(fixed: "steps"), .array(capture.steps.map { .string($0) })),
        SwiftCode.Argument(ArgumentLabel(fixed: "type"), .implicitMember(ValidIdentifier(fixed: type))),
        SwiftCode.Argument(ArgumentLabel(fixed: "isRequired"), .boolean(capture.isRequired)),
      ])
  }

  private func literal(_ value: PropertyValue) -> Expression {
    let (kind, argument): (StaticString, Expression)
    switch value {
    case .string(let string): (kind, argument) = ("string", .string(string))
    case .int(let int): (kind, argument) = ("int", .integer(int))
    case .double(let double): (kind, argument) = ("double", .double(double))
    case .bool(let bool): (kind, argument) = ("bool", .boolean(bool))
    }
    return .call(.implicitMember(ValidIdentifier(fixed: kind)), [SwiftCode.Argument(argument)])
  }

  /// `public struct Registry: TrackingRegistry`: every lookup a `switch`.
  private func registry() -> SwiftCode.Declaration {
    let ruleReference = { (rule: Int) in Expression.reference([ValidIdentifier(fixed: "Rules"), model.rules[rule].identifier]) }
    var members: [Member] = [
      Member(declaration: .emptyInitializer([.public])),
      // Screens and handlers by the names the runtime sees.
      lookup(
        "screen", ("named", "name", "String"), returns: .optional(Self.type("ScreenID")), on: ["name"],
        model.screens.enumerated().map {
          (patterns: $0.element.runtimeNames.map { .string($0) }, value: Self.identifierValue("ScreenID", $0.offset))
        },
        otherwise: .nilLiteral),
      lookup(
        "handler", ("named", "name", "String"), returns: .optional(Self.type("HandlerID")), on: ["name"],
        model.handlers.map { (patterns: $0.lookupNames.map { .string($0) }, value: .reference([ValidIdentifier(fixed: "Handler"), $0.identifier])) },
        otherwise: .nilLiteral),
      pageRule(ruleReference),
      controlRule(ruleReference),
      lookup(
        "rule", ("eventID", nil, "String"), returns: .optional(Self.type("EventRule")), on: ["eventID"],
        model.firstRule.map { (patterns: [.string($0.id)], value: ruleReference($0.rule)) }, otherwise: .nilLiteral),
      lookup(
        "name", ("of", "screen", "ScreenID"), returns: Self.type("String"), on: ["screen", "rawValue"],
        model.screens.enumerated().map { (patterns: [.integer($0.offset)], value: .string($0.element.name)) }, otherwise: .string("")),
      lookup(
        "name", ("of", "handler", "HandlerID"), returns: Self.type("String"), on: ["handler", "rawValue"],
        model.handlers.enumerated().map { (patterns: [.integer($0.offset)], value: .string($0.element.name)) }, otherwise: .string("")),
    ]
    members += consent()
    members += wireNames()
    members += planStamp()
    if !model.applicationRules.isEmpty { members.append(applicationRule(ruleReference)) }
    // SwiftUI screens that report their own appearance (`.tracked(_:)` in their body) are no hosting
    // controller's root screen, which would report them a second time.
    let hosted: [Member] =
      model.selfReportingScreenNames.isEmpty
      ? []
      : [
        lookup(
          "hostedScreen", ("named", "name", "String"), returns: .optional(Self.type("ScreenID")), on: ["name"],
          [(patterns: model.selfReportingScreenNames.map { .string($0) }, value: .nilLiteral)],
          otherwise: .call(Self.reference("screen"), [SwiftCode.Argument(ArgumentLabel(fixed: "named"), Self.reference("name"))]))
      ]
    // Under objc-runtime, `Trackc.start` installs the UIKit hooks (the protocol's default says no), and
    // replaces the implementations of the handlers these name.
    if model.plan.interception == .objcRuntime {
      members.append(
        Member(
          declaration: .computedProperty(
            [.generatedSPI, .public], ValidIdentifier(fixed: "hooksUIKit"), Self.type("Bool"), [.returnValue(.boolean(true))]),
          blankLineBefore: true))
      if !model.objcHooks.isEmpty { members.append(objcHandlerHooks()) }
    }
    return .structure(
      [.public], ValidIdentifier(fixed: "Registry"), inherits: [ValidIdentifier(fixed: "TrackingRegistry")], members + hosted)
  }

  /// `public var objcHandlerHooks: [ObjCHandlerHook] { [ObjCHandlerHook(className:selector:handler:shape:planLine:)] }`
  private func objcHandlerHooks() -> Member {
    let hooks = model.objcHooks.map { hook -> Expression in
      let className: Expression
      switch hook.className {
      case .objc(let name): className = .call(.implicitMember(ValidIdentifier(fixed: "objc")), [SwiftCode.Argument(.string(name))])
      case .inRegistryModule(let name):
        className = .call(.implicitMember(ValidIdentifier(fixed: "inRegistryModule")), [SwiftCode.Argument(.string(name))])
      }
      return .call(
        Self.reference("ObjCHandlerHook"),
        [
          SwiftCode.Argument(ArgumentLabel(fixed: "className"), className),
          SwiftCode.Argument(ArgumentLabel(fixed: "selector"), .string(hook.selector)),
          SwiftCode.Argument(ArgumentLabel(fixed: "handler"), .reference([ValidIdentifier(fixed: "Handler"), hook.handler])),
          SwiftCode.Argument(ArgumentLabel(fixed: "shape"), .integer(hook.shape)),
          SwiftCode.Argument(ArgumentLabel(fixed: "planLine"), .integer(hook.planLine)),
        ])
    }
    return Member(
      declaration: .computedProperty(
        [.generatedSPI, .public], ValidIdentifier(fixed: "objcHandlerHooks"), .array(Self.type("ObjCHandlerHook")), [.returnValue(.array(hooks))]),
      blankLineBefore: true)
  }

  /// Under `objc-runtime`, on platforms with an Objective-C runtime: the replacement of a hooked handler's
  /// implementation, one per shape of signature. Each is a block of the original's C signature (with the
  /// object first, without the selector) that reports the call, reads bound arguments on demand, and
  /// calls the original implementation with every argument as it came.
  private func objcReplacements() -> Member {
    let fixed = { (name: StaticString) in ValidIdentifier(fixed: name) }
    let (hook, original, selector, handler) = (fixed("hook"), fixed("original"), fixed("selector"), fixed("handler"))
    let (implementation, replacement, object, scope, position) = (
      fixed("implementation"), fixed("replacement"), fixed("object"), fixed("scope"), fixed("position")
    )
    let anyObject = Self.type("AnyObject")
    var cases: [SwiftCode.Case] = []
    for (index, shape) in model.objcShapes.enumerated() {
      let arguments = shape.parameters.indices.map { ValidIdentifier(derived: "a\($0)") }
      let parameterTypes = shape.parameters.map(SwiftCode.TypeReference.objc)
      let result = shape.result.map(SwiftCode.TypeReference.objc) ?? Self.type("Void")
      let cFunction = SwiftCode.TypeReference.function(.c, [anyObject, Self.type("Selector")] + parameterTypes, result: result)
      let block = SwiftCode.TypeReference.function(.block, [anyObject] + parameterTypes, result: result)
      let begin = Expression.call(
        Self.reference("ObjCHandlerHooks", "begin"), [SwiftCode.Argument(.reference([object])), SwiftCode.Argument(.reference([handler]))])
      // What bindings read: each argument, a `BOOL` as a `Bool`.
      let reads =
        zip(shape.parameters, arguments).enumerated().map { position, pair -> SwiftCode.Case in
          let value: Expression = pair.0 == .bool ? .member(.reference([pair.1]), fixed("boolValue")) : .reference([pair.1])
          return SwiftCode.Case(patterns: [.integer(position)], body: [.returnValue(value)])
        } + [SwiftCode.Case(patterns: [], body: [.returnValue(.nilLiteral)])]
      let call = Expression.call(
        .reference([implementation]), ([object, selector] + arguments).map { SwiftCode.Argument(.reference([$0])) })
      let body: [SwiftCode.Statement] = [
        arguments.isEmpty
          ? .constant(scope, begin)
          : .constantWithClosure(scope, begin, closureParameter: position, [.switchOn(.reference([position]), reads)]),
        .deferred(.call(.member(.reference([scope]), fixed("end")), [])),
        shape.result == nil ? .expression(call) : .returnValue(call),
      ]
      cases.append(
        SwiftCode.Case(
          patterns: [.integer(index)],
          body: [
            .constant(
              implementation,
              .call(
                Self.reference("unsafeBitCast"),
                [SwiftCode.Argument(.reference([original])), SwiftCode.Argument(ArgumentLabel(fixed: "to"), .typeMetatype(cFunction))])),
            .typedClosure(replacement, block, parameters: [object] + arguments, body),
            .returnValue(.reference([replacement])),
          ]))
    }
    cases.append(SwiftCode.Case(patterns: [], body: [.returnValue(.nilLiteral)]))
    let function = SwiftCode.Function(
      modifiers: [.generatedSPI, .public], name: fixed("objcReplacement"),
      parameters: [
        SwiftCode.Parameter(label: ArgumentLabel(fixed: "for"), name: hook, type: Self.type("ObjCHandlerHook")),
        SwiftCode.Parameter(label: ArgumentLabel(fixed: "original"), name: nil, type: Self.type("IMP")),
        SwiftCode.Parameter(label: ArgumentLabel(fixed: "selector"), name: nil, type: Self.type("Selector")),
      ],
      result: .optional(.any),
      body: [.constant(handler, .member(.reference([hook]), handler)), .switchOn(.member(.reference([hook]), fixed("shape")), cases)])
    var imports = [Member(declaration: .importModule(testable: false, [fixed("ObjectiveC")]))]
    let forms = model.objcShapes.flatMap { $0.parameters + ($0.result.map { [$0] } ?? []) }
    // The module of each C struct a signature spells, as the SDK's table says (CGFloat's and Core
    // Foundation's geometry by CoreGraphics, which declared them before iOS 17.4's SDK and re-exports them).
    var structureModules: Set<String> = []
    for form in forms {
      switch form {
      case .scalar("CGFloat"): structureModules.insert("CoreGraphics")
      case .structure("NSRange"): structureModules.insert("Foundation")
      case .structure(let name):
        let module = FrameworkTypes.apple.module(ofStructure: name) ?? "CoreGraphics"
        structureModules.insert(module == "CoreFoundation" ? "CoreGraphics" : module)
      default: break
      }
    }
    for module in structureModules.sorted() {
      guard let identifier = ValidIdentifier(module) else { continue }
      imports.append(Member(declaration: .importModule(testable: false, [identifier])))
    }
    let extensionMember = Member(
      declaration: .extensionOf(
        [name, fixed("Registry")],
        [
          Member(
            declaration: .function(function),
            documentation: [
              Comment("Under interception: objc-runtime, each hooked handler's implementation is replaced by a block of its"),
              Comment("Objective-C signature's shape that reports the call and calls the original (`ObjCHandlerHook`)."),
            ])
        ]),
      blankLineBefore: true)
    return Member(declaration: .ifCanImport(fixed("ObjectiveC"), imports + [extensionMember]), blankLineBefore: true)
  }

  /// The consent the plan declares, when it declares categories (otherwise the protocol's defaults gate
  /// nothing): each destination's category by its ID, and each category's default.
  private func consent() -> [Member] {
    let plan = model.plan
    guard let categories = plan.config.privacy?.consentCategories, !categories.isEmpty else { return [] }
    var seen = Set<String>()
    let gated = (plan.config.destinations ?? []).filter { seen.insert($0.id.value).inserted }.compactMap { destination in
      destination.privacy.consent.map { (patterns: [Expression.string(destination.id.value)], value: Expression.string($0.value)) }
    }
    var named = Set<String>()
    let defaults = categories.filter { named.insert($0.name.value).inserted }.map { category in
      (key: Expression.string(category.name.value), value: Expression.boolean((category.defaultValue?.value ?? .default) == .granted))
    }
    let dictionary = SwiftCode.TypeReference.generic(ValidIdentifier(fixed: "Dictionary"), [Self.type("String"), Self.type("Bool")])
    var members = [
      lookup(
        "consentCategory", ("ofDestination", "id", "String"), returns: .optional(Self.type("String")), on: ["id"], gated, otherwise: .nilLiteral),
      Member(
        declaration: .computedProperty(
          [.generatedSPI, .public], ValidIdentifier(fixed: "consentDefaults"), dictionary, [.returnValue(.dictionary(defaults))]),
        blankLineBefore: true),
      // What a collector is told to leave out of a call for every destination, once refused.
      Member(
        declaration: .computedProperty(
          [.generatedSPI, .public], ValidIdentifier(fixed: "consentGatedDestinations"),
          .array(Self.type("String")),
          [.returnValue(.array(gated.flatMap(\.patterns)))]),
        blankLineBefore: true),
    ]
    // The categories' names in the workspace's consent settings, where they differ from the plan's.
    var wired = Set<String>()
    let categoryWireNames = categories.filter { wired.insert($0.name.value).inserted }.compactMap {
      category -> (patterns: [Expression], value: Expression)? in
      guard let wireName = category.wireName?.value, wireName != category.name.value else { return nil }
      return ([.string(category.name.value)], .string(wireName))
    }
    if !categoryWireNames.isEmpty {
      members.append(
        lookup(
          "consentWireName", ("ofCategory", "category", "String"), returns: .optional(Self.type("String")), on: ["category"],
          categoryWireNames, otherwise: .nilLiteral))
    }
    // Categories that wait for the first answer, and how much may wait (the protocol's defaults: none).
    var listed = Set<String>()
    let pending = categories.filter { $0.defaultValue?.value == .pending && listed.insert($0.name.value).inserted }.map {
      Expression.string($0.name.value)
    }
    guard !pending.isEmpty else { return members }
    let set = SwiftCode.TypeReference.generic(ValidIdentifier(fixed: "Set"), [Self.type("String")])
    members.append(
      Member(
        declaration: .computedProperty(
          [.generatedSPI, .public], ValidIdentifier(fixed: "pendingConsentCategories"), set, [.returnValue(.array(pending))]),
        blankLineBefore: true))
    let limits = plan.config.privacy?.pending
    let events = limits?.events?.value ?? TrackingConfig.PendingLimits.defaultEvents
    let seconds = (limits?.hours?.value ?? TrackingConfig.PendingLimits.defaultHours) * 3600
    let value = Expression.call(
      Self.reference("PendingConsentLimits"),
      [
        SwiftCode.Argument(ArgumentLabel(fixed: "events"), .integer(events)),
        SwiftCode.Argument(ArgumentLabel(fixed: "seconds"), .double(seconds)),
      ])
    members.append(
      Member(
        declaration: .computedProperty(
          [.generatedSPI, .public], ValidIdentifier(fixed: "pendingConsentLimits"), Self.type("PendingConsentLimits"), [.returnValue(value)]),
        blankLineBefore: true))
    // The destinations that take events waiting longer, or less long, than the plan's limit.
    var limited = Set<String>()
    let hours = (plan.config.destinations ?? []).filter { limited.insert($0.id.value).inserted }.compactMap {
      destination -> (patterns: [Expression], value: Expression)? in
      guard let hours = destination.privacy.pendingHours?.value else { return nil }
      return ([.string(destination.id.value)], .double(hours))
    }
    if !hours.isEmpty {
      members.append(
        lookup(
          "pendingConsentHours", ("ofDestination", "id", "String"), returns: .optional(Self.type("Double")), on: ["id"], hours,
          otherwise: .nilLiteral))
    }
    return members
  }

  /// The names the plan's destinations go by on the wire (`wire_name`), for those that differ from their
  /// IDs (without any, the protocol's default sends the IDs).
  /// `plan`: the plan's version and content hash, which every event carries (`context.trackingPlan`).
  private func planStamp() -> [Member] {
    guard let planHash else { return [] }
    let version = model.plan.config.planVersion.map { Expression.string($0.value) } ?? .nilLiteral
    let value = Expression.call(
      Self.reference("PlanStamp"),
      [SwiftCode.Argument(ArgumentLabel(fixed: "version"), version), SwiftCode.Argument(ArgumentLabel(fixed: "hash"), .string(planHash))])
    return [
      Member(
        declaration: .computedProperty(
          [.generatedSPI, .public], ValidIdentifier(fixed: "plan"), .optional(Self.type("PlanStamp")), [.returnValue(value)]),
        blankLineBefore: true)
    ]
  }

  private func wireNames() -> [Member] {
    var seen = Set<String>()
    let named = (model.plan.config.destinations ?? []).filter { seen.insert($0.id.value).inserted }.compactMap {
      destination -> (patterns: [Expression], value: Expression)? in
      guard let wireName = destination.wireName?.value, wireName != destination.id.value else { return nil }
      return ([.string(destination.id.value)], .string(wireName))
    }
    guard !named.isEmpty else { return [] }
    return [
      lookup("wireName", ("ofDestination", "id", "String"), returns: .optional(Self.type("String")), on: ["id"], named, otherwise: .nilLiteral)
    ]
  }

  /// `public func pageRule(screen: ScreenID, phase: PagePhase) -> EventRule?`: by screen, then by phase.
  private func pageRule(_ ruleReference: (Int) -> Expression) -> Member {
    var cases: [SwiftCode.Case] = []
    for (index, screen) in model.screens.enumerated() where !screen.pageRules.isEmpty {
      var phases = screen.pageRules.map { page in
        SwiftCode.Case(patterns: [.implicitMember(ValidIdentifier(fixed: page.phase.staticName))], body: [.returnValue(ruleReference(page.rule))])
      }
      // A `default` when some phase has no rule (with every phase, it would never run: a warning).
      if screen.pageRules.count < TrackingConfig.PagePhase.allCases.count { phases.append(Self.otherwise(.nilLiteral)) }
      cases.append(SwiftCode.Case(patterns: [.integer(index)], body: [.switchOn(Self.reference("phase"), phases)]))
    }
    return function(
      "pageRule", [("screen", nil, "ScreenID"), ("phase", nil, "PagePhase")], returns: .optional(Self.type("EventRule")),
      body: [.switchOn(Self.reference("screen", "rawValue"), cases + [Self.otherwise(.nilLiteral)])])
  }

  /// `public func applicationRule(_ event: ApplicationEvent) -> EventRule?`: the application events the
  /// plan maps (without any, the protocol's default maps none, and the runtime tracks none).
  private func applicationRule(_ ruleReference: (Int) -> Expression) -> Member {
    var cases = model.applicationRules.map { mapping in
      SwiftCode.Case(patterns: [.implicitMember(ValidIdentifier(fixed: mapping.event.staticName))], body: [.returnValue(ruleReference(mapping.rule))])
    }
    // A `default` when some event is not mapped (with every one, it would never run: a warning).
    if cases.count < TrackingConfig.ApplicationEvent.allCases.count { cases.append(Self.otherwise(.nilLiteral)) }
    let parameter = SwiftCode.Parameter(label: nil, name: ValidIdentifier(fixed: "event"), type: Self.type("ApplicationEvent"))
    return Member(
      declaration: .function(
        SwiftCode.Function(
          modifiers: [.generatedSPI, .public], name: ValidIdentifier(fixed: "applicationRule"), parameters: [parameter],
          result: .optional(Self.type("EventRule")), body: [.switchOn(Self.reference("event"), cases)])),
      blankLineBefore: true)
  }

  /// `public func controlRule(screen: ScreenID, handler: HandlerID) -> EventRule?`: by screen, then by handler.
  private func controlRule(_ ruleReference: (Int) -> Expression) -> Member {
    var cases: [SwiftCode.Case] = []
    for (index, screen) in model.screens.enumerated() where !screen.controlRules.isEmpty {
      let handlers =
        screen.controlRules.map { control in
          SwiftCode.Case(patterns: [.integer(control.handler)], body: [.returnValue(ruleReference(control.rule))])
        } + [Self.otherwise(.nilLiteral)]
      cases.append(SwiftCode.Case(patterns: [.integer(index)], body: [.switchOn(Self.reference("handler", "rawValue"), handlers)]))
    }
    return function(
      "controlRule", [("screen", nil, "ScreenID"), ("handler", nil, "HandlerID")], returns: .optional(Self.type("EventRule")),
      body: [.switchOn(Self.reference("screen", "rawValue"), cases + [Self.otherwise(.nilLiteral)])])
  }

  /// A function that is one `switch`: each case returns its value.
  private func lookup(
    _ name: StaticString, _ parameter: (label: StaticString, name: StaticString?, type: StaticString), returns: SwiftCode.TypeReference,
    on subject: [StaticString], _ cases: [(patterns: [Expression], value: Expression)], otherwise: Expression
  ) -> Member {
    let switchCases =
      cases.filter { !$0.patterns.isEmpty }.map { SwiftCode.Case(patterns: $0.patterns, body: [.returnValue($0.value)]) } + [
        Self.otherwise(otherwise)
      ]
    return function(name, [parameter], returns: returns, body: [.switchOn(.reference(subject.map { ValidIdentifier(fixed: $0) }), switchCases)])
  }

  /// `public func name(label name: Type, ...) -> Result { body }`, after a blank line: the requirements
  /// of `TrackingRegistry`.
  private func function(
    _ name: StaticString, _ parameters: [(label: StaticString, name: StaticString?, type: StaticString)], returns: SwiftCode.TypeReference,
    body: [SwiftCode.Statement]
  ) -> Member {
    let parameters = parameters.map {
      SwiftCode.Parameter(label: ArgumentLabel(fixed: $0.label), name: $0.name.map { ValidIdentifier(fixed: $0) }, type: Self.type($0.type))
    }
    return Member(
      declaration: .function(
        SwiftCode.Function(
          modifiers: [.generatedSPI, .public], name: ValidIdentifier(fixed: name), parameters: parameters, result: returns, body: body)),
      blankLineBefore: true)
  }

  /// `default: return value`.
  private static func otherwise(_ value: Expression) -> SwiftCode.Case {
    SwiftCode.Case(patterns: [], body: [.returnValue(value)])
  }

  /// `Name(rawValue: 3)`.
  private static func identifierValue(_ type: StaticString, _ rawValue: Int) -> Expression {
    .call(reference(type), [SwiftCode.Argument(ArgumentLabel(fixed: "rawValue"), .integer(rawValue))])
  }

  private static func reference(_ path: StaticString...) -> Expression {
    .reference(path.map { ValidIdentifier(fixed: $0) })
  }

  private static func type(_ name: StaticString) -> SwiftCode.TypeReference {
    .named([ValidIdentifier(fixed: name)])
  }
}

extension TrackingConfig.ApplicationEvent {
  /// The case's name, as the runtime's `ApplicationEvent` spells it too.
  var staticName: StaticString {
    switch self {
    case .installed: return "installed"
    case .updated: return "updated"
    case .opened: return "opened"
    case .backgrounded: return "backgrounded"
    }
  }
}

extension TrackingConfig.PagePhase {
  /// The case's name, as the runtime's `PagePhase` spells it too.
  var staticName: StaticString {
    switch self {
    case .enter: return "enter"
    case .leave: return "leave"
    }
  }
}

extension SwiftCode.TypeReference {
  /// The Swift type a C or block signature spells an Objective-C form with (`AnyObject?`, `ObjCBool`).
  fileprivate static func objc(_ form: ObjCSignature.Form) -> SwiftCode.TypeReference {
    switch form {
    case .object: return .optional(.named([ValidIdentifier(fixed: "AnyObject")]))
    case .bool: return .named([ValidIdentifier(fixed: "ObjCBool")])
    case .scalar(let name), .structure(let name): return .named([ValidIdentifier(name) ?? ValidIdentifier(fixed: "Int")])
    case .selector: return .named([ValidIdentifier(fixed: "Selector")])
    case .pointer: return .optional(.named([ValidIdentifier(fixed: "UnsafeMutableRawPointer")]))
    }
  }
}
