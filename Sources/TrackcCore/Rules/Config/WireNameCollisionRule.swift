/// Two events that go by one name on the wire, or one event that goes by two. Destinations, dashboards
/// and warehouses know an event by the name its call carries (`wire_name`, else the event ID for a
/// track call and the screen's name for a screen call), not by the plan's ID: two IDs under one name
/// are one event to every destination, and an ID mapped under two names is two.
///
/// Also a `wire_name` that is a call trackc's runtime sends on its own (Segment's consent preference
/// event), which the collector and Segment would take for the runtime's.
public enum WireNameCollisionRule: PlanRule {
  public static let id = "wire-name-collision"
  public static let summary =
    "Each event goes by one name on the wire (its 'wire_name', else its ID), which no other event of the plan goes by."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        Cart:
          control_events:
            checkout(_:): {event: CART_CHECKOUT, wire_name: Checkout Tapped}
            buyNow(_:): {event: BUY_NOW, wire_name: 1️⃣Checkout Tapped}
            share(_:): {event: 2️⃣CART_CHECKOUT}
            consent(_:): {event: CONSENT, wire_name: 3️⃣Segment Consent Preference Updated}
        Home:
          page_events:
            enter: {event: HOME_ENTER, wire_name: Start}
        Landing:
          page_events:
            enter: {event: LANDING_ENTER, wire_name: 4️⃣Start}
      """,
      expecting: [
        .error(
          "event 'BUY_NOW' of handler 'buyNow(_:)' of 'Cart' goes on the wire as track 'Checkout Tapped', as event 'CART_CHECKOUT' does: every destination would take them for one event"
        ),
        .error(
          "event 'CART_CHECKOUT' of handler 'share(_:)' of 'Cart' goes on the wire as track 'CART_CHECKOUT', but as track 'Checkout Tapped' from handler 'checkout(_:)' of 'Cart': every destination would take it for two events"
        ),
        .error(
          "event 'CONSENT' of handler 'consent(_:)' of 'Cart' goes on the wire as 'Segment Consent Preference Updated', the call trackc's runtime sends when the person's consent changes"
        ),
        .error(
          "event 'LANDING_ENTER' of the enter page event of 'Landing' goes on the wire as screen 'Start', as event 'HOME_ENTER' does: every destination would take them for one event"
        ),
      ]),
    .passes(
      """
      version: 1
      screens:
        Cart:
          page_events:
            enter: {event: CART_ENTER, wire_name: Cart}
            leave: {event: CART_LEAVE, wire_name: Cart}
          control_events:
            checkout(_:): {event: CART_CHECKOUT, wire_name: Checkout Tapped}
            buyNow(_:): {event: BUY_NOW, wire_name: Buy Now Tapped}
        Home:
          page_events:
            enter: {event: HOME_ENTER, call: track, wire_name: Home Viewed}
      """),
  ]

  /// Names trackc's runtime sends calls by on its own.
  static let runtimeNames: Set<String> = ["Segment Consent Preference Updated"]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    // Without a `wire_name` or `call`, each track call is named by its ID (one ID mapped twice is
    // `duplicate-event-id`'s) and each screen call by its screen (`duplicate-screen`'s): nothing to do,
    // which spares a table of every event of a large plan.
    var saysMore = false
    plan.forEachLongFormEvent { _, details in saysMore = saysMore || details.wireName != nil || details.call != nil }
    guard saysMore else { return }
    struct First {
      var event: ResolvedPlan.Event.ID
      var name: String
    }
    var byName: [String: First] = [:]
    var byID: [String: First] = [:]
    plan.forEachEvent { eventID, written in
      let event = plan[eventID]
      let call = TrackingConfig.Call.of(written, isEnter: event.trigger == .page(.enter))
      let name: String
      switch call {
      case .track: name = "track '\(written.wireName?.value ?? written.id.value)'"
      case .screen: name = "screen '\(written.wireName?.value ?? plan.written(event.screen!).name.value)'"
      }
      let at = written.wireName?.range ?? written.id.range
      if let wireName = written.wireName, runtimeNames.contains(wireName.value) {
        context.report(
          Self.self,
          "event '\(written.id.value)' of \(plan.describe(event)) goes on the wire as '\(wireName.value)', the call trackc's runtime sends when the person's consent changes",
          at: at)
        return
      }
      if let first = byID[written.id.value] {
        guard first.name != name else { return }
        context.report(
          Self.self,
          "event '\(written.id.value)' of \(plan.describe(event)) goes on the wire as \(name), but as \(first.name) from \(plan.describe(plan[first.event])): every destination would take it for two events",
          at: at, notes: [Diagnostic.Note("first mapped here", at: context.location(plan.written(plan[first.event]).id.range))])
        return
      }
      byID[written.id.value] = First(event: eventID, name: name)
      if let first = byName[name] {
        let other = plan.written(plan[first.event]).id.value
        guard other != written.id.value else { return }
        context.report(
          Self.self,
          "event '\(written.id.value)' of \(plan.describe(event)) goes on the wire as \(name), as event '\(other)' does: every destination would take them for one event",
          at: at, notes: [Diagnostic.Note("'\(other)' is mapped here", at: context.location(plan.written(plan[first.event]).id.range))])
        return
      }
      byName[name] = First(event: eventID, name: name)
    }
  }
}
