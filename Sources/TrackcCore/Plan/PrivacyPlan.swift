/// What personal data the plan sends to which destination, for what purposes, worked out once from
/// the config's classifications and the events' routing: the privacy rules, the privacy manifest, the
/// plan page and the exports all read this one value.
///
/// A value is *classified* by its binding (`{from: self.email, data: email_address}`), else by the
/// plan's declaration of its name (`properties: {email: {type: string, data: email_address}}`); the
/// identity (`privacy.identity`) goes with every event, so to every destination. A classified value is
/// *collected*, in the App Store's sense, when some destination receives it; what a destination uses it
/// for is that destination's `purposes`.
public struct PrivacyPlan: Sendable {
  /// Whether the config says anything about privacy: a `privacy` section, a classification, or a
  /// destination's `purposes`, `consent` or `tracking_domains`. The privacy rules check only a plan that
  /// does; the manifest of one that does not declares what the runtime sends (`RuntimeData`).
  public let isDeclared: Bool
  /// Every classified value the plan sends: the identity's, then event properties in plan order.
  public let uses: [DataUse]
  /// What the plan collects, by data type in Apple's order: the privacy manifest's entries.
  public let collected: [CollectedData]
  /// Every declared destination's tracking domains, each once, sorted.
  public let trackingDomains: [String]
  /// The consent categories the plan declares, in file order; nil when it declares none.
  public let consentCategories: [String]?
  /// The destinations' privacy settings, by destination ID (each ID's first declaration).
  public let destinations: [String: TrackingConfig.DestinationPrivacy]
  /// Where the config first says something about privacy (the `privacy` key, else the first
  /// classification or destination setting): findings about the plan as a whole point here.
  public let anchor: SourceRange

  /// Whether some collected data is used to track (the manifest's `NSPrivacyTracking`).
  public var tracking: Bool { collected.contains(where: \.tracking) }

  /// One classified value the plan sends.
  public struct DataUse: Sendable {
    public enum Source: Sendable, Hashable {
      /// The events themselves: what the person did in the app, when.
      case events
      case anonymousID
      /// The device's context (app, device, OS, locale, time zone, screen).
      case context
      case userID
      /// A trait given to `identify`, by its index in `privacy.identity.traits`.
      case trait(index: Int)
      /// Property `index` of an event's written properties.
      case property(event: ResolvedPlan.Event.ID, index: Int)
      /// A parameter of an entry point's route, sent with its open event.
      case routeParameter(event: ResolvedPlan.Event.ID, name: String)
    }

    public let source: Source
    /// "property 'email' of handler 'onSave(_:)' of 'Profile'", "the user ID": words for messages.
    public let description: String
    /// The property key, trait or identity field as written.
    public let name: Located<String>
    public let dataType: PersonalDataType
    public let classification: TrackingConfig.DataClassification
    /// Whether the classification is the binding's own (else the plan's declaration of the name, or the
    /// identity's).
    public let isOwnClassification: Bool
    public let routing: ResolvedPlan.Routing

    /// The destinations it reaches, or nil when routing is not restricted.
    public var destinations: [String]? {
      if case .only(let names) = routing { return names }
      return nil
    }

    /// Sent anywhere at all.
    public var isCollected: Bool { !routing.reachesNone }
  }

  /// One data type the plan collects, merged across every value of that type and every destination that
  /// receives one.
  public struct CollectedData: Sendable, Hashable {
    public let dataType: PersonalDataType
    /// Some value of this type is linked to the person.
    public let linked: Bool
    /// Some value of this type is used to track.
    public let tracking: Bool
    /// The purposes of the destinations that receive it, in Apple's order.
    public let purposes: [DataPurpose]
    /// The declared destinations that receive it, sorted; empty when routing is not restricted.
    public let destinations: [String]
    /// Which values it comes from (indexes into `uses`).
    public let uses: [Int]
  }

  /// Before a plan is resolved (`ResolvedPlan` sets its own at the end of its initializer).
  static let none = PrivacyPlan(
    isDeclared: false, uses: [], collected: [], trackingDomains: [], consentCategories: nil, destinations: [:], anchor: SourceRange(at: .start))

  private init(
    isDeclared: Bool, uses: [DataUse], collected: [CollectedData], trackingDomains: [String], consentCategories: [String]?,
    destinations: [String: TrackingConfig.DestinationPrivacy], anchor: SourceRange
  ) {
    self.anchor = anchor
    self.isDeclared = isDeclared
    self.uses = uses
    self.collected = collected
    self.trackingDomains = trackingDomains
    self.consentCategories = consentCategories
    self.destinations = destinations
  }

  init(_ plan: ResolvedPlan) {
    let config = plan.config
    var destinations: [String: TrackingConfig.DestinationPrivacy] = [:]
    for destination in config.destinations ?? [] where destinations[destination.id.value] == nil {
      destinations[destination.id.value] = destination.privacy
    }
    var declared: [String: TrackingConfig.DataClassification] = [:]
    for declaration in config.propertyDeclarations ?? [] {
      if let classification = declaration.classification, declared[declaration.name.value] == nil {
        declared[declaration.name.value] = classification
      }
    }
    var uses: [DataUse] = []
    let firstDeclaration = (config.propertyDeclarations ?? []).first { $0.classification != nil }?.name.range
    let firstDestination = (config.destinations ?? []).first { $0.privacy.isDeclared }?.id.range
    let firstBinding = plan.bindings.lazy.map { plan.written($0) }.first { $0.binding?.classification != nil }?.key.range
    let declaredAt = config.privacy?.range ?? firstDeclaration ?? firstDestination ?? firstBinding
    isDeclared = declaredAt != nil
    let anchor = declaredAt ?? SourceRange(at: .start)
    self.anchor = anchor
    // What the runtime sends with every event, declared whether or not the plan speaks of privacy: the
    // events themselves (wherever some event goes), the anonymous ID and the device's context, each as
    // the plan classifies it or as `RuntimeData` says. The identity and the context ride on every call
    // (identify calls too), so they reach every declared destination.
    let everywhere: ResolvedPlan.Routing = plan.declaredDestinations.map { .only($0.sorted(by: UTF8Order.less)) } ?? .unrestricted
    func add(
      _ source: DataUse.Source, _ description: String, _ name: Located<String>, _ classification: TrackingConfig.DataClassification?,
      routing: ResolvedPlan.Routing? = nil
    ) {
      guard let classification, let type = classification.dataType?.value else { return }
      uses.append(
        DataUse(
          source: source, description: description, name: name, dataType: type, classification: classification,
          isOwnClassification: true, routing: routing ?? everywhere))
    }
    let privacy = config.privacy
    add(
      .events, "every event", Located("events", at: anchor), privacy?.events ?? RuntimeData.events.classification(at: anchor),
      routing: Self.routing(of: plan))
    let identity = privacy?.identity
    add(
      .anonymousID, "the anonymous ID", Located("anonymous_id", at: identity?.range ?? anchor),
      identity?.anonymousID ?? RuntimeData.anonymousID.classification(at: identity?.range ?? anchor))
    add(.context, "the device's context", Located("context", at: anchor), privacy?.context ?? RuntimeData.context.classification(at: anchor))
    if let identity {
      add(.userID, "the user ID", Located("user_id", at: identity.range), identity.userID)
      for (index, trait) in identity.traits.enumerated() {
        add(.trait(index: index), "trait '\(trait.name.value)'", trait.name, trait.classification)
      }
    }
    // Properties: bound ones may classify themselves; any may be classified by its name's declaration.
    // Only events written in the long form have properties, and only bindings can classify themselves,
    // so a plan without declarations reads its bindings alone.
    var propertyUses: [DataUse] = []
    func use(_ event: ResolvedPlan.Event, _ index: Int, _ property: TrackingConfig.Property) {
      let own = property.binding?.classification
      guard let classification = own ?? declared[property.key.value], let type = classification.dataType?.value else { return }
      propertyUses.append(
        DataUse(
          source: .property(event: event.id, index: index), description: "property '\(property.key.value)' of \(plan.describe(event))",
          name: property.key, dataType: type, classification: classification, isOwnClassification: own != nil, routing: event.routing))
    }
    if declared.isEmpty {
      for binding in plan.bindings {
        let property = plan.written(binding)
        if property.binding?.classification != nil { use(plan[binding.event], binding.index, property) }
      }
    } else {
      plan.forEachLongFormEvent { event, details in
        for (index, property) in details.properties.enumerated() { use(event, index, property) }
      }
    }
    uses += propertyUses
    // The parameters an entry point's route sends with its open event, classified by their names.
    for route in plan.entryPoints.routes where !declared.isEmpty {
      guard let event = plan.event(ofEntryPoint: route.entry) else { continue }
      let written = plan.written(event).properties.map(\.key.value)
      for parameter in route.parameters where !written.contains(parameter.name) {
        guard let classification = declared[parameter.name], let type = classification.dataType?.value else { continue }
        uses.append(
          DataUse(
            source: .routeParameter(event: event.id, name: parameter.name),
            description: "parameter '\(parameter.name)' of entry point '\(config.entryPoints[route.entry].name.value)'",
            name: Located(parameter.name, at: config.entryPoints[route.entry].name.range), dataType: type, classification: classification,
            isOwnClassification: false, routing: event.routing))
      }
    }

    var byType: [PersonalDataType: (linked: Bool, tracking: Bool, purposes: Set<DataPurpose>, destinations: Set<String>, uses: [Int])] = [:]
    for (index, use) in uses.enumerated() where use.isCollected {
      var entry = byType[use.dataType] ?? (false, false, [], [], [])
      entry.linked = entry.linked || use.classification.isLinked
      entry.tracking = entry.tracking || use.classification.isTracking
      for destination in use.destinations ?? [] {
        entry.destinations.insert(destination)
        for purpose in destinations[destination]?.purposes ?? [] { entry.purposes.insert(purpose.value) }
      }
      entry.uses.append(index)
      byType[use.dataType] = entry
    }
    // A plan whose destinations say nothing of purposes collects for analytics: what a tracking plan is
    // for, and what the App Store label then says (it needs a purpose for each data type).
    let fallback: Set<DataPurpose> = destinations.values.allSatisfy { $0.purposes == nil } ? [.analytics] : []
    collected = byType.keys.sorted().map { type in
      var entry = byType[type]!
      if entry.purposes.isEmpty { entry.purposes = fallback }
      return CollectedData(
        dataType: type, linked: entry.linked, tracking: entry.tracking, purposes: entry.purposes.sorted(),
        destinations: entry.destinations.sorted(by: UTF8Order.less), uses: entry.uses)
    }
    trackingDomains = Set(destinations.values.flatMap { ($0.trackingDomains ?? []).map(\.value) }).sorted(by: UTF8Order.less)
    consentCategories = config.privacy?.consentCategories.map { $0.map(\.name.value) }
    self.destinations = destinations
    self.uses = uses
  }

  /// What the runtime sends with every event whatever the plan says, and what each is unless the plan
  /// classifies it (`privacy.events`, `privacy.identity.anonymous_id`, `privacy.context`).
  public enum RuntimeData: CaseIterable, Sendable {
    /// The events: what the person did in the app and when (Apple's "Product Interaction").
    case events
    /// The per-install anonymous ID (Apple's "Device ID": a device-level ID the app makes).
    case anonymousID
    /// The app, device, OS, locale, time zone and screen (Apple's "Other Diagnostic Data").
    case context

    public var dataType: PersonalDataType {
      switch self {
      case .events: return .productInteraction
      case .anonymousID: return .deviceID
      case .context: return .otherDiagnosticData
      }
    }

    /// Linked to the person (every event carries the anonymous ID), not used to track, any purpose.
    func classification(at range: SourceRange) -> TrackingConfig.DataClassification {
      var classification = TrackingConfig.DataClassification(range: range)
      classification.dataType = Located(dataType, at: range)
      return classification
    }
  }

  /// Where the plan's events go, together: every destination some event reaches.
  private static func routing(of plan: ResolvedPlan) -> ResolvedPlan.Routing {
    guard let declaredList = plan.declaredDestinations else { return .unrestricted }
    let declared = Set(declaredList)
    var reached = Set<String>()
    var seen = Set<[String]>()
    for event in plan.events {
      // Most events share a handful of routings; each is read once. Every plan has this use now, so
      // a large plan whose events soon reach every destination stops there.
      if case .only(let names) = event.routing, seen.insert(names).inserted {
        reached.formUnion(names)
        if reached.isSuperset(of: declared) { break }
      }
    }
    return .only(reached.sorted(by: UTF8Order.less))
  }
}
