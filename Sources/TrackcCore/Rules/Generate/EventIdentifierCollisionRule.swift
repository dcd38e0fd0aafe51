/// Two event IDs that generated code would name the same Swift identifier (`PAGE_HOME` and
/// `page.home`): one constant would silently stand for both, so it is an error, not an overwrite.
/// Checked by `trackc generate` on the names the generation model derives, once, for the emitters too
/// (deriving a name for each of a hundred thousand IDs is not worth it on every lint).
public enum EventIdentifierCollisionRule: GenerationRule {
  public static let id = "event-identifier-collision"
  public static let summary = "Different event IDs must not become the same Swift identifier in generated code ('PAGE_HOME' and 'page.home')."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      conventions: {event_id_pattern: '.'}
      screens:
        Home:
          page_events: {enter: PAGE_HOME, leave: 1️⃣page.home}
      """, expecting: [.error("event ID 'page.home' becomes the Swift name 'pageHome' in generated code, as 'PAGE_HOME' does; rename one of them")]),
    .passes(
      """
      version: 1
      screens:
        Home:
          page_events: {enter: PAGE_HOME_ENTER, leave: PAGE_HOME_LEAVE}
          control_events: {onFav(_:): CTRL_HOME_FAV}
      """),
  ]

  public static func check(_ model: GenerationModel, in context: inout RuleContext) {
    let plan = model.plan
    var first: [String: (id: String, range: SourceRange)] = [:]
    for event in plan.events {
      let id = plan.written(event).id
      let name = (model.eventIdentifiers[id.value] ?? SwiftSource.identifier(fromEventID: id.value)).text
      guard let earlier = first[name] else {
        first[name] = (id.value, id.range)
        continue
      }
      guard earlier.id != id.value else { continue }
      context.report(
        Self.self, "event ID '\(id.value)' becomes the Swift name '\(name)' in generated code, as '\(earlier.id)' does; rename one of them",
        at: id.range, notes: [Diagnostic.Note("'\(earlier.id)' is mapped here", at: context.location(earlier.range))])
    }
  }
}
