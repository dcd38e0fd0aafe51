import Testing
import TrackcCollector
import TrackcCore

/// The plan a config gives, and each violation rule with an event that triggers it and one that does not.
@Suite struct CollectorPlanTests {
  static let yaml = """
    version: 1
    destinations:
      firebase: {}
      mixpanel: {}
      warehouse: {}
    defaults:
      destinations: [firebase, mixpanel]
    screens:
      Home:
        page_events:
          enter: PAGE_HOME
        control_events:
          onBanner(_:):
            event: CTRL_BANNER
            destinations: [warehouse]
            properties: { slot: hero, position: 2, promoted: true }
          onShare(_:):
            event: CTRL_SHARE
            exclude: [mixpanel]
      Cart:
        control_events:
          onBanner(_:):
            event: CTRL_BANNER
            properties: { slot: 3, campaign: spring }
    """

  @Test func routingAndPropertiesComeFromTheConfig() throws {
    let plan = try Batches.plan(Self.yaml)
    #expect(plan.destinations == ["firebase", "mixpanel", "warehouse"])
    #expect(plan.events["PAGE_HOME"]?.routing == .only(["firebase", "mixpanel"]))
    #expect(plan.events["CTRL_SHARE"]?.routing == .only(["firebase"]))
    // Mapped twice: the union of both mappings' routing and property types; only what both declare is required.
    let banner = try #require(plan.events["CTRL_BANNER"])
    #expect(banner.routing == .only(["warehouse", "firebase", "mixpanel"]))
    #expect(banner.properties == ["slot": [.string, .number], "position": [.number], "promoted": [.boolean], "campaign": [.string]])
    #expect(banner.requiredProperties == ["slot"])
  }

  @Test func aConfigWithoutDestinationsDoesNotRestrictRouting() throws {
    let plan = try Batches.plan("version: 1\nscreens:\n  Home:\n    page_events:\n      enter: PAGE_HOME\n")
    #expect(plan.destinations == nil)
    #expect(plan.events["PAGE_HOME"]?.routing == .unrestricted)
    let event = ReceivedEvent(event: "PAGE_HOME", messageID: "m", destinations: ["anything"], timestamp: "t")
    #expect(plan.violations(of: event).isEmpty)
    #expect(plan.violations(of: ReceivedEvent(event: "PAGE_HOME", messageID: "m", timestamp: "t")).isEmpty)
  }

  @Test func aConfigWithErrorsIsNotAPlan() {
    #expect(throws: CollectorPlan.InvalidConfig.self) {
      try Batches.plan("version: 1\nscreens:\n  Home:\n    page_events:\n      enter: not-an-id\n")
    }
    do {
      _ = try Batches.plan(
        "version: 1\ndestinations:\n  firebase: {}\nscreens:\n  Home:\n    control_events:\n      onX(_:):\n        event: CTRL_X\n        destinations: [nowhere]\n"
      )
      Issue.record("no error")
    } catch let error as CollectorPlan.InvalidConfig {
      #expect(error.diagnostics.contains { $0.ruleID == "unknown-destination" })
    } catch {
      Issue.record("\(error)")
    }
  }

  @Test func theShopExampleIsAPlan() {
    #expect(Batches.shopPlan.destinations == ["firebase", "mixpanel"])
    #expect(Batches.shopPlan.events["CTRL_HOME_BANNER"]?.routing == .only(["firebase"]))
  }

  /// The application events the plan declares are events of the plan, with the properties the runtime
  /// sends (of their types, none required: an app without a version sends none) besides the static ones.
  @Test func applicationEventsAreCheckedWithWhatTheRuntimeSends() throws {
    let plan = try Batches.plan(
      "version: 1\ndestinations: {firebase: {}}\nscreens: {}\napplication:\n  opened: {event: APP_OPENED, properties: {platform: ios}}\n")
    let opened = try #require(plan.events["APP_OPENED"])
    #expect(opened.routing == .only(["firebase"]) && opened.requiredProperties == ["platform"])
    #expect(opened.properties == ["from_background": [.boolean], "version": [.string], "build": [.string], "platform": [.string]])
    let sent: [String: ReceivedValue] = [
      "from_background": .bool(false), "version": .string("1.2"), "build": .string("7"), "platform": .string("ios"),
    ]
    let event = ReceivedEvent(event: "APP_OPENED", messageID: "m", destinations: ["firebase"], timestamp: "t", properties: sent)
    #expect(plan.violations(of: event).isEmpty)
    var wrong = event
    wrong.properties["from_background"] = .string("no")
    #expect(plan.violations(of: wrong).map(\.rule) == [.propertyType])
  }

  static func rules(_ event: ReceivedEvent) throws -> [Violation.Rule] {
    try Batches.plan(yaml).violations(of: event).map(\.rule)
  }

  static func banner(destinations: [String]? = ["warehouse"], properties: [String: ReceivedValue], library: String = "trackc") -> ReceivedEvent {
    ReceivedEvent(event: "CTRL_BANNER", messageID: "m", destinations: destinations, timestamp: "t", properties: properties, library: library)
  }

  static let goodBanner: [String: ReceivedValue] = ["slot": .string("hero"), "position": .number(2, text: "2"), "promoted": .bool(true)]

  @Test func aConformingEventHasNoViolation() throws {
    #expect(try Self.rules(Self.banner(properties: Self.goodBanner)).isEmpty)
    // Extra properties (a manual track adds them) are fine; so is the other mapping's type.
    var more = Self.goodBanner
    more["extra"] = .string("x")
    more["slot"] = .number(3, text: "3")
    #expect(try Self.rules(Self.banner(destinations: ["firebase", "mixpanel"], properties: more)).isEmpty)
  }

  @Test func unknownEvent() throws {
    #expect(try Self.rules(ReceivedEvent(event: "NOPE", messageID: "m", destinations: ["firebase"], timestamp: "t")) == [.unknownEvent])
  }

  @Test func unknownMissingAndUnroutedDestinations() throws {
    #expect(try Self.rules(Self.banner(destinations: ["amplitude"], properties: Self.goodBanner)) == [.unknownDestination])
    #expect(try Self.rules(Self.banner(destinations: nil, properties: Self.goodBanner)) == [.missingDestination])
    #expect(try Self.rules(Self.banner(destinations: nil, properties: Self.goodBanner, library: "analytics-python")).isEmpty, "another client")
    #expect(try Self.rules(Self.banner(destinations: [], properties: Self.goodBanner)).isEmpty, "routed nowhere through the collector")
    let share = ReceivedEvent(event: "CTRL_SHARE", messageID: "m", destinations: ["mixpanel"], timestamp: "t")
    #expect(try Self.rules(share) == [.notRouted])
    var routed = share
    routed.destinations = ["firebase"]
    #expect(try Self.rules(routed).isEmpty)
    let both = ReceivedEvent(event: "CTRL_SHARE", messageID: "m", destinations: ["firebase", "mixpanel", "amplitude"], timestamp: "t")
    let violations = try Batches.plan(Self.yaml).violations(of: both)
    #expect(violations.map(\.rule) == [.notRouted, .unknownDestination])
    #expect(violations.map(\.destination) == ["mixpanel", "amplitude"], "each destination named is checked")
  }

  /// `integrations` may name a destination by its plan ID or its wire name (`wire_name`, what the runtime
  /// sends): both are the same destination, checked the same way, and the collector says where it would
  /// forward the call by the wire names, in the call's order, each once; a name the plan does not know is
  /// reported and forwarded nowhere.
  @Test func destinationsAreNamedByIDOrWireNameAndForwardedByWireName() throws {
    let plan = try Batches.plan(
      """
      version: 1
      destinations:
        firebase: {wire_name: Firebase}
        ga4: {wire_name: Google Analytics 4}
        warehouse: {}
      screens:
        Home:
          control_events:
            onShare(_:): {event: CTRL_SHARE, destinations: [firebase, ga4]}
      """)
    #expect(plan.wireNames == ["firebase": "Firebase", "ga4": "Google Analytics 4"])
    #expect(plan.destination(named: "Google Analytics 4") == "ga4" && plan.destination(named: "ga4") == "ga4")
    #expect(plan.destination(named: "firebase") == "firebase" && plan.destination(named: "Firebase") == "firebase")
    #expect(plan.destination(named: "google analytics 4") == nil, "case-sensitive, as Segment")
    func received(_ names: [String]) -> ReceivedEvent {
      var event = ReceivedEvent(event: "CTRL_SHARE", messageID: "m", destinations: names, timestamp: "t", library: "trackc")
      plan.resolve(&event)
      event.violations = plan.violations(of: event)
      return event
    }
    let byWireName = received(["Firebase", "Google Analytics 4"])
    #expect(byWireName.violations.isEmpty, "\(byWireName.violations)")
    #expect(byWireName.forwardedTo == ["Firebase", "Google Analytics 4"])
    let byID = received(["ga4", "firebase", "Firebase"])
    #expect(byID.violations.isEmpty, "\(byID.violations)")
    #expect(byID.forwardedTo == ["Google Analytics 4", "Firebase"])
    let wrong = received(["warehouse", "mixpanel"])
    #expect(wrong.violations.map(\.rule) == [.notRouted, .unknownDestination])
    #expect(wrong.forwardedTo == ["warehouse"])
    let line = try #require(CollectorRecord.accepted(byID).jsonLines.first)
    #expect(line.hasSuffix(#","forwardedTo":["Google Analytics 4","Firebase"]}"#), "\(line)")
  }

  /// A screen call is checked by its event ID, else as the enter event of the plan's screen of its name.
  @Test func screenCallsAreCheckedAsTheirScreensEnterEvent() throws {
    let plan = try Batches.plan("version: 1\nscreens:\n  Home:\n    page_events:\n      enter: PAGE_HOME\n")
    #expect(plan.screens == ["Home": "PAGE_HOME"])
    var named = ReceivedEvent(type: .screen, event: "", name: "Home", messageID: "m", timestamp: "t")
    plan.resolve(&named)
    #expect(named.event == "PAGE_HOME")
    #expect(plan.violations(of: named).isEmpty)
    var unknown = ReceivedEvent(type: .screen, event: "", name: "Elsewhere", messageID: "m", timestamp: "t")
    plan.resolve(&unknown)
    #expect(plan.violations(of: unknown).map(\.rule) == [.unknownScreen])
    let wrongID = ReceivedEvent(type: .screen, event: "PAGE_NOPE", name: "Home", messageID: "m", timestamp: "t")
    #expect(plan.violations(of: wrongID).map(\.rule) == [.unknownEvent])
  }

  /// A track call goes by its event's wire name: trackc's carries the ID in `context.trackc.event`,
  /// another client's is known by the name alone; a call named otherwise than the plan says is flagged.
  @Test func trackCallsAreCheckedByTheirWireNames() throws {
    let plan = try Batches.plan(
      "version: 1\nscreens:\n  Cart:\n    page_events:\n      enter: {event: PAGE_CART, wire_name: Basket}\n    control_events:\n"
        + "      checkout(_:): {event: CTRL_CHECKOUT, wire_name: Checkout Tapped}\n      share(_:): CTRL_SHARE\n")
    #expect(plan.tracks == ["Checkout Tapped": "CTRL_CHECKOUT"] && plan.trackNames == ["CTRL_CHECKOUT": "Checkout Tapped"])
    #expect(plan.screens == ["Basket": "PAGE_CART"])
    func checked(_ event: String, name: String?, type: CallType = .track) -> (String, [Violation.Rule]) {
      var received = ReceivedEvent(type: type, event: event, name: name, messageID: "m", timestamp: "t")
      plan.resolve(&received)
      return (received.event, plan.violations(of: received).map(\.rule))
    }
    #expect(checked("CTRL_CHECKOUT", name: "Checkout Tapped") == ("CTRL_CHECKOUT", []), "from trackc: the ID and the name")
    #expect(checked("Checkout Tapped", name: "Checkout Tapped") == ("CTRL_CHECKOUT", []), "from another client: the name alone")
    #expect(checked("CTRL_CHECKOUT", name: "CTRL_CHECKOUT") == ("CTRL_CHECKOUT", [.wireName]), "named by its ID, not its wire name")
    #expect(checked("CTRL_CHECKOUT", name: "Checkout") == ("CTRL_CHECKOUT", [.wireName]))
    #expect(checked("CTRL_SHARE", name: "CTRL_SHARE") == ("CTRL_SHARE", []))
    #expect(checked("Share Tapped", name: "Share Tapped") == ("Share Tapped", [.unknownEvent]))
    #expect(checked("", name: "Basket", type: .screen) == ("PAGE_CART", []))
    let message = plan.violations(of: ReceivedEvent(type: .track, event: "CTRL_CHECKOUT", name: "Checkout", messageID: "m", timestamp: "t"))
    #expect(message.map(\.message) == ["CTRL_CHECKOUT goes on the wire as 'Checkout', but the plan names it 'Checkout Tapped'"])
  }

  @Test func missingWrongTypeAndInvalidProperties() throws {
    #expect(try Self.rules(Self.banner(properties: [:])) == [.missingProperty])
    var wrong = Self.goodBanner
    wrong["position"] = .string("2")
    wrong["promoted"] = .number(1, text: "1")
    #expect(try Self.rules(Self.banner(properties: wrong)) == [.propertyType, .propertyType])
    var nested = Self.goodBanner
    nested["extra"] = .other("an object")
    #expect(try Self.rules(Self.banner(properties: nested)) == [.propertyValue])
  }

  @Test func messagesNameTheEventAndWhatIsExpected() throws {
    let share = ReceivedEvent(event: "CTRL_SHARE", messageID: "m", destinations: ["mixpanel"], timestamp: "t")
    let violation = try #require(try Batches.plan(Self.yaml).violations(of: share).first)
    #expect(violation.description == "CTRL_SHARE is not routed to 'mixpanel' (the plan sends it to 'firebase') [not-routed]")
    let hostile = ReceivedEvent(event: "X\u{1B}[2J\nY", messageID: "m", destinations: ["firebase"], timestamp: "t")
    let escaped = try #require(try Batches.plan(Self.yaml).violations(of: hostile).first)
    #expect(!escaped.message.contains("\u{1B}") && !escaped.message.contains("\n"))
  }
}
