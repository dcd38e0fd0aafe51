/// A destination named in `defaults`, `destinations` or `exclude` that `destinations:` does not declare.
public enum UnknownDestinationRule: ConfigRule {
  public static let id = "unknown-destination"
  public static let summary = "Every destination used in 'defaults', 'destinations' or 'exclude' must be declared under 'destinations'."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      destinations: {firebase: {}, mixpanel: {}}
      defaults: {destinations: [firebase, 1️⃣mixpanell]}
      screens:
        Home:
          control_events:
            onFav(_:): {event: HOME_FAV, destinations: [2️⃣amplitude]}
            onShare(_:): {event: HOME_SHARE, exclude: [3️⃣Mixpanel]}
      """),
    .triggers("""
      version: 1
      defaults: {destinations: [1️⃣firebase]}
      screens: {}
      """),
    .passes("""
      version: 1
      destinations: {firebase: {}, mixpanel: {}}
      defaults: {destinations: [firebase, mixpanel]}
      screens:
        Home:
          control_events:
            onFav(_:): {event: HOME_FAV, destinations: [firebase]}
            onShare(_:): {event: HOME_SHARE, exclude: [mixpanel]}
      """),
  ]

  public static func check(_ config: TrackingConfig, in context: inout RuleContext) {
    let declared = config.destinations.map { Set($0.map(\.id.value)) } ?? []
    let declaredNames = config.destinations?.map(\.id.value) ?? []
    func checkList(_ entries: [Located<String>], in what: String) {
      for entry in entries where !declared.contains(entry.value) {
        guard config.destinations != nil else {
          context.report(
            Self.self, "destination '\(entry.value)' in \(what) is not declared; the config has no 'destinations' section", at: entry.range)
          continue
        }
        if let suggestion = Suggestions.closest(to: entry.value, in: declaredNames) {
          context.report(
            Self.self, "destination '\(entry.value)' in \(what) is not declared; did you mean '\(suggestion)'?", at: entry.range,
            fixIt: Diagnostic.FixIt("replace with '\(suggestion)'", replacing: context.location(entry.range), with: suggestion))
        } else {
          let list = declaredNames.map { "'\($0)'" }.joined(separator: ", ")
          context.report(
            Self.self, "destination '\(entry.value)' in \(what) is not declared under 'destinations'", at: entry.range,
            notes: [Diagnostic.Note(declaredNames.isEmpty ? "no destinations are declared" : "declared destinations: \(list)")])
        }
      }
    }
    checkList(config.defaults.destinations ?? [], in: "'defaults'")
    config.forEachEvent { screen, trigger, event in
      if let only = event.only { checkList(only.entries, in: "'destinations' of \(trigger.describe(on: screen))") }
      if let exclude = event.exclude { checkList(exclude.entries, in: "'exclude' of \(trigger.describe(on: screen))") }
    }
  }
}
