/// A required key is missing: `version` or `screens` at the top, `event` in a long-form event.
public enum MissingKeyRule: StructureRule {
  public static let id = "missing-key"
  public static let summary =
    "Required keys ('version', 'screens', 'event' in the long form, 'from' in a binding, an entry point's 'screen') must be present."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      "1️⃣2️⃣conventions: {}\n",
      expecting: [
        .error("the config has no 'screens'; map each screen type name to its events under 'screens:'"),
        .error("the config has no 'version'; add 'version: 1' at the top"),
        .error("the config has no 'screens'; map each screen type name to its events under 'screens:'"),
        .error("the config has no 'version'; add 'version: 1' at the top"),
      ]),
    .triggers(
      """
      version: 1
      screens:
        Home:
          control_events:
            1️⃣onShare(_:): {destinations: []}
            onOpen(id:):
              event: OPEN
              properties: {2️⃣product_id: {type: string}}
      """,
      expecting: [
        .error("handler 'onShare(_:)' of 'Home' has no 'event'; the long form needs 'event: EVENT_ID'"),
        .error(
          "property 'product_id' of handler 'onOpen(id:)' of 'Home' is a binding and has no 'from'; write 'from: id' for a handler parameter or 'from: self.cart.total' for the screen's state"
        ),
      ]),
    .triggers(
      """
      version: 1
      screens: {Cart: {}}
      entry_points:
        1️⃣cart: {links: ["/cart"]}
      """, expecting: [.error("entry point 'cart' has no 'screen'")]),
    .passes("version: 1\nscreens:\n  Home: {control_events: {onShare(_:): {event: HOME_SHARE}}}\n"),
  ]

  // Found by the config decoder (`ConfigProblem.missingKey`).
  static func report(_ missing: ConfigProblem.MissingKey, in context: inout RuleContext) {
    let supported = TrackingConfig.supportedVersion
    switch missing {
    case .version(let start):
      let range = SourceRange(at: start)
      context.report(
        Self.self, "the config has no 'version'; add 'version: \(supported)' at the top", at: range,
        fixIt: Diagnostic.FixIt("insert 'version: \(supported)'", replacing: context.location(range), with: "version: \(supported)\n"))
    case .screens(let start):
      context.report(
        Self.self, "the config has no 'screens'; map each screen type name to its events under 'screens:'", at: SourceRange(at: start))
    case .event(let what, let range):
      context.report(Self.self, "\(what) has no 'event'; the long form needs 'event: EVENT_ID'", at: range)
    case .bindingSource(let property, let what, let range):
      context.report(
        Self.self,
        "property '\(property)' of \(what) is a binding and has no 'from'; write 'from: id' for a handler parameter or 'from: self.cart.total' for the screen's state",
        at: range)
    case .trackingMarker(let range):
      context.report(Self.self, "'require_tracking' needs a 'suffix' (such as '_UA'), a 'tag' (such as '@tracked'), or both", at: range)
    case .key(let key, let what, let range):
      context.report(Self.self, "\(what) has no '\(key)'", at: range)
    }
  }
}
