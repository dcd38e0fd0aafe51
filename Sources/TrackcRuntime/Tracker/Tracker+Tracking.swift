import Foundation

extension Tracker {
  // MARK: Tracking

  /// A page phase of a screen, by the screen's type (a subclass the config does not list counts as its
  /// listed superclass). Nothing happens for a screen or phase the config does not map.
  @_spi(Generated) public func trackPage(of screenType: Any.Type, _ phase: PagePhase) {
    guard let screen = screen(of: screenType), let rule = registry.pageRule(screen: screen, phase: phase) else { return }
    emit(rule, source: .page(phase), screen: registry.name(of: screen))
  }

  /// A handler call on a screen, by the screen's type and the handler's generated ID.
  @_spi(Generated) public func trackControl(of screenType: Any.Type, handler: HandlerID) {
    guard let screen = screen(of: screenType), let rule = registry.controlRule(screen: screen, handler: handler) else { return }
    emit(rule, source: .control(handler: registry.name(of: handler)), screen: registry.name(of: screen))
  }

  /// The same, with the properties its bindings read: `capture` runs only when the screen maps the
  /// handler, so an unmapped call reads nothing.
  @_spi(Generated) public func trackControl(of screenType: Any.Type, handler: HandlerID, capture: (inout CapturedProperties) -> Void) {
    guard let screen = screen(of: screenType), let rule = registry.controlRule(screen: screen, handler: handler) else { return }
    emit(rule, source: .control(handler: registry.name(of: handler)), screen: registry.name(of: screen), capture: capture)
  }

  /// The same, for a handler reached through the Objective-C runtime (`ObjCHandlerHook`): `read` returns a
  /// bound property's value by key path (`EventRule.keyPathBindings`), from the object or an argument.
  @_spi(Generated) public func trackControl(of screenType: Any.Type, handler: HandlerID, read: (KeyPathBinding) -> Any?) {
    guard let screen = screen(of: screenType), let rule = registry.controlRule(screen: screen, handler: handler) else { return }
    withoutActuallyEscaping(read) { read in
      emit(rule, source: .control(handler: registry.name(of: handler)), screen: registry.name(of: screen), read: read)
    }
  }

  /// A page phase whose event binds the screen's state.
  @_spi(Generated) public func trackPage(of screenType: Any.Type, _ phase: PagePhase, capture: (inout CapturedProperties) -> Void) {
    guard let screen = screen(of: screenType), let rule = registry.pageRule(screen: screen, phase: phase) else { return }
    emit(rule, source: .page(phase), screen: registry.name(of: screen), capture: capture)
  }

  /// Bound values that were nil without `optional: true` in the config: left out of their events and
  /// counted here (a delivery warning, not a crash).
  public var missingBoundValues: Int {
    lock.lock()
    defer { lock.unlock() }
    return missingBound
  }

  /// What `capture` reads (written after the rule's static properties), counting the required values
  /// that were nil. Read only once routing has decided the event is sent.
  private func captured(_ capture: (inout CapturedProperties) -> Void) -> PropertyPairs {
    var properties = CapturedProperties()
    capture(&properties)
    if properties.missingRequired > 0 {
      lock.lock()
      missingBound += properties.missingRequired
      lock.unlock()
    }
    return properties.pairs
  }

  /// A page phase by the view controller's type name (`String(reflecting:)`), as the UIKit hooks give it;
  /// `read` returns a bound property's value by key path from the screen.
  @_spi(Generated) public func trackPage(screenNamed screenName: String, _ phase: PagePhase, read: ((KeyPathBinding) -> Any?)? = nil) {
    guard let screen = screen(named: screenName), let rule = registry.pageRule(screen: screen, phase: phase) else { return }
    emit(rule, source: .page(phase), screen: registry.name(of: screen), read: read)
  }

  /// A view controller's page phase where the view controller may be a hosting controller: the class's
  /// own screen if the config lists it, else the screen its SwiftUI root view is (`rootView`, its type
  /// as `String(reflecting:)` writes it; see `HostedRootView`). `read` reads from the view controller.
  @_spi(Generated) public func trackPage(
    hostingControllerNamed className: String, rootView: String?, _ phase: PagePhase, read: ((KeyPathBinding) -> Any?)? = nil
  ) {
    if let screen = screen(named: className) {
      guard let rule = registry.pageRule(screen: screen, phase: phase) else { return }
      return emit(rule, source: .page(phase), screen: registry.name(of: screen), read: read)
    }
    guard let rootView, let name = HostedRootView.screenTypeName(rootView), let screen = hostedScreen(named: name),
      let rule = registry.pageRule(screen: screen, phase: phase)
    else { return }
    emit(rule, source: .page(phase), screen: registry.name(of: screen), read: nil)
  }

  /// An event reached through the Objective-C runtime: its key-path bindings read with `read`. Without a
  /// reader (a caller that cannot reach the objects) the bound values are not there, and the required
  /// ones are counted as missing.
  private func emit(_ rule: EventRule, source: TrackingEvent.Source, screen: String, read: ((KeyPathBinding) -> Any?)?) {
    guard !rule.keyPathBindings.isEmpty else { return emit(rule, source: source, screen: screen) }
    emit(rule, source: source, screen: screen) { properties in
      for binding in rule.keyPathBindings { properties.add(binding, value: read?(binding)) }
    }
  }

  /// An event tracked by hand, by its generated ID constant; routed as the config routes that ID.
  /// Unknown IDs are ignored.
  public func track<ID: TrackingEventID>(_ id: ID, screen: String? = nil, properties: [String: PropertyValue] = [:]) {
    guard let rule = registry.rule(eventID: id.rawValue) else { return }
    emit(rule, source: .manual, screen: screen, extraProperties: properties)
  }

  /// An event tracked by hand through its generated typed function (`Track.checkoutCompleted(total:)`),
  /// which fills in the properties.
  @_spi(Generated) public func track<ID: TrackingEventID>(_ id: ID, screen: String? = nil, capture: (inout CapturedProperties) -> Void) {
    guard let rule = registry.rule(eventID: id.rawValue) else { return }
    emit(rule, source: .manual, screen: screen, capture: capture)
  }

  /// An event by its generated rule (an entry point's open event, which `PendingRoute` tracks): routed
  /// and carrying the static properties as that rule says, whichever other mapping shares its ID.
  @_spi(Generated) public func track(_ rule: EventRule, screen: String?, properties: [String: PropertyValue] = [:]) {
    emit(rule, source: .manual, screen: screen, extraProperties: properties)
  }

  // MARK: Journaling

  private func emit(_ rule: EventRule, source: TrackingEvent.Source, screen: String?, extraProperties: [String: PropertyValue] = [:]) {
    let (destinations, forwardedTo) = route(rule)
    guard destinations != 0 else { return }
    let extra = extraProperties.isEmpty ? [] : PropertyPairs(extraProperties)
    append(rule, source: source, screen: screen, extra: extra, destinations: destinations, forwardedTo: forwardedTo)
  }

  /// The same, with bound properties: `capture` runs only when some destination takes the event.
  private func emit(_ rule: EventRule, source: TrackingEvent.Source, screen: String?, capture: (inout CapturedProperties) -> Void) {
    let (destinations, forwardedTo) = route(rule)
    guard destinations != 0 else { return }
    append(rule, source: source, screen: screen, extra: captured(capture), destinations: destinations, forwardedTo: forwardedTo)
  }

  private func append(
    _ rule: EventRule, source: TrackingEvent.Source, screen: String?, extra: PropertyPairs, destinations: UInt64, forwardedTo: [String]?
  ) {
    journal.append(
      EventCoding.Draft(
        eventID: rule.eventID, source: source, screen: screen, properties: rule.propertyPairs, extra: extra, forwardedTo: forwardedTo,
        wireName: rule.wireName, sendsEnterAsTrack: rule.sendsEnterAsTrack),
      destinations: destinations, date: Date())
  }
}
