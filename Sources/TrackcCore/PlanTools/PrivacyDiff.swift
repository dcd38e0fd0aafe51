/// What changed in what the app must declare: a data type collected, a purpose, a use for tracking, a
/// type now linked to the person. Each of these changes the privacy manifest and the App Store label's
/// answers (and, under the GDPR, may need consent anew), so `trackc diff` reports them as breaking; the
/// reverse changes only over-declare until the label is updated, and are reported as changes.
enum PrivacyDiff {
  static func compare(_ old: PlanOutline, _ new: PlanOutline) -> [PlanDiff.Change] {
    guard old.privacy != nil || new.privacy != nil else { return [] }
    let before = old.privacy?.dataTypes ?? []
    let after = new.privacy?.dataTypes ?? []
    let anchorInNew = new.privacy.map { SourceLocation(file: new.file, range: $0.range) }
    func inNew(_ range: SourceRange) -> SourceLocation { SourceLocation(file: new.file, range: range) }
    var changes: [PlanDiff.Change] = []
    func change(_ kind: PlanDiff.Kind, _ subject: String, _ message: String, at location: SourceLocation, anchor: SourceLocation? = nil) {
      changes.append(PlanDiff.Change(kind: kind, subject: subject, screen: nil, message: message, location: location, anchorInNew: anchor))
    }
    let was = Dictionary(before.map { ($0.dataType, $0) }, uniquingKeysWith: { first, _ in first })
    for type in after {
      let name = type.dataType.rawValue
      guard let previous = was[type.dataType] else {
        let purposes = type.purposes.isEmpty ? "no declared purpose" : type.purposes.map(\.rawValue).joined(separator: ", ")
        change(
          .dataTypeAdded, name,
          "data type '\(name)' now collected (\(type.linked ? "linked" : "not linked")\(type.tracking ? ", used to track" : ""); for \(purposes))",
          at: inNew(type.range))
        continue
      }
      let gained = type.purposes.filter { !previous.purposes.contains($0) }
      let lost = previous.purposes.filter { !type.purposes.contains($0) }
      if !gained.isEmpty {
        change(.purposeAdded, name, "data type '\(name)' now also used for \(words(gained))", at: inNew(type.range))
      }
      if !lost.isEmpty {
        change(.purposeRemoved, name, "data type '\(name)' no longer used for \(words(lost))", at: inNew(type.range))
      }
      if type.tracking && !previous.tracking {
        change(.trackingAdded, name, "data type '\(name)' now used to track", at: inNew(type.range))
      } else if !type.tracking && previous.tracking {
        change(.trackingRemoved, name, "data type '\(name)' no longer used to track", at: inNew(type.range))
      }
      if type.linked && !previous.linked {
        change(.dataLinked, name, "data type '\(name)' now linked to the person", at: inNew(type.range))
      } else if !type.linked && previous.linked {
        change(.dataUnlinked, name, "data type '\(name)' no longer linked to the person", at: inNew(type.range))
      }
    }
    let now = Set(after.map(\.dataType))
    for type in before where !now.contains(type.dataType) {
      change(
        .dataTypeRemoved, type.dataType.rawValue, "data type '\(type.dataType.rawValue)' no longer collected",
        at: SourceLocation(file: old.file, range: type.range), anchor: anchorInNew)
    }
    // Tracking domains: a new one is a new use for tracking.
    let oldDomains = Set(old.privacy?.trackingDomains ?? [])
    let newDomains = new.privacy?.trackingDomains ?? []
    for domain in newDomains where !oldDomains.contains(domain) {
      let destination = new.privacy?.destinations.first { $0.trackingDomains.contains(domain) }
      change(
        .trackingAdded, domain, "tracking domain '\(domain)' added" + (destination.map { " (destination '\($0.id)')" } ?? ""),
        at: inNew(destination?.range ?? new.privacy!.range))
    }
    for domain in old.privacy?.trackingDomains ?? [] where !newDomains.contains(domain) {
      let destination = old.privacy?.destinations.first { $0.trackingDomains.contains(domain) }
      change(
        .trackingRemoved, domain, "tracking domain '\(domain)' removed",
        at: anchorInNew ?? SourceLocation(file: old.file, range: destination?.range ?? old.privacy!.range))
    }
    return changes
  }

  private static func words(_ purposes: [DataPurpose]) -> String {
    purposes.map(\.rawValue).joined(separator: ", ")
  }
}

extension PlanDiff.Kind {
  /// A change to what the app must declare about the data it collects.
  public var isAboutPrivacy: Bool {
    switch self {
    case .dataTypeAdded, .dataTypeRemoved, .purposeAdded, .purposeRemoved, .trackingAdded, .trackingRemoved, .dataLinked, .dataUnlinked: return true
    default: return false
    }
  }
}
