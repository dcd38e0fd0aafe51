/// A `<<` merge key whose value is not a mapping or a list of mappings.
///
/// Merge keys are supported as YAML 1.1 defines them: keys written in the mapping win over merged ones,
/// and with a list of mappings the earlier ones win.
public enum MergeKeyRule: YAMLRule {
  public static let id = "yaml-merge-key"
  public static let summary = "The value of a '<<' merge key must be a mapping or a list of mappings."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        Home:
          <<: 1️⃣just a string
      """, expecting: [.error("the value of a merge key '<<' must be a mapping or a list of mappings, found a string")]),
    .triggers(
      """
      version: 1
      screens:
        Home:
          <<: [{page_events: {enter: A}}, 1️⃣[not, a, mapping]]
      """, expecting: [.error("a merge key '<<' can only merge mappings, found a sequence")]),
    .passes(
      """
      version: 1
      destinations: {firebase: {wire_name: Firebase}, mixpanel: {wire_name: Mixpanel}}
      screens:
        Home:
          control_events:
            onShare(_:): &web {event: HOME_SHARE, destinations: [firebase], properties: {source: home}}
            onFav(_:):
              <<: *web
              event: HOME_FAV
      """),
  ]

  // Found by the YAML reader as it resolves merges (`YAMLProblem.mergeValueNotMapping`,
  // `.mergeSourceNotMapping`).
  static func reportValue(found: YAMLValue, at range: SourceRange, in context: inout RuleContext) {
    context.report(
      Self.self, "the value of a merge key '<<' must be a mapping or a list of mappings, found \(found.kindDescription)", at: range)
  }

  static func reportSource(found: YAMLValue, at range: SourceRange, in context: inout RuleContext) {
    context.report(Self.self, "a merge key '<<' can only merge mappings, found \(found.kindDescription)", at: range)
  }
}
