/// A destination whose name on the wire (its `wire_name`, else its ID) looks like a Segment catalogue
/// name written differently: `mixpanel` for `Mixpanel`. A collector is told where to forward each event
/// by these names (`integrations`), and Segment compares them case-sensitively, so such an event reaches
/// no cloud destination, silently. The fix gives the destination the catalogue's spelling as its
/// `wire_name`, keeping its ID (which the plan's routing refers to).
///
/// From a small table of the destinations mobile apps send to most (`SegmentCatalogue`): a name it does
/// not know is left alone (another collector's, or a destination of the app's own), and so is a
/// `wire_name` that repeats the ID (a collector that knows the destination by it: `trackc collector`,
/// RudderStack's own names).
public enum DestinationWireNameRule: PlanRule {
  public static let id = "destination-wire-name"
  public static let summary =
    "A destination sent to a collector under a name that looks like a Segment catalogue name written differently ('mixpanel' for 'Mixpanel') should say the catalogue's spelling ('wire_name')."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      destinations:
        1️⃣mixpanel: {}
        2️⃣google_analytics_4:
          description: GA4, through Segment
        ga: {wire_name: 3️⃣google analytics 4 cloud}
      screens: {}
      """,
      expecting: [
        .warning("destination 'mixpanel' goes to a collector as 'mixpanel', which Segment does not know; its catalogue name is 'Mixpanel'"),
        .warning(
          "destination 'google_analytics_4' goes to a collector as 'google_analytics_4', which Segment does not know; its catalogue name is 'Google Analytics 4'"
        ),
        .warning(
          "destination 'ga' goes to a collector as 'google analytics 4 cloud', which Segment does not know; its catalogue name is 'Google Analytics 4 Cloud'"
        ),
      ]),
    .passes(
      """
      version: 1
      destinations:
        mixpanel: {wire_name: Mixpanel}
        ga4: {wire_name: Google Analytics 4}
        Firebase: {}
        warehouse: {}
        amplitude: {wire_name: amplitude}
      screens: {}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    var seen = Set<String>()
    for destination in plan.config.destinations ?? [] where seen.insert(destination.id.value).inserted {
      // A `wire_name` that repeats the ID says on purpose that the collector knows it so.
      guard destination.wireName?.value != destination.id.value else { continue }
      let name = destination.nameOnTheWire
      guard let spelling = SegmentCatalogue.spelling(of: name) else { continue }
      context.report(
        Self.self,
        "destination '\(destination.id.value)' goes to a collector as '\(name)', which Segment does not know; its catalogue name is '\(spelling)'",
        at: destination.wireName?.range ?? destination.id.range,
        notes: [
          Diagnostic.Note(
            "Segment forwards an event only to the destinations its 'integrations' names exactly; keep the ID and say 'wire_name: \(spelling)'")
        ],
        fixIt: fixIt(destination, spelling, context: context))
    }
  }

  /// The catalogue's spelling as the destination's `wire_name`: its value replaced, or the key added to
  /// the destination's settings (none for a destination written without a mapping).
  private static func fixIt(_ destination: TrackingConfig.Destination, _ spelling: String, context: RuleContext) -> Diagnostic.FixIt? {
    let value = yamlScalar(spelling)
    let message = "say 'wire_name: \(spelling)'"
    if let written = destination.wireName {
      return Diagnostic.FixIt(message, replacing: context.location(written.range), with: value)
    }
    switch destination.settings {
    case .none:
      return nil
    case .flow(let at, let isEmpty):
      return Diagnostic.FixIt(message, replacing: context.location(SourceRange(at: at)), with: "wire_name: \(value)" + (isEmpty ? "" : ", "))
    case .block(let firstKey):
      let indent = String(repeating: " ", count: max(0, firstKey.column - 1))
      return Diagnostic.FixIt(message, replacing: context.location(SourceRange(at: firstKey)), with: "wire_name: \(value)\n" + indent)
    }
  }

  /// The name as a YAML scalar: plain when it is ASCII letters and digits, inner spaces and `.()-_`
  /// (every name of the table), else double-quoted (a JSON string is a YAML double-quoted scalar).
  static func yamlScalar(_ name: String) -> String {
    let plain = name.unicodeScalars.allSatisfy {
      ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || " .()-_".unicodeScalars.contains($0)
    }
    guard !plain || name.first == " " || name.last == " " || name.isEmpty else { return name }
    return TextEscaping.jsonString(name)
  }
}
