/// One event ID mapped from two places, so analytics cannot tell them apart.
public enum DuplicateEventIDRule: ScreenSequenceRule {
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

  public static func makeChecker() -> any ScreenSequenceChecker { Checker() }

  /// The first mapping of every ID, in an open-addressing table of hashes (comparing strings only when
  /// two hashes are equal): a hundred thousand IDs cost a few milliseconds and no copies.
  private final class Checker: ScreenSequenceChecker {
    /// Where an event is mapped: the screen's index, and its trigger.
    struct Entry {
      var hash: Int
      var screen: Int32
      /// -1, -2 for the enter and leave page events; otherwise the index of the control event.
      var event: Int32

      static let empty = Entry(hash: 0, screen: -1, event: 0)
    }

    /// Linear probing over a power-of-two table, at most half full.
    struct Table {
      var entries = [Entry](repeating: .empty, count: 1 << 14)
      var count = 0

      /// Adds an entry; returns the earlier one instead when the ID is already mapped.
      mutating func insert(_ entry: Entry, id: String, screens: [TrackingConfig.Screen]) -> Entry? {
        if 2 * (count + 1) > entries.count { grow() }
        let mask = entries.count - 1
        var slot = entry.hash & mask
        while entries[slot].screen >= 0 {
          if entries[slot].hash == entry.hash, Checker.resolve(entries[slot], in: screens).id == id { return entries[slot] }
          slot = (slot + 1) & mask
        }
        entries[slot] = entry
        count += 1
        return nil
      }

      private mutating func grow() {
        let old = entries
        entries = [Entry](repeating: .empty, count: old.count * 4)
        let mask = entries.count - 1
        for entry in old where entry.screen >= 0 {
          var slot = entry.hash & mask
          while entries[slot].screen >= 0 { slot = (slot + 1) & mask }
          entries[slot] = entry
        }
      }
    }

    private var screens: [TrackingConfig.Screen] = []
    private var table = Table()

    func check(_ screen: TrackingConfig.Screen, in context: inout RuleContext) {
      let screenIndex = Int32(screens.count)
      screens.append(screen)
      // State is moved into locals for the loop: a class's stored properties would be checked for
      // exclusive access at every probe.
      var table = self.table
      self.table = Table(entries: [], count: 0)
      let screens = self.screens
      defer { self.table = table }
      screen.forEachEvent { trigger, event in
        let eventIndex: Int32
        switch trigger {
        case .page(let phase): eventIndex = phase == .enter ? -1 : -2
        case .control(let index): eventIndex = Int32(index)
        }
        let entry = Entry(hash: event.id.value.hashValue, screen: screenIndex, event: eventIndex)
        guard let first = table.insert(entry, id: event.id.value, screens: screens) else { return }
        let original = Self.resolve(first, in: screens)
        context.report(
          DuplicateEventIDRule.self,
          "event ID '\(event.id.value)' of \(screen.describe(trigger)) is also mapped from \(original.description)",
          at: event.id.range,
          notes: [Diagnostic.Note("'\(event.id.value)' is first mapped here", at: context.location(original.range))])
      }
    }

    static func resolve(_ entry: Entry, in screens: [TrackingConfig.Screen]) -> (id: String, description: String, range: SourceRange) {
      let screen = screens[Int(entry.screen)]
      if entry.event < 0 {
        let phase: TrackingConfig.PagePhase = entry.event == -1 ? .enter : .leave
        let page = screen.pageEvents.first { $0.phase.value == phase }!
        return (page.event.id.value, screen.describe(.page(phase)), page.event.id.range)
      }
      let control = screen.controlEvents[Int(entry.event)]
      return (control.event.id.value, screen.describe(.control(index: Int(entry.event))), control.event.id.range)
    }
  }
}
