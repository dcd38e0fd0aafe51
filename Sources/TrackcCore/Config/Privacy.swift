/// The config's privacy declarations as written: what personal data a property (or the identity) is,
/// what each destination uses data for and which consent category gates it, the plan's consent
/// categories, and where `trackc generate` writes the plan's part of the privacy manifest.
///
/// All of it is optional: a config that says none of it is read, checked and generated as it was before
/// any of it existed.
extension TrackingConfig {
  /// `privacy`: the plan-level settings.
  public struct Privacy: Sendable {
    /// The `privacy` key.
    public var range: SourceRange
    /// Where `trackc generate` writes the privacy manifest, relative to the config
    /// (`Sources/AppTracking/PrivacyInfo.xcprivacy`); beside the generated Swift without it.
    public var manifest: Located<String>?
    /// `consent`: the categories a person using the app grants or refuses, in file order; nil when not
    /// written (then no destination is gated by consent).
    public var consentCategories: [ConsentCategory]?
    /// `identity`: what the identity every event carries is.
    public var identity: Identity?
    /// `events`: what the events themselves are; product interaction (taps, screens seen) when not written.
    public var events: DataClassification?
    /// `context`: what the device's context every event carries is (app, device, OS, locale, time zone,
    /// screen); other diagnostic data when not written.
    public var context: DataClassification?
    /// `pending`: how many events, and for how long, may wait for a category whose default is `pending`.
    public var pending: PendingLimits?

    public init(range: SourceRange) {
      self.range = range
    }
  }

  /// One consent category (`analytics`, `advertising`): a purpose the person using the app agrees to
  /// or not, which gates the destinations that name it.
  public struct ConsentCategory: Sendable {
    public var name: Located<String>
    public var description: Located<String>?
    /// Whether the category counts as granted before the person has answered; `ConsentDefault.default`
    /// when not written.
    public var defaultValue: Located<ConsentDefault>?
    /// `wire_name`: the category's name in the workspace's consent settings (Segment's
    /// `context.consent.categoryPreferences`), where it is not the plan's name.
    public var wireName: Located<String>?
  }

  /// `privacy.pending`: the bounds on what waits for the first answer about a `pending` category. An
  /// event past them goes without the destinations it waited for (or, if it has no other, is dropped and
  /// counted). `PendingLimits.defaultEvents` and `defaultHours` where not written.
  public struct PendingLimits: Sendable {
    public var range: SourceRange
    /// `events`: at most this many events wait (per destination, the oldest go first).
    public var events: Located<Int>?
    /// `hours`: an event waits at most this long after it was tracked.
    public var hours: Located<Double>?

    /// Ten thousand events: about a day of a busy app, a few megabytes of the journal.
    public static let defaultEvents = 10_000
    /// Three days: the shortest a destination of Segment's catalogue accepts an event after it happened
    /// (Google Analytics 4's Measurement Protocol: 72 hours); `Defaults.pendingConsentAge` at run time.
    public static let defaultHours: Double = 72

    public init(range: SourceRange) {
      self.range = range
    }
  }

  /// `privacy.identity`: the identity stamped on every event, and so sent to every destination.
  public struct Identity: Sendable {
    /// The `identity` key.
    public var range: SourceRange
    /// The per-install anonymous ID.
    public var anonymousID: DataClassification?
    /// The user ID given to `identify`.
    public var userID: DataClassification?
    /// Traits given to `identify`, by name, in file order.
    public var traits: [(name: Located<String>, classification: DataClassification)] = []
  }

  /// What personal data a value is (`{data: email_address, linked: true, tracking: false, purposes:
  /// [app_functionality]}`), in the terms of Apple's privacy manifest.
  public struct DataClassification: Sendable {
    /// The mapping it is written in (a binding's, or a declaration's).
    public var range: SourceRange
    /// `data`: the data type; nil when missing or not one of Apple's (reported).
    public var dataType: Located<PersonalDataType>?
    /// `linked`: whether the data is linked to the person's identity; `DataClassification.defaultLinked`
    /// when not written.
    public var linked: Located<Bool>?
    /// `tracking`: whether the data is used to track the person (App Tracking Transparency's sense);
    /// false when not written.
    public var tracking: Located<Bool>?
    /// `purposes`: what the data may be used for, each once; nil when not written (any purpose). The
    /// `purposes` key's range is `purposesRange`.
    public var purposes: [Located<DataPurpose>]?
    public var purposesRange: SourceRange?

    /// Linked unless the plan says otherwise: every event carries the anonymous ID (and the user ID once
    /// `identify` is called), so what an event carries is linked to the person unless it is
    /// de-identified before it is sent.
    public static let defaultLinked = true

    public init(range: SourceRange) {
      self.range = range
    }

    public var isLinked: Bool { linked?.value ?? Self.defaultLinked }
    public var isTracking: Bool { tracking?.value ?? false }
  }

  /// A destination's privacy settings.
  public struct DestinationPrivacy: Sendable {
    /// `purposes`: what the destination uses the data it receives for, each once; nil when not written.
    public var purposes: [Located<DataPurpose>]?
    /// The `purposes` key.
    public var purposesRange: SourceRange?
    /// `consent`: the consent category that gates the destination.
    public var consent: Located<String>?
    /// `tracking_domains`: the internet domains the destination tracks through (the manifest's
    /// `NSPrivacyTrackingDomains`); nil when not written.
    public var trackingDomains: [Located<String>]?
    /// `pending_hours`: how long an event may wait for the destination's category when it is pending, where
    /// the destination takes events later (or earlier) than the plan's `privacy.pending.hours`.
    public var pendingHours: Located<Double>?

    public init() {}

    /// Whether any of it is written.
    public var isDeclared: Bool { purposes != nil || consent != nil || trackingDomains != nil }
  }
}

extension ConfigDecoder {
  enum PrivacyKeys {
    enum Privacy: String, ConfigKey { case manifest, consent, identity, events, context, pending }
    enum Pending: String, ConfigKey { case events, hours }
    enum Category: String, ConfigKey {
      case description
      case `default`
      case wireName = "wire_name"
    }
    enum Identity: String, ConfigKey {
      case anonymousID = "anonymous_id"
      case userID = "user_id"
      case traits
    }
    enum Classification: String, ConfigKey { case data, linked, tracking, purposes }
    /// A declaration in the plan's `properties`, in the long form.
    enum Declaration: String, ConfigKey { case type, data, linked, tracking, purposes }
  }

  /// `privacy:`.
  mutating func privacy(_ node: YAMLNodeID, key: Located<String>) -> TrackingConfig.Privacy {
    var privacy = TrackingConfig.Privacy(range: key.range)
    for (name, field, value) in fields(
      of: node, in: .text("'privacy'"), expected: "a mapping with 'manifest', 'consent', 'identity', 'events', 'context' and 'pending'",
      as: PrivacyKeys.Privacy.self)
    {
      switch name {
      case .manifest: privacy.manifest = nonEmptyString(value, what: .text("'manifest' in 'privacy'"))
      case .consent: privacy.consentCategories = consentCategories(value)
      case .identity: privacy.identity = identity(value, key: field)
      case .events: privacy.events = classification(value, key: field, what: "'events' in 'privacy'")
      case .context: privacy.context = classification(value, key: field, what: "'context' in 'privacy'")
      case .pending: privacy.pending = pendingLimits(value, key: field)
      }
    }
    return privacy
  }

  /// `pending: {events: 5000, hours: 48}`: each a positive number (events a whole one).
  private mutating func pendingLimits(_ node: YAMLNodeID, key: Located<String>) -> TrackingConfig.PendingLimits {
    var limits = TrackingConfig.PendingLimits(range: key.range)
    for (name, _, value) in fields(
      of: node, in: .text("'pending' in 'privacy'"), expected: "a mapping with 'events' and 'hours'", as: PrivacyKeys.Pending.self)
    {
      let range = document.range(value)
      switch (name, document.value(value)) {
      case (.events, .int(let count)) where count > 0:
        limits.events = Located(count, at: range)
      case (.hours, .int(let hours)) where hours > 0:
        limits.hours = Located(Double(hours), at: range)
      case (.hours, .float(let hours)) where hours.isFinite && hours > 0:
        limits.hours = Located(hours, at: range)
      case (.events, _):
        wrongType(.notExpected(what: "'events' of 'pending'", expected: "a whole number above 0", found: found(value)), at: range)
      case (.hours, _):
        wrongType(.notExpected(what: "'hours' of 'pending'", expected: "a number above 0", found: found(value)), at: range)
      }
    }
    return limits
  }

  private mutating func consentCategories(_ node: YAMLNodeID) -> [TrackingConfig.ConsentCategory] {
    var result: [TrackingConfig.ConsentCategory] = []
    for (name, settings, _) in entries(
      of: node, in: .text("'consent'"), expected: "a mapping of consent categories to their settings, such as '{analytics: {default: granted}}'")
    {
      guard !name.value.isEmpty else {
        wrongType(.empty(what: "a consent category's name"), at: name.range)
        continue
      }
      var category = TrackingConfig.ConsentCategory(name: name)
      for (field, _, value) in fields(
        of: settings, in: .text("consent category '\(name.value)'"), expected: "a mapping with 'description', 'default' and 'wire_name'",
        as: PrivacyKeys.Category.self)
      {
        switch field {
        case .description: category.description = string(value, what: .text("'description' of consent category '\(name.value)'"))
        case .default: category.defaultValue = choice(value, what: "'default' of consent category '\(name.value)'")
        case .wireName:
          category.wireName = nonEmptyString(value, what: .text("'wire_name' of consent category '\(name.value)'"))
        }
      }
      result.append(category)
    }
    return result
  }

  private mutating func identity(_ node: YAMLNodeID, key: Located<String>) -> TrackingConfig.Identity {
    var identity = TrackingConfig.Identity(range: key.range)
    for (name, field, value) in fields(
      of: node, in: .text("'identity'"), expected: "a mapping with 'anonymous_id', 'user_id' and 'traits'", as: PrivacyKeys.Identity.self)
    {
      switch name {
      case .anonymousID: identity.anonymousID = classification(value, key: field, what: "'anonymous_id' in 'identity'")
      case .userID: identity.userID = classification(value, key: field, what: "'user_id' in 'identity'")
      case .traits:
        for (trait, classifying, _) in entries(
          of: value, in: .text("'traits'"), expected: "a mapping of trait names to what they are, such as '{email: {data: email_address}}'")
        {
          if let classified = classification(classifying, key: trait, what: "trait '\(trait.value)'") {
            identity.traits.append((trait, classified))
          }
        }
      }
    }
    return identity
  }

  /// A classification on its own: `{data: email_address, linked: true}`.
  private mutating func classification(_ node: YAMLNodeID, key: Located<String>, what: String) -> TrackingConfig.DataClassification? {
    var classification = TrackingConfig.DataClassification(range: document.range(node))
    let fields = self.fields(
      of: node, in: .text(what), expected: "a mapping with 'data' and, as needed, 'linked', 'tracking' and 'purposes'",
      as: PrivacyKeys.Classification.self)
    for (name, field, value) in fields {
      classify(name, field: field, value, what: what, into: &classification)
    }
    guard document.kind(node) == .mapping || document.isNull(node) else { return nil }
    return finished(classification, wroteData: fields.contains { $0.name == .data }, key: key, what: what)
  }

  /// One key of a classification, wherever it is written (on its own, in a binding, in a declaration).
  mutating func classify(
    _ name: PrivacyKeys.Classification, field: Located<String>, _ value: YAMLNodeID, what: String,
    into classification: inout TrackingConfig.DataClassification
  ) {
    switch name {
    case .data:
      classification.dataType = dataType(value, what: what)
    case .linked:
      classification.linked = boolean(value, what: "'linked' of \(what)")
    case .tracking:
      classification.tracking = boolean(value, what: "'tracking' of \(what)")
    case .purposes:
      classification.purposes = purposes(value, what: "'purposes' of \(what)")
      classification.purposesRange = field.range
    }
  }

  /// The classification once its keys are read: it must say what data it is (`wroteData`: the `data`
  /// key is there, whatever its value); reported at `key` when it does not.
  mutating func finished(
    _ classification: TrackingConfig.DataClassification, wroteData: Bool, key: Located<String>, what: String
  ) -> TrackingConfig.DataClassification {
    if !wroteData { problems.append(.missingKey(.key("data", in: what, at: key.range))) }
    return classification
  }

  mutating func boolean(_ node: YAMLNodeID, what: String) -> Located<Bool>? {
    guard case .bool(let value) = document.value(node) else {
      wrongType(.notExpected(what: what, expected: "true or false", found: found(node)), at: document.range(node))
      return nil
    }
    return Located(value, at: document.range(node))
  }

  /// One of Apple's data types.
  private mutating func dataType(_ node: YAMLNodeID, what: String) -> Located<PersonalDataType>? {
    let range = document.range(node)
    guard let text = document.stringValue(node) else {
      wrongType(.notString(what: "'data' of \(what)", found: found(node)), at: range)
      return nil
    }
    guard let type = PersonalDataType(rawValue: text) else {
      problems.append(.privacyTerm(.unknownDataType(Located(text, at: range))))
      return nil
    }
    return Located(type, at: range)
  }

  /// How many unknown values of one purposes list are reported one by one.
  static let reportedUnknownPurposes = 10

  /// A list of Apple's purposes, each kept once: an unknown entry is reported and left out, a repeated
  /// one reported once for all its repeats (a list of ten thousand copies is one finding, not ten
  /// thousand).
  mutating func purposes(_ node: YAMLNodeID, what: String) -> [Located<DataPurpose>]? {
    guard let entries = stringList(node, what: .text(what), items: "purposes such as '[analytics, app_functionality]'") else { return nil }
    var result: [Located<DataPurpose>] = []
    var repeats: [DataPurpose: (first: SourceRange, count: Int)] = [:]
    var unknown: [String: (first: SourceRange, count: Int)] = [:]
    var unknownOrder: [String] = []
    for entry in entries {
      if let purpose = DataPurpose(rawValue: entry.value) {
        if result.contains(where: { $0.value == purpose }) {
          repeats[purpose, default: (entry.range, 0)].count += 1
        } else {
          result.append(Located(purpose, at: entry.range))
        }
      } else if unknown[entry.value] == nil {
        unknown[entry.value] = (entry.range, 1)
        unknownOrder.append(entry.value)
      } else {
        unknown[entry.value]!.count += 1
      }
    }
    // Each unknown value once, and at most ten of them: past that the list is not a list of purposes.
    for text in unknownOrder.prefix(Self.reportedUnknownPurposes) {
      let (range, count) = unknown[text]!
      problems.append(.privacyTerm(.unknownPurpose(Located(text, at: range), count: count)))
    }
    if unknownOrder.count > Self.reportedUnknownPurposes {
      let rest = unknownOrder.dropFirst(Self.reportedUnknownPurposes)
      let entries = rest.reduce(0) { $0 + unknown[$1]!.count }
      problems.append(.privacyTerm(.moreUnknownPurposes(values: rest.count, entries: entries, in: what, at: unknown[rest.first!]!.first)))
    }
    for purpose in DataPurpose.allCases {
      guard let (range, count) = repeats[purpose] else { continue }
      problems.append(.privacyTerm(.repeatedPurpose(Located(purpose.rawValue, at: range), repeats: count)))
    }
    return result
  }

  /// A destination's privacy key (`purposes`, `consent`, `tracking_domains`).
  mutating func destinationPrivacy(
    _ name: Keys.Destination, field: Located<String>, _ value: YAMLNodeID, destination: String,
    into privacy: inout TrackingConfig.DestinationPrivacy
  ) {
    switch name {
    case .description, .wireName: break
    case .purposes:
      privacy.purposes = purposes(value, what: "'purposes' of destination '\(destination)'")
      privacy.purposesRange = field.range
    case .consent:
      privacy.consent = nonEmptyString(value, what: .text("'consent' of destination '\(destination)'"))
    case .trackingDomains:
      privacy.trackingDomains = stringList(
        value, what: .text("'tracking_domains' of destination '\(destination)'"), items: "domain names such as '[ads.example.com]'")
    case .pendingHours:
      let range = document.range(value)
      switch document.value(value) {
      case .int(let hours) where hours > 0: privacy.pendingHours = Located(Double(hours), at: range)
      case .float(let hours) where hours.isFinite && hours > 0: privacy.pendingHours = Located(hours, at: range)
      default:
        wrongType(
          .notExpected(what: "'pending_hours' of destination '\(destination)'", expected: "a number above 0", found: found(value)), at: range)
      }
    }
  }

  /// An entry of the plan's `properties`: a type (`product_id: string`), or the long form with what
  /// personal data the property is (`email: {type: string, data: email_address}`).
  mutating func propertyDeclaration(_ name: Located<String>, _ node: YAMLNodeID) -> TrackingConfig.PropertyDeclaration {
    let what = "property '\(name.value)' in 'properties'"
    guard document.kind(node) == .mapping else {
      return TrackingConfig.PropertyDeclaration(name: name, type: propertyType(node, what: "the type of \(what)"))
    }
    var declaration = TrackingConfig.PropertyDeclaration(name: name, type: nil)
    var classification = TrackingConfig.DataClassification(range: document.range(node))
    let fields = self.fields(
      of: node, in: .text(what), expected: "a type, or a mapping with 'type' and what personal data it is ('data')",
      as: PrivacyKeys.Declaration.self)
    for (key, field, value) in fields {
      switch key {
      case .type: declaration.type = propertyType(value, what: "the type of \(what)")
      case .data: classify(.data, field: field, value, what: what, into: &classification)
      case .linked: classify(.linked, field: field, value, what: what, into: &classification)
      case .tracking: classify(.tracking, field: field, value, what: what, into: &classification)
      case .purposes: classify(.purposes, field: field, value, what: what, into: &classification)
      }
    }
    if fields.contains(where: { $0.name != .type }) {
      declaration.classification = finished(classification, wroteData: fields.contains { $0.name == .data }, key: name, what: what)
    }
    return declaration
  }
}
