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

  /// Where an event is mapped: plain values, so that a table of a hundred thousand costs no copies.
  private struct EventReference {
    var screen: Int32
    /// The index of the page event, or `controlOffset` + the index of the control event.
    var event: Int32

    static let controlOffset: Int32 = 2
    static let none = EventReference(screen: -1, event: 0)
  }

  /// IDs are hashed in parallel, then entered in file order into an open-addressing table of hashes,
  /// comparing the strings only when two hashes are equal: the first mapping of an ID wins, exactly as a
  /// dictionary in file order would decide, at a fraction of its cost.
  public static func check(_ config: TrackingConfig, in context: inout RuleContext) {
    let screens = config.screens
    let chunks = Parallel.ranges(count: screens.count, minimumSize: 256)
    let hashes = Parallel.map(chunks.count) { chunk in
      var result: [Int] = []
      for screen in chunks[chunk] {
        screens[screen].forEachEvent { _, event in result.append(event.id.value.hashValue) }
      }
      return result
    }
    let total = hashes.reduce(0) { $0 + $1.count }
    var capacity = 16
    while capacity < 2 * total { capacity *= 2 }
    var tableHashes = [Int](repeating: 0, count: capacity)
    var tableEntries = [EventReference](repeating: .none, count: capacity)
    var hashIterator = hashes.joined().makeIterator()
    for screenIndex in screens.indices {
      screens[screenIndex].forEachEvent { trigger, event in
        guard let hash = hashIterator.next() else { return }
        let reference: EventReference
        switch trigger {
        case .page(let phase): reference = EventReference(screen: Int32(screenIndex), event: phase == .enter ? 0 : 1)
        case .control(let index): reference = EventReference(screen: Int32(screenIndex), event: EventReference.controlOffset + Int32(index))
        }
        var slot = hash & (capacity - 1)
        while tableEntries[slot].screen >= 0 {
          if tableHashes[slot] == hash, let original = lookUp(tableEntries[slot], in: screens), original.id.value == event.id.value {
            report(event.id, at: reference, original: tableEntries[slot], in: screens, context: &context)
            return
          }
          slot = (slot + 1) & (capacity - 1)
        }
        tableHashes[slot] = hash
        tableEntries[slot] = reference
      }
    }
  }

  private static func lookUp(_ reference: EventReference, in screens: [TrackingConfig.Screen]) -> TrackingConfig.EventRule? {
    let screen = screens[Int(reference.screen)]
    if reference.event < EventReference.controlOffset {
      let phase: TrackingConfig.PagePhase = reference.event == 0 ? .enter : .leave
      return screen.pageEvents.first { $0.phase.value == phase }?.event
    }
    return screen.controlEvents[Int(reference.event - EventReference.controlOffset)].event
  }

  private static func report(
    _ id: Located<String>, at reference: EventReference, original: EventReference, in screens: [TrackingConfig.Screen],
    context: inout RuleContext
  ) {
    func describe(_ reference: EventReference) -> String {
      let screen = screens[Int(reference.screen)]
      if reference.event < EventReference.controlOffset {
        return screen.describe(.page(reference.event == 0 ? .enter : .leave))
      }
      return screen.describe(.control(index: Int(reference.event - EventReference.controlOffset)))
    }
    let firstRange = lookUp(original, in: screens)?.id.range ?? id.range
    context.report(
      Self.self, "event ID '\(id.value)' of \(describe(reference)) is also mapped from \(describe(original))", at: id.range,
      notes: [Diagnostic.Note("'\(id.value)' is first mapped here", at: context.location(firstRange))])
  }
}
