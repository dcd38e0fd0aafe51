@_spi(Generated) import TrackcRuntime

/// Screens of the runtime tests.
final class HomeScreen {}
class DetailScreen {}
final class GiftDetailScreen: DetailScreen {}
struct CartView {}

/// A registry written by hand the way `trackc generate` writes one: three screens (a subclass the
/// config does not list resolves to its superclass), three handlers, routing of each kind.
struct TestRegistry: TrackingRegistry {
  enum Screens {
    static let home = ScreenID(rawValue: 0)
    static let detail = ScreenID(rawValue: 1)
    static let cart = ScreenID(rawValue: 2)
  }

  enum Handlers {
    static let onFav = HandlerID(rawValue: 0)
    static let onShare = HandlerID(rawValue: 1)
    static let onBuy = HandlerID(rawValue: 2)
  }

  enum EventID: String, TrackingEventID {
    case pageHomeEnter = "PAGE_HOME_ENTER"
    case ctrlHomeFav = "CTRL_HOME_FAV"
    case manualOnly = "MANUAL_ONLY"
  }

  static let homeEnter = EventRule(eventID: "PAGE_HOME_ENTER", routing: .only(["firebase", "mixpanel"]))
  static let homeLeave = EventRule(eventID: "PAGE_HOME_LEAVE", routing: .only(["firebase"]))
  static let homeFav = EventRule(eventID: "CTRL_HOME_FAV", routing: .only(["firebase", "mixpanel"]), properties: ["source": .string("home")])
  static let homeShare = EventRule(eventID: "CTRL_HOME_SHARE", routing: .only(["mixpanel"]))
  static let detailBuy = EventRule(
    eventID: "CTRL_DETAIL_BUY", routing: .unrestricted, properties: ["quantity": .int(1), "express": .bool(false), "price": .double(9.5)])
  static let cartEnter = EventRule(eventID: "PAGE_CART_ENTER", routing: .only(["firebase"]))
  static let manual = EventRule(eventID: "MANUAL_ONLY", routing: .only(["mixpanel"]))

  func screen(named name: String) -> ScreenID? {
    switch name {
    case "HomeScreen": return Screens.home
    case "DetailScreen", "GiftDetailScreen": return Screens.detail
    case "CartView": return Screens.cart
    default: return nil
    }
  }

  func handler(named name: String) -> HandlerID? {
    switch name {
    case "onFav(_:)", "onFav:": return Handlers.onFav
    case "onShare(_:)", "onShare:": return Handlers.onShare
    case "onBuy(_:)", "onBuy:": return Handlers.onBuy
    default: return nil
    }
  }

  func pageRule(screen: ScreenID, phase: PagePhase) -> EventRule? {
    switch (screen.rawValue, phase) {
    case (0, .enter): return Self.homeEnter
    case (0, .leave): return Self.homeLeave
    case (2, .enter): return Self.cartEnter
    default: return nil
    }
  }

  func controlRule(screen: ScreenID, handler: HandlerID) -> EventRule? {
    switch (screen.rawValue, handler.rawValue) {
    case (0, 0): return Self.homeFav
    case (0, 1): return Self.homeShare
    case (1, 2): return Self.detailBuy
    default: return nil
    }
  }

  func rule(eventID: String) -> EventRule? {
    switch eventID {
    case "PAGE_HOME_ENTER": return Self.homeEnter
    case "CTRL_HOME_FAV": return Self.homeFav
    case "MANUAL_ONLY": return Self.manual
    case "CTRL_DETAIL_BUY": return Self.detailBuy
    default: return nil
    }
  }

  func name(of screen: ScreenID) -> String {
    ["HomeScreen", "DetailScreen", "CartView"][Int(screen.rawValue)]
  }

  func name(of handler: HandlerID) -> String {
    ["onFav(_:)", "onShare(_:)", "onBuy(_:)"][Int(handler.rawValue)]
  }

  /// The names a collector knows the destinations by (`wire_name`), none unless a test says so.
  var wireNames: [String: String] = [:]

  func wireName(ofDestination id: String) -> String? { wireNames[id] }

  /// The application events the plan declares (none unless a test says so), named as Segment names them.
  var applicationEvents: Set<ApplicationEvent> = []

  func applicationRule(_ event: ApplicationEvent) -> EventRule? {
    guard applicationEvents.contains(event) else { return nil }
    let names: [ApplicationEvent: String] = [
      .installed: "Application Installed", .updated: "Application Updated", .opened: "Application Opened",
      .backgrounded: "Application Backgrounded",
    ]
    return EventRule(eventID: names[event]!, routing: .unrestricted)
  }
}

/// A registry with `TestRegistry`'s screens, handlers and rules and settings of its own (consent, plan
/// stamps): the rules are `base`'s.
protocol TestRegistryRules: TrackingRegistry {
  var base: TestRegistry { get }
}

extension TestRegistryRules {
  func screen(named name: String) -> ScreenID? { base.screen(named: name) }
  func handler(named name: String) -> HandlerID? { base.handler(named: name) }
  func pageRule(screen: ScreenID, phase: PagePhase) -> EventRule? { base.pageRule(screen: screen, phase: phase) }
  func controlRule(screen: ScreenID, handler: HandlerID) -> EventRule? { base.controlRule(screen: screen, handler: handler) }
  func rule(eventID: String) -> EventRule? { base.rule(eventID: eventID) }
  func name(of screen: ScreenID) -> String { base.name(of: screen) }
  func name(of handler: HandlerID) -> String { base.name(of: handler) }
}
