/// What changed in the plan between two versions of a config, classified the way an analytics engineer
/// reviews a pull request: which changes break the dashboards, funnels and collectors built on the old
/// plan, and which only add to it.
///
/// Events are matched by their screen and trigger (the page phase, or the handler in its canonical
/// spelling), then, among those left, by event ID (an event whose handler or screen changed but whose ID
/// did not is *moved*, not removed and added).
public struct PlanDiff: Sendable {
  public var old: PlanOutline
  public var new: PlanOutline
  /// In the order of the new config, then removals in the order of the old.
  public var changes: [Change]

  public var breakingChanges: [Change] { changes.filter(\.isBreaking) }

  public struct Change: Sendable, Hashable {
    public var kind: Kind
    /// The event ID concerned, or the screen or destination name.
    public var subject: String
    /// The screen concerned, as written (in NEW, or in OLD for removals).
    public var screen: String?
    /// One sentence, without the location.
    public var message: String
    /// Where the change is: in NEW, or in OLD for removals.
    public var location: SourceLocation
    /// For removals, the nearest place in NEW (the screen that lost the event), for annotations that
    /// can only point into the new file; nil when NEW has nothing near.
    public var anchorInNew: SourceLocation?

    public var isBreaking: Bool { kind.isBreaking }
  }

  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case screenAdded = "screen-added"
    case screenRemoved = "screen-removed"
    case eventAdded = "event-added"
    case eventRemoved = "event-removed"
    /// The same screen and trigger, a new event ID.
    case eventRenamed = "event-renamed"
    /// The same event ID, on another handler or screen.
    case eventMoved = "event-moved"
    /// The same event goes by another name on the wire (its `wire_name`, or its call: track or screen):
    /// what dashboards and warehouses know it by changes.
    case wireNameChanged = "wire-name-changed"
    case eventRerouted = "event-rerouted"
    case propertyAdded = "property-added"
    case propertyRemoved = "property-removed"
    /// A property whose value now has another JSON type.
    case propertyRetyped = "property-retyped"
    /// A static property with another value of the same type.
    case propertyValueChanged = "property-value-changed"
    case destinationAdded = "destination-added"
    case destinationRemoved = "destination-removed"
    // What the app must declare (PlanTools/PrivacyDiff.swift).
    case dataTypeAdded = "data-type-added"
    case dataTypeRemoved = "data-type-removed"
    case purposeAdded = "purpose-added"
    case purposeRemoved = "purpose-removed"
    case trackingAdded = "tracking-added"
    case trackingRemoved = "tracking-removed"
    case dataLinked = "data-linked"
    case dataUnlinked = "data-unlinked"

    /// Whether the change is located in OLD (what it concerns is not in NEW).
    public var isRemoval: Bool {
      switch self {
      case .screenRemoved, .eventRemoved, .propertyRemoved, .destinationRemoved, .dataTypeRemoved: return true
      default: return false
      }
    }

    /// Removed and renamed events and screens, removed and retyped properties: what was there before is
    /// gone or different, so whatever was built on it (a dashboard, a funnel, a warehouse column, a
    /// collector's schema) stops matching. And a new data type, purpose, use for tracking or link to the
    /// person: what the app must declare (its privacy manifest, its App Store label) changes.
    public var isBreaking: Bool {
      switch self {
      case .screenRemoved, .eventRemoved, .eventRenamed, .wireNameChanged, .propertyRemoved, .propertyRetyped: return true
      case .dataTypeAdded, .purposeAdded, .trackingAdded, .dataLinked: return true
      default: return false
      }
    }
  }

  public var isEmpty: Bool { changes.isEmpty }

  public init(old: PlanOutline, new: PlanOutline) {
    self.old = old
    self.new = new
    changes = Self.compare(old, new)
  }

  // MARK: Comparing

  private struct EventKey: Hashable {
    var screen: String
    var trigger: String
  }

  private typealias Placed = (screen: PlanOutline.Screen, event: PlanOutline.Event)

  private static func compare(_ old: PlanOutline, _ new: PlanOutline) -> [Change] {
    var changes: [Change] = []
    func at(_ outline: PlanOutline, _ range: SourceRange) -> SourceLocation { SourceLocation(file: outline.file, range: range) }

    // Destinations.
    let oldDestinations = old.destinations ?? []
    let newDestinations = new.destinations ?? []
    let oldDestinationIDs = Set(oldDestinations.map(\.id))
    let newDestinationIDs = Set(newDestinations.map(\.id))
    for destination in newDestinations where !oldDestinationIDs.contains(destination.id) {
      changes.append(
        Change(
          kind: .destinationAdded, subject: destination.id, message: "destination '\(destination.id)' added",
          location: at(new, destination.range)))
    }

    // Screens.
    let oldScreens = Dictionary(old.screens.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
    let newScreens = Dictionary(new.screens.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
    for screen in new.screens where oldScreens[screen.identity] == nil {
      changes.append(
        Change(
          kind: .screenAdded, subject: screen.name, screen: screen.name, message: "screen '\(screen.name)' added",
          location: at(new, screen.range)))
    }

    // Events: by screen and trigger, then by ID.
    func key(_ screen: PlanOutline.Screen, _ event: PlanOutline.Event) -> EventKey {
      EventKey(screen: screen.identity, trigger: event.trigger.identity)
    }
    var oldByKey: [EventKey: Placed] = [:]
    for placed in old.allEvents where oldByKey[key(placed.screen, placed.event)] == nil { oldByKey[key(placed.screen, placed.event)] = placed }
    var newKeys = Set<EventKey>()
    var unmatchedNew: [Placed] = []
    for placed in new.allEvents {
      let eventKey = key(placed.screen, placed.event)
      guard newKeys.insert(eventKey).inserted else { continue }
      if let before = oldByKey[eventKey] {
        changes += compare(before, placed, old, new)
      } else {
        unmatchedNew.append(placed)
      }
    }
    var unmatchedOld: [Placed] = old.allEvents.filter { !newKeys.contains(key($0.screen, $0.event)) }
    // Duplicate keys in OLD (an error there) are compared once.
    var seenOld = Set<EventKey>()
    unmatchedOld = unmatchedOld.filter { seenOld.insert(key($0.screen, $0.event)).inserted }

    var oldByID: [String: [Int]] = [:]
    for (index, placed) in unmatchedOld.enumerated() { oldByID[placed.event.id, default: []].append(index) }
    var movedOld = Set<Int>()
    for placed in unmatchedNew {
      if let index = oldByID[placed.event.id]?.first(where: { !movedOld.contains($0) }) {
        movedOld.insert(index)
        let before = unmatchedOld[index]
        changes.append(
          Change(
            kind: .eventMoved, subject: placed.event.id, screen: placed.screen.name,
            message:
              "event '\(placed.event.id)' moved from \(describe(before.event.trigger, of: before.screen)) to \(describe(placed.event.trigger, of: placed.screen))",
            location: at(new, placed.event.triggerRange)))
        changes += compareDetails(before, placed, old, new)
      } else {
        changes.append(
          Change(
            kind: .eventAdded, subject: placed.event.id, screen: placed.screen.name,
            message: "event '\(placed.event.id)' added: \(describe(placed.event.trigger, of: placed.screen)), to \(placed.event.routing.summary)",
            location: at(new, placed.event.idRange)))
      }
    }

    // Removals, in the order of OLD: screens, then the events that went with them or alone.
    for screen in old.screens where newScreens[screen.identity] == nil {
      changes.append(
        Change(
          kind: .screenRemoved, subject: screen.name, screen: screen.name,
          message: "screen '\(screen.name)' removed, with its \(screen.events.count) event\(screen.events.count == 1 ? "" : "s")",
          location: at(old, screen.range)))
    }
    for (index, placed) in unmatchedOld.enumerated() where !movedOld.contains(index) {
      let anchor = newScreens[placed.screen.identity].map { at(new, $0.range) }
      changes.append(
        Change(
          kind: .eventRemoved, subject: placed.event.id, screen: placed.screen.name,
          message: "event '\(placed.event.id)' removed (was \(describe(placed.event.trigger, of: placed.screen)))",
          location: at(old, placed.event.idRange), anchorInNew: anchor))
    }
    for destination in oldDestinations where !newDestinationIDs.contains(destination.id) {
      changes.append(
        Change(
          kind: .destinationRemoved, subject: destination.id, message: "destination '\(destination.id)' removed",
          location: at(old, destination.range)))
    }
    changes += PrivacyDiff.compare(old, new)
    // What is in NEW by its position there, then what is gone by its position in OLD.
    let (present, gone) = (changes.filter { !$0.kind.isRemoval }, changes.filter(\.kind.isRemoval))
    func byPosition(_ lhs: Change, _ rhs: Change) -> Bool { lhs.location.range.start < rhs.location.range.start }
    return stableSorted(present, by: byPosition) + stableSorted(gone, by: byPosition)
  }

  private static func stableSorted(_ changes: [Change], by less: (Change, Change) -> Bool) -> [Change] {
    changes.enumerated().sorted { less($0.element, $1.element) || (!less($1.element, $0.element) && $0.offset < $1.offset) }.map(\.element)
  }

  /// The same screen and trigger in both: a new ID, then what the event carries and where it goes.
  private static func compare(_ before: Placed, _ after: Placed, _ old: PlanOutline, _ new: PlanOutline) -> [Change] {
    var changes: [Change] = []
    if before.event.id != after.event.id {
      changes.append(
        Change(
          kind: .eventRenamed, subject: after.event.id, screen: after.screen.name,
          message: "event '\(before.event.id)' renamed to '\(after.event.id)' (\(describe(after.event.trigger, of: after.screen)))",
          location: SourceLocation(file: new.file, range: after.event.idRange)))
    }
    return changes + compareDetails(before, after, old, new)
  }

  /// "track 'Checkout Tapped'", "screen 'Home'": the call an event goes as, and its name there.
  private static func onTheWire(_ placed: Placed) -> String {
    switch placed.event.call {
    case .track: return "track '\(placed.event.wireName ?? placed.event.id)'"
    case .screen: return "screen '\(placed.event.wireName ?? placed.screen.name)'"
    }
  }

  /// Routing and properties of an event found in both.
  private static func compareDetails(_ before: Placed, _ after: Placed, _ old: PlanOutline, _ new: PlanOutline) -> [Change] {
    var changes: [Change] = []
    let id = after.event.id
    func inNew(_ range: SourceRange) -> SourceLocation { SourceLocation(file: new.file, range: range) }
    // A new ID without a wire name is a new name on the wire too, which `event-renamed` says already.
    let (was, now) = (onTheWire(before), onTheWire(after))
    if was != now, before.event.id == after.event.id || before.event.wireName != nil || after.event.wireName != nil {
      changes.append(
        Change(
          kind: .wireNameChanged, subject: id, screen: after.screen.name, message: "event '\(id)' now goes on the wire as \(now) (was \(was))",
          location: inNew(after.event.idRange)))
    }
    if before.event.routing != after.event.routing {
      var detail = "from \(before.event.routing.summary) to \(after.event.routing.summary)"
      if case .only(let was) = before.event.routing, case .only(let now) = after.event.routing {
        let gained = now.filter { !was.contains($0) }
        let lost = was.filter { !now.contains($0) }
        var parts: [String] = []
        if !gained.isEmpty { parts.append("now also to \(gained.joined(separator: ", "))") }
        if !lost.isEmpty { parts.append("no longer to \(lost.joined(separator: ", "))") }
        if !parts.isEmpty { detail = parts.joined(separator: "; ") }
      }
      changes.append(
        Change(
          kind: .eventRerouted, subject: id, screen: after.screen.name, message: "event '\(id)' re-routed: \(detail)",
          location: inNew(after.event.idRange)))
    }
    let oldProperties = Dictionary(before.event.properties.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    let newProperties = Dictionary(after.event.properties.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    var seen = Set<String>()
    for property in after.event.properties where seen.insert(property.key).inserted {
      guard let was = oldProperties[property.key] else {
        changes.append(
          Change(
            kind: .propertyAdded, subject: id, screen: after.screen.name,
            message: "event '\(id)': property '\(property.key)' added (\(describe(property.value)))", location: inNew(property.keyRange)))
        continue
      }
      guard was.value != property.value else { continue }
      if was.type != property.type {
        changes.append(
          Change(
            kind: .propertyRetyped, subject: id, screen: after.screen.name,
            message:
              "event '\(id)': property '\(property.key)' changed type from \(was.type ?? "invalid") to \(property.type ?? "invalid") (\(describe(was.value)) -> \(describe(property.value)))",
            location: inNew(property.valueRange)))
      } else {
        changes.append(
          Change(
            kind: .propertyValueChanged, subject: id, screen: after.screen.name,
            message: "event '\(id)': property '\(property.key)' changed from \(describe(was.value)) to \(describe(property.value))",
            location: inNew(property.valueRange)))
      }
    }
    var seenOld = Set<String>()
    for property in before.event.properties where newProperties[property.key] == nil && seenOld.insert(property.key).inserted {
      changes.append(
        Change(
          kind: .propertyRemoved, subject: id, screen: before.screen.name,
          message: "event '\(id)': property '\(property.key)' removed (was \(describe(property.value)))",
          location: SourceLocation(file: old.file, range: property.keyRange),
          anchorInNew: SourceLocation(file: new.file, range: after.event.idRange)))
    }
    return changes
  }

  /// "handler 'onFav(_:)' of 'Home'", "the enter page event of 'Home'".
  static func describe(_ trigger: PlanOutline.Trigger, of screen: PlanOutline.Screen) -> String {
    switch trigger {
    case .page(let phase): return "the \(phase.rawValue) page event of '\(screen.name)'"
    case .control(let handler, _): return "handler '\(handler)' of '\(screen.name)'"
    case .open(let entryPoint): return "the open event of entry point '\(entryPoint)'"
    case .application(let kind): return "the application event '\(kind.rawValue)'"
    }
  }

  static func describe(_ value: PlanOutline.Property.Value) -> String {
    switch value {
    case .literal(.string(let string)): return "\"\(string)\""
    case .literal(let literal): return literal.text
    case .bound(let from, let type): return "{from: \(from)" + (type.map { ", type: \($0)" } ?? "") + "}"
    case .invalid(let found): return "\(found)"
    }
  }
}
