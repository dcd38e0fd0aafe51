/// One event ID mapped from two places, so analytics cannot tell them apart.
public enum DuplicateEventIDRule: ConfigRule {
  public static let id = "duplicate-event-id"
  public static let summary = "An event ID should be mapped from one place only; a second mapping is a warning naming both."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers("""
      version: 1
      screens:
        Home:
          page_events: {enter: HOME_ENTER}
          control_events:
            onFav(_:): FAV
        Detail:
          control_events:
            onFav(_:): 1️⃣FAV
            onStar(_:): {event: 2️⃣FAV}
      """),
    .passes("""
      version: 1
      screens:
        Home: {control_events: {onFav(_:): HOME_FAV}}
        Detail: {control_events: {onFav(_:): DETAIL_FAV}}
      """),
  ]

  /// Where an event is mapped: a plain value, so that a table of a hundred thousand costs no copies.
  private struct EventReference {
    var screen: Int32
    /// The index of the page event, or `controlOffset` + the index of the control event.
    var event: Int32

    static let controlOffset: Int32 = 2
  }

  public static func check(_ config: TrackingConfig, in context: inout RuleContext) {
    var first: [String: EventReference] = [:]
    first.reserveCapacity(config.eventCount)
    let screens = config.screens
    for screenIndex in screens.indices {
      for pageIndex in screens[screenIndex].pageEvents.indices {
        let id = screens[screenIndex].pageEvents[pageIndex].event.id
        let reference = EventReference(screen: Int32(screenIndex), event: Int32(pageIndex))
        if let original = first.updateValue(reference, forKey: id.value) {
          first[id.value] = original
          report(id, at: reference, original: original, in: config, context: &context)
        }
      }
      for controlIndex in screens[screenIndex].controlEvents.indices {
        let id = screens[screenIndex].controlEvents[controlIndex].event.id
        let reference = EventReference(screen: Int32(screenIndex), event: EventReference.controlOffset + Int32(controlIndex))
        if let original = first.updateValue(reference, forKey: id.value) {
          first[id.value] = original
          report(id, at: reference, original: original, in: config, context: &context)
        }
      }
    }
  }

  private static func report(
    _ id: Located<String>, at reference: EventReference, original: EventReference, in config: TrackingConfig, context: inout RuleContext
  ) {
    func describe(_ reference: EventReference) -> (String, SourceRange) {
      let screen = config.screens[Int(reference.screen)]
      if reference.event < EventReference.controlOffset {
        let page = screen.pageEvents[Int(reference.event)]
        return (TrackingConfig.Trigger.page(page.phase.value).describe(on: screen), page.event.id.range)
      }
      let control = screen.controlEvents[Int(reference.event - EventReference.controlOffset)]
      return (TrackingConfig.Trigger.control(handlerKey: control.key.value).describe(on: screen), control.event.id.range)
    }
    let (here, _) = describe(reference)
    let (there, firstRange) = describe(original)
    context.report(
      Self.self, "event ID '\(id.value)' of \(here) is also mapped from \(there)", at: id.range,
      notes: [Diagnostic.Note("'\(id.value)' is first mapped here", at: context.location(firstRange))])
  }
}
