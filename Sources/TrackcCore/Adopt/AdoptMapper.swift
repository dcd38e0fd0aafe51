/// Decides, for each call found, what trackc intercepts in its place: a screen handler's control event, a
/// page event, or nothing (the call stays, with a reason).
struct AdoptMapper {
  let index: CodeIndex
  let interception: TrackingConfig.Interception
  /// The screens the plan may name: view controllers of the sources (or classes of `--base`), and SwiftUI
  /// view models (observable classes a view holds), whose `onAppear()` and methods dynamic replacement
  /// reports. Not SwiftUI views: a closure in a view's body is no method trackc intercepts.
  let screens: Set<Int>
  let viewModels: Set<Int>

  init(index: CodeIndex, bases: [String], interception: TrackingConfig.Interception) {
    self.index = index
    self.interception = interception
    let bases = bases.isEmpty ? FrameworkClasses.viewControllerRoots.sorted() : bases
    screens = Set(index.screenClasses(derivingFrom: Set(bases)).map(\.type).filter { !index.swiftUI.views.contains($0) })
    viewModels = index.swiftUI.viewModels.subtracting(screens)
  }

  /// View controller lifecycle methods that are not page events.
  static let unreportedLifecycle: Set<String> = [
    "loadView()", "viewDidLoad()", "viewWillAppear(_:)", "viewWillDisappear(_:)", "viewWillLayoutSubviews()", "viewDidLayoutSubviews()",
    "viewIsAppearing(_:)", "viewSafeAreaInsetsDidChange()", "viewWillTransition(to:with:)", "traitCollectionDidChange(_:)", "deinit",
  ]

  enum Outcome {
    case mapped(AdoptedEvent)
    case left(AdoptReason, String)
  }

  func map(_ call: AnalyticsCall) -> Outcome {
    let what =
      call.origin == "Firebase" || call.origin.hasPrefix("analytics") || call.origin.hasPrefix("Amplitude") || call.origin == "Mixpanel"
      ? "this \(call.origin) call" : "this call of \(call.origin)"
    guard let typeName = call.enclosingType, let function = call.function, function.isMethod else {
      return .left(.notAScreen, "\(what) is not in a method of a type")
    }
    let candidates = index.byNameLookup(typeName).filter { screens.contains($0) || viewModels.contains($0) }
    guard let type = candidates.first, candidates.count == 1 else {
      return .left(.notAScreen, "\(what) is in '\(typeName)', which is not a screen (a view controller or a SwiftUI view model of the sources)")
    }
    if viewModels.contains(type) && interception != .dynamicReplacement {
      return .left(
        .notAScreen, "\(what) is in '\(typeName)', a SwiftUI view model, which trackc intercepts under interception: dynamic-replacement only")
    }
    // A lifecycle method is a page phase; anything else must be a handler the interception reports.
    let phase = TrackingConfig.PagePhase.allCases.first { TrackingConfig.Lifecycle().methods(for: $0).contains(function.name) }
    // A screen call is what an enter page event sends; anywhere else trackc would send a track call.
    if call.isScreenCall && phase != .enter {
      return .left(
        .screenCall, "\(what) is a screen call outside viewDidAppear(_:); trackc sends a screen call for a page's enter event alone")
    }
    if phase == nil {
      if Self.unreportedLifecycle.contains(function.name) {
        return .left(
          .notAHandler,
          "\(what) is in '\(function.name)', a lifecycle method trackc does not report (page events are viewDidAppear(_:) and viewDidDisappear(_:))")
      }
      guard !function.isStatic, let method = index.handlerCandidates(of: type).first(where: { $0.name == function.name }) else {
        return .left(.notAHandler, "\(what) is in '\(function.name)', which is not an instance method of '\(typeName)' a handler can be")
      }
      // What the interception reports is the method's call, whatever calls it: under dynamic-replacement
      // any method a replacement reaches, target-action or not.
      let reachable = interception == .objcRuntime ? method.objcSelector != nil : method.isReplaceable
      guard reachable, !method.attributes.contains("override") else {
        let need =
          interception == .objcRuntime ? "exposed to Objective-C (@objc, @IBAction)" : "reachable by a replacement (not private, generic or async)"
        return .left(
          .notAHandler, "\(what) is in '\(function.name)', which the \(interception.rawValue) interception cannot report: it is not \(need)")
      }
    }
    if let context = call.contexts.first {
      let reason: AdoptReason
      switch context.kind {
      case .closure: reason = .callInClosure
      case .loop: reason = .callInLoop
      case .condition: reason = .callInCondition
      }
      return .left(reason, "\(what) is \(context.what) (line \(context.line)); trackc reports a handler's call or a page's appearance")
    }
    if !call.extraArguments.isEmpty {
      let labels = call.extraArguments.map { $0.hasPrefix("a ") ? $0 : $0 + ":" }.joined(separator: ", ")
      return .left(.extraArguments, "\(what) passes \(labels), which \(call.origin) does not say how it sends; name it in a wrapper of its own")
    }
    guard call.removal != nil else { return .left(.notAStatement, "\(what) is part of an expression whose value is used") }
    guard case .known(let name, _) = call.name else {
      if case .unknown(let expression, let why) = call.name {
        return .left(.dynamicEventName, "the event name '\(expression)' of \(what) is not readable from the code: \(why)")
      }
      return .left(.dynamicEventName, "the event name of \(what) is not readable from the code")
    }
    var properties: [(key: String, value: AdoptedEvent.Value)] = []
    switch call.properties {
    case .none: break
    case .opaque(let expression):
      return .left(.dynamicProperties, "the properties of \(what) ('\(expression)') are not a dictionary literal")
    case .literal(let literal):
      for property in literal {
        guard let key = property.key else {
          return .left(.dynamicProperties, "the property key '\(property.keyText)' of \(what) is not a string literal")
        }
        guard let value = value(property, function: function, type: type, isPage: phase != nil) else {
          return .left(
            .computedPropertyValue,
            "the value of '\(key)' ('\(property.valueText)') of \(what) is computed; trackc binds a handler's parameter, the screen's state or a literal"
          )
        }
        properties.append((key, value))
      }
    }
    let declared = index[type]
    let screen = index.isDeclaredInSeveralModules(declared.name) ? declared.qualifiedName : declared.name
    // A type the parser recovered from broken code can have a name no plan can hold (`.Player`, nested
    // in a declaration without a name).
    guard case .success = SwiftTypeName.parse(screen) else {
      return .left(.notAScreen, "\(what) is in '\(screen)', whose name is not a Swift type name a plan can hold")
    }
    // An enter page event goes as a screen call unless the plan says `call: track`: a track call in
    // viewDidAppear(_:) stays a track call.
    return .mapped(
      AdoptedEvent(
        screen: screen, slot: phase.map { .page($0) } ?? .control(function.name), wireName: name, properties: properties,
        sendsTrackCall: phase == .enter && !call.isScreenCall, call: call))
  }

  /// `12`, `-3.5`, `1e3`: what YAML reads as the same number (not `0x1F`, `0o7`, `0b1`).
  static func isDecimal(_ text: String) -> Bool {
    var scalars = Substring(text)
    if scalars.first == "-" { scalars = scalars.dropFirst() }
    guard let first = scalars.first, first.isASCII, first.isNumber,
      !(scalars.count > 1 && first == "0" && scalars.dropFirst().first?.isLetter == true)
    else { return false }
    return scalars.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "+" || $0 == "-") }
  }

  private func value(_ property: AnalyticsCall.Property, function: AnalyticsCall.Function, type: Int, isPage: Bool) -> AdoptedEvent.Value? {
    switch property.value {
    case .string(let text): return .string(text)
    case .number(let text, _): return Self.isDecimal(text) ? .number(text) : nil
    case .bool(let flag): return .bool(flag)
    case .name(let name):
      if function.parameters.contains(where: { $0.name == name }) { return isPage ? nil : .binding(name) }
      return index.instanceProperty(named: name, on: type) != nil ? .binding("self." + name) : nil
    case .selfPath(let path):
      guard let first = path.first, index.instanceProperty(named: first, on: type) != nil else { return nil }
      return .binding((["self"] + path).joined(separator: "."))
    case .expression:
      return nil
    }
  }
}

/// An event of the plan `trackc adopt` writes, from one call.
public struct AdoptedEvent: Sendable {
  public enum Slot: Sendable, Hashable {
    case page(TrackingConfig.PagePhase)
    case control(String)
  }

  public enum Value: Sendable, Hashable {
    case string(String)
    case number(String)
    case bool(Bool)
    /// `id`, `self.cart.total`.
    case binding(String)
  }

  public var screen: String
  public var slot: Slot
  /// The name the call sends, which the event keeps on the wire.
  public var wireName: String
  public var properties: [(key: String, value: Value)]
  /// An enter page event sent as a track call (`call: track`), as the call it replaces was.
  public var sendsTrackCall = false
  public var call: AnalyticsCall
  /// Given by the writer.
  public var eventID = ""
  /// The plan `trackc adopt` adds to already has this event, sending what the call sends (name, call,
  /// property names): nothing is written for it, and `--fix` takes the call out all the same.
  public var alreadyPlanned = false

  public var isPageEvent: Bool {
    if case .page = slot { return true }
    return false
  }

  /// Its key in the plan: the page phase (`enter`) or the handler (`onCheckout(_:)`).
  public var slotKey: String {
    switch slot {
    case .page(let phase): return phase.rawValue
    case .control(let handler): return handler
    }
  }
}
