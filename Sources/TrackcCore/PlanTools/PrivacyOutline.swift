/// The plan's privacy as the people around the code read it (a privacy reviewer, whoever answers App
/// Store Connect's questions): each data type the plan collects with whether it is linked and used to
/// track, its purposes, the destinations that receive it and what sends it; each destination's purposes,
/// consent category and tracking domains; the consent categories. Made from `PrivacyPlan`, for
/// `trackc docs`, `trackc diff` and `trackc export --format privacy`.
public struct PrivacyOutline: Sendable {
  public struct DataType: Sendable, Hashable {
    public var dataType: PersonalDataType
    public var linked: Bool
    public var tracking: Bool
    public var purposes: [DataPurpose]
    public var destinations: [String]
    /// What sends it, in plan order, each once: "every event", "the user ID", "property 'total' (2 events)".
    public var sources: [String]
    /// Where its first value is classified.
    public var range: SourceRange
  }

  public struct Destination: Sendable, Hashable {
    public var id: String
    public var range: SourceRange
    /// Nil when the destination does not say.
    public var purposes: [DataPurpose]?
    public var consent: String?
    public var trackingDomains: [String]
    /// The data types it receives, in Apple's order.
    public var dataTypes: [PersonalDataType]
  }

  public struct ConsentCategory: Sendable, Hashable {
    public var name: String
    public var description: String?
    public var defaultValue: ConsentDefault
    /// The destinations it gates, in file order.
    public var destinations: [String]
    /// Its name in the workspace's consent settings (`wire_name`); nil when it is `name`.
    public var wireName: String? = nil
  }

  /// In Apple's order.
  public var dataTypes: [DataType]
  /// Declared destinations, in file order.
  public var destinations: [Destination]
  public var consentCategories: [ConsentCategory]
  /// The manifest's `NSPrivacyTracking`.
  public var tracking: Bool
  public var trackingDomains: [String]
  /// Where the config first speaks of privacy.
  public var range: SourceRange
  /// Whether the config speaks of privacy at all (else this is what the runtime sends, as the manifest
  /// declares it for any plan).
  public var isDeclared: Bool

  /// The outline of a plan's privacy: what it declares, and what the runtime sends whatever it declares
  /// (the manifest of a plan that says nothing about privacy still declares that).
  init?(_ plan: ResolvedPlan) {
    let privacy = plan.privacy
    dataTypes = privacy.collected.map { collected in
      var counts: [String: Int] = [:]
      var order: [String] = []
      for index in collected.uses {
        let use = privacy.uses[index]
        // A declared property is one source however many events send it.
        let source = use.isOwnClassification ? use.description : "property '\(use.name.value)'"
        if counts[source] == nil { order.append(source) }
        counts[source, default: 0] += 1
      }
      let first = privacy.uses[collected.uses[0]]
      return DataType(
        dataType: collected.dataType, linked: collected.linked, tracking: collected.tracking, purposes: collected.purposes,
        destinations: collected.destinations,
        sources: order.map { counts[$0]! > 1 ? "\($0) (\(counts[$0]!) events)" : $0 },
        range: first.classification.dataType?.range ?? first.name.range)
    }
    var seen = Set<String>()
    destinations = (plan.config.destinations ?? []).filter { seen.insert($0.id.value).inserted }.map { destination in
      Destination(
        id: destination.id.value, range: destination.id.range, purposes: destination.privacy.purposes?.map(\.value),
        consent: destination.privacy.consent?.value, trackingDomains: (destination.privacy.trackingDomains ?? []).map(\.value),
        dataTypes: privacy.collected.filter { $0.destinations.contains(destination.id.value) }.map(\.dataType))
    }
    let destinations = self.destinations
    consentCategories = (plan.config.privacy?.consentCategories ?? []).map { category in
      ConsentCategory(
        name: category.name.value, description: category.description?.value, defaultValue: category.defaultValue?.value ?? .default,
        destinations: destinations.filter { $0.consent == category.name.value }.map(\.id), wireName: category.wireName?.value)
    }
    tracking = privacy.tracking
    trackingDomains = privacy.trackingDomains
    range = privacy.anchor
    isDeclared = privacy.isDeclared
  }

  /// The App Store label's three sections: each a list of (category, data types), in Apple's order.
  public var label:
    (usedToTrackYou: [(String, [PersonalDataType])], linkedToYou: [(String, [PersonalDataType])], notLinkedToYou: [(String, [PersonalDataType])])
  {
    func grouped(_ types: [PersonalDataType]) -> [(String, [PersonalDataType])] {
      var order: [String] = []
      var groups: [String: [PersonalDataType]] = [:]
      for type in types {
        if groups[type.category] == nil { order.append(type.category) }
        groups[type.category, default: []].append(type)
      }
      return order.map { ($0, groups[$0]!) }
    }
    return (
      grouped(dataTypes.filter(\.tracking).map(\.dataType)), grouped(dataTypes.filter(\.linked).map(\.dataType)),
      grouped(dataTypes.filter { !$0.linked }.map(\.dataType))
    )
  }
}
