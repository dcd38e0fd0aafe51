/// Reads a YAML document into a `TrackingConfig`, reporting every structural problem on the way as a
/// typed `ConfigProblem`: unknown keys, values of the wrong type, missing required keys, an unsupported
/// version.
///
/// It keeps going after a problem, leaving the offending part out, so that one run shows everything.
struct ConfigDecoder {
  let document: YAMLDocument
  var problems: [ConfigProblem] = []

  init(document: YAMLDocument) {
    self.document = document
  }

  /// The whole config; nil when the document is empty or not a mapping.
  static func decode(_ document: YAMLDocument) -> (config: TrackingConfig?, problems: [ConfigProblem]) {
    var decoder = ConfigDecoder(document: document)
    let config = decoder.config()
    return (config, decoder.problems)
  }

  /// The keys the format allows at each place, in the order messages list them. A section's switch over
  /// its keys is exhaustive, so a key added here is decoded or the build fails.
  enum Keys {
    enum Root: String, ConfigKey {
      case version, sources, interception, conventions, destinations, defaults, properties, screens, links
      case entryPoints = "entry_points"
      case privacy, application
      case planVersion = "plan_version"
    }
    enum Conventions: String, ConfigKey {
      case eventIDPattern = "event_id_pattern"
      case requireTracking = "require_tracking"
      case requireScreens = "require_screens"
      case lifecycle
      case frameworkClasses = "framework_classes"
    }
    enum RequireTracking: String, ConfigKey { case suffix, tag }
    enum Lifecycle: String, ConfigKey { case enter, leave }
    enum Destination: String, ConfigKey {
      case description
      case wireName = "wire_name"
      case purposes, consent
      case trackingDomains = "tracking_domains"
      case pendingHours = "pending_hours"
    }
    enum Defaults: String, ConfigKey { case destinations }
    enum Screen: String, ConfigKey {
      case pageEvents = "page_events"
      case controlEvents = "control_events"
    }
    enum Event: String, ConfigKey {
      case event
      case wireName = "wire_name"
      case call, destinations, exclude, properties
    }
    enum Binding: String, ConfigKey { case from, type, optional, data, linked, tracking, purposes }
  }

  /// Where a value sits, for messages. Inside screens it names nodes rather than holding text, so the
  /// decoding of a hundred thousand handlers builds no descriptions (and counts no references to them);
  /// words are made only when something is reported.
  struct Place {
    enum Subject {
      case text(String)
      case screen(YAMLNodeID)
      case pageEvents(screen: YAMLNodeID)
      case controlEvents(screen: YAMLNodeID)
      case pageEvent(TrackingConfig.PagePhase, screen: YAMLNodeID)
      case handler(YAMLNodeID, screen: YAMLNodeID)
    }

    var subject: Subject
    /// A key of the subject ("'destinations'"), when the place is that key's value.
    var field: StaticString?

    init(_ subject: Subject, field: StaticString? = nil) {
      self.subject = subject
      self.field = field
    }

    static func text(_ text: String) -> Place { Place(.text(text)) }
  }

  func words(_ place: Place) -> String {
    let subject: String
    switch place.subject {
    case .text(let text): subject = text
    case .screen(let screen): subject = "screen '\(document.text(screen))'"
    case .pageEvents(let screen): subject = "'page_events' of '\(document.text(screen))'"
    case .controlEvents(let screen): subject = "'control_events' of '\(document.text(screen))'"
    case .pageEvent(let phase, let screen): subject = "the \(phase.rawValue) event of '\(document.text(screen))'"
    case .handler(let handler, let screen): subject = "handler '\(document.text(handler))' of '\(document.text(screen))'"
    }
    guard let field = place.field else { return subject }
    return "\(field) of \(subject)"
  }

  private mutating func config() -> TrackingConfig? {
    guard let root = document.root, !document.isNull(root) else {
      problems.append(.empty(at: document.root.map { document.range($0).start } ?? .start))
      return nil
    }
    guard document.kind(root) == .mapping else {
      wrongType(.topLevel(found: document.value(root)), at: document.range(root))
      return nil
    }
    var config = TrackingConfig()
    let fields = self.fields(of: root, in: .text("the config"), expected: "a mapping", as: Keys.Root.self)
    for (name, key, value) in fields {
      switch name {
      case .version: config.version = version(value)
      case .planVersion: config.planVersion = nonEmptyString(value, what: .text("'plan_version'"))
      case .sources: config.sources = stringList(value, what: .text("'sources'"), items: "paths to Swift sources such as '[Sources/App]'")
      case .interception: config.interception = interception(value)
      case .conventions: config.conventions = conventions(value)
      case .destinations: config.destinations = destinations(value)
      case .defaults: config.defaults = defaults(value)
      case .properties: config.propertyDeclarations = propertyDeclarations(value)
      case .screens: config.screens = screens(value, key: key)
      case .links: config.links = links(value, key: key)
      case .entryPoints: config.entryPoints = entryPoints(value)
      case .privacy: config.privacy = privacy(value, key: key)
      case .application: config.application = application(value)
      }
    }
    let start = document.range(root).start
    if !fields.contains(where: { $0.name == .version }) { problems.append(.missingKey(.version(at: start))) }
    if !fields.contains(where: { $0.name == .screens }) { problems.append(.missingKey(.screens(at: start))) }
    return config
  }

  // MARK: Sections

  private mutating func version(_ node: YAMLNodeID) -> Located<Int>? {
    let range = document.range(node)
    guard case .int(let version) = document.value(node) else {
      problems.append(.versionNotInteger(found: FoundValue(node, in: document), at: range))
      return nil
    }
    guard version == TrackingConfig.supportedVersion else {
      problems.append(.unsupportedVersion(version, at: range))
      return nil
    }
    return Located(version, at: range)
  }

  private mutating func conventions(_ node: YAMLNodeID) -> TrackingConfig.Conventions {
    var conventions = TrackingConfig.Conventions()
    for (name, key, value) in fields(
      of: node, in: .text("'conventions'"), expected: "a mapping of convention names to values", as: Keys.Conventions.self)
    {
      switch name {
      case .eventIDPattern: conventions.eventIDPattern = string(value, what: .text("'event_id_pattern'"))
      case .requireTracking: conventions.requireTracking = trackingMarker(value, key: key)
      case .requireScreens:
        conventions.requireScreens = stringList(value, what: .text("'require_screens'"), items: "base class names such as '[UIViewController]'")
      case .lifecycle: conventions.lifecycle = lifecycle(value)
      case .frameworkClasses: conventions.frameworkClasses = frameworkClasses(value)
      }
    }
    return conventions
  }

  private mutating func interception(_ node: YAMLNodeID) -> Located<TrackingConfig.Interception>? {
    let allowed = TrackingConfig.Interception.allCases.map(\.rawValue)
    guard let text = document.stringValue(node), let value = TrackingConfig.Interception(rawValue: text) else {
      let suggestion = document.stringValue(node).flatMap { Suggestions.closest(to: $0, in: allowed) }
      wrongType(.interception(found: found(node), allowed: allowed, suggestion: suggestion), at: document.range(node))
      return nil
    }
    return Located(value, at: document.range(node))
  }

  private mutating func trackingMarker(_ node: YAMLNodeID, key: Located<String>) -> TrackingConfig.TrackingMarker? {
    var marker = TrackingConfig.TrackingMarker(suffix: nil, tag: nil, range: key.range)
    for (name, _, value) in fields(
      of: node, in: .text("'require_tracking'"), expected: "a mapping with 'suffix' and/or 'tag'", as: Keys.RequireTracking.self)
    {
      switch name {
      case .suffix: marker.suffix = nonEmptyString(value, what: .text("'suffix'"))
      case .tag: marker.tag = nonEmptyString(value, what: .text("'tag'"))
      }
    }
    guard marker.suffix != nil || marker.tag != nil else {
      if document.kind(node) == .mapping || document.isNull(node) { problems.append(.missingKey(.trackingMarker(at: key.range))) }
      return nil
    }
    return marker
  }

  private mutating func lifecycle(_ node: YAMLNodeID) -> TrackingConfig.Lifecycle {
    var lifecycle = TrackingConfig.Lifecycle()
    for (name, _, value) in fields(of: node, in: .text("'lifecycle'"), expected: "a mapping with 'enter' and/or 'leave'", as: Keys.Lifecycle.self) {
      switch name {
      case .enter: lifecycle.enter = stringOrList(value, what: .text("'enter' in 'lifecycle'"), items: "method names such as '[onAppear()]'")
      case .leave: lifecycle.leave = stringOrList(value, what: .text("'leave' in 'lifecycle'"), items: "method names such as '[onDisappear()]'")
      }
    }
    return lifecycle
  }

  /// `conventions.framework_classes`: class names to their superclasses.
  private mutating func frameworkClasses(_ node: YAMLNodeID) -> [TrackingConfig.FrameworkClass] {
    let place = Place.text("'framework_classes'")
    let expected = "a mapping of class names to their superclasses, such as '{DSViewController: UIViewController}'"
    return entries(of: node, in: place, expected: expected).compactMap { name, value, _ in
      string(value, what: .text("the superclass of '\(name.value)' in 'framework_classes'")).map {
        TrackingConfig.FrameworkClass(name: name, superclass: $0)
      }
    }
  }

  /// One string, or a list of them.
  private mutating func stringOrList(_ node: YAMLNodeID, what: Place, items: String) -> [Located<String>]? {
    if document.kind(node) == .sequence { return stringList(node, what: what, items: items) }
    return string(node, what: what).map { [$0] }
  }

  /// One of an enumeration's raw values (`'insensitive'`, `'granted'`), or a problem that lists them.
  mutating func choice<Choice: RawRepresentable & CaseIterable>(_ node: YAMLNodeID, what: String) -> Located<Choice>?
  where Choice.RawValue == String {
    guard let text = document.stringValue(node), let value = Choice(rawValue: text) else {
      let allowed = Choice.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")
      wrongType(.notExpected(what: what, expected: allowed, found: found(node)), at: document.range(node))
      return nil
    }
    return Located(value, at: document.range(node))
  }

  mutating func nonEmptyString(_ node: YAMLNodeID, what: Place) -> Located<String>? {
    guard let value = string(node, what: what) else { return nil }
    guard !value.value.isEmpty else {
      wrongType(.empty(what: words(what)), at: value.range)
      return nil
    }
    return value
  }

  private mutating func destinations(_ node: YAMLNodeID) -> [TrackingConfig.Destination] {
    var result: [TrackingConfig.Destination] = []
    for (id, settings, _) in entries(of: node, in: .text("'destinations'"), expected: "a mapping of destination IDs to their settings") {
      guard !id.value.isEmpty else {
        wrongType(.emptyDestinationID, at: id.range)
        continue
      }
      var destination = TrackingConfig.Destination(id: id, description: nil)
      if document.kind(settings) == .mapping {
        let start = document.range(settings).start
        let firstKey = document.pairs(settings).first.map { document.range($0.key).start }
        destination.settings =
          firstKey.map { $0 != start ? .flow(insertAt: $0, isEmpty: false) : .block(firstKey: $0) }
          ?? .flow(insertAt: SourcePosition(line: start.line, column: start.column + 1), isEmpty: true)
      }
      for (name, field, value) in fields(
        of: settings, in: .text("destination '\(id.value)'"), expected: "a mapping (use '{}' for a destination without settings)",
        as: Keys.Destination.self)
      {
        switch name {
        case .description: destination.description = string(value, what: .text("'description'"))
        case .wireName: destination.wireName = nonEmptyString(value, what: .text("'wire_name' of destination '\(id.value)'"))
        case .purposes, .consent, .trackingDomains, .pendingHours:
          destinationPrivacy(name, field: field, value, destination: id.value, into: &destination.privacy)
        }
      }
      result.append(destination)
    }
    return result
  }

  private mutating func defaults(_ node: YAMLNodeID) -> TrackingConfig.Defaults {
    var defaults = TrackingConfig.Defaults()
    for (name, _, value) in fields(of: node, in: .text("'defaults'"), expected: "a mapping", as: Keys.Defaults.self) {
      switch name {
      case .destinations: defaults.destinations = stringList(value, what: .text("'destinations' in 'defaults'"))
      }
    }
    return defaults
  }

  /// `application:`: each lifecycle event's event, in the short or the long form.
  private mutating func application(_ node: YAMLNodeID) -> [TrackingConfig.ApplicationMapping] {
    var result: [TrackingConfig.ApplicationMapping] = []
    for (kind, key, value) in fields(
      of: node, in: .text("'application'"), expected: "a mapping of application events to event IDs, such as '{opened: APP_OPENED}'",
      as: TrackingConfig.ApplicationEvent.self, kind: "application event")
    {
      if let event = eventRule(value, key: key, place: .text("the application event '\(kind.rawValue)'")) {
        result.append(TrackingConfig.ApplicationMapping(kind: Located(kind, at: key.range), event: event))
      }
    }
    return result
  }

  /// `screens:`, in file order.
  private mutating func screens(_ node: YAMLNodeID, key: Located<String>) -> [TrackingConfig.Screen] {
    guard document.kind(node) == .mapping else {
      wrongType(.screens(found: found(node)), at: document.isNull(node) ? key.range : document.range(node))
      return []
    }
    return entries(of: node, in: .text("'screens'"), expected: "a mapping").map { screen($0.value, name: $0.key, keyNode: $0.keyNode) }
  }

  /// One entry of `screens`.
  private mutating func screen(_ node: YAMLNodeID, name: Located<String>, keyNode: YAMLNodeID) -> TrackingConfig.Screen {
    var screen = TrackingConfig.Screen(name: name, typeName: SwiftTypeName.parse(name.value))
    for (section, _, value) in fields(
      of: node, in: Place(.screen(keyNode)), expected: "a mapping with 'page_events' and/or 'control_events'", as: Keys.Screen.self)
    {
      switch section {
      case .pageEvents: screen.pageEvents = pageEvents(value, screen: keyNode)
      case .controlEvents: screen.controlEvents = controlEvents(value, screen: keyNode)
      }
    }
    screen.isEmptyAsWritten = isEmptyScreen(node)
    return screen
  }

  private func isEmptyScreen(_ node: YAMLNodeID) -> Bool {
    if document.isNull(node) { return true }
    guard document.kind(node) == .mapping else { return false }
    return document.pairs(node).allSatisfy { pair in
      guard Keys.Screen.allCases.contains(where: { document.textEquals(pair.key, $0.rawValue) }) else { return false }
      return document.isNull(pair.value) || (document.kind(pair.value) == .mapping && document.pairs(pair.value).isEmpty)
    }
  }

  private mutating func pageEvents(_ node: YAMLNodeID, screen: YAMLNodeID) -> [TrackingConfig.PageEvent] {
    var result: [TrackingConfig.PageEvent] = []
    for (phase, key, value) in fields(
      of: node, in: Place(.pageEvents(screen: screen)), expected: "a mapping with 'enter' and/or 'leave'", as: TrackingConfig.PagePhase.self,
      kind: "page event")
    {
      if let event = eventRule(value, key: key, place: Place(.pageEvent(phase, screen: screen))) {
        result.append(TrackingConfig.PageEvent(phase: Located(phase, at: key.range), event: event))
      }
    }
    return result
  }

  private mutating func controlEvents(_ node: YAMLNodeID, screen: YAMLNodeID) -> [TrackingConfig.ControlEvent] {
    let handlers = entries(of: node, in: Place(.controlEvents(screen: screen)), expected: "a mapping from handler names to event IDs")
    var result: [TrackingConfig.ControlEvent] = []
    result.reserveCapacity(handlers.count)
    for (key, value, keyNode) in handlers {
      if let event = eventRule(value, key: key, place: Place(.handler(keyNode, screen: screen))) {
        result.append(TrackingConfig.ControlEvent(key: key, handler: HandlerName.parse(key.value), event: event))
      }
    }
    return result
  }

  /// An event in short form (`EVENT_ID`) or long form (`{event: EVENT_ID, destinations: ..., ...}`).
  mutating func eventRule(_ node: YAMLNodeID, key: Located<String>, place: Place) -> TrackingConfig.EventRule? {
    switch document.kind(node) {
    case .scalar:
      guard let id = eventID(node, place: place) else { return nil }
      return TrackingConfig.EventRule(id: id)
    case .sequence:
      wrongType(.eventIsSequence(what: words(place)), at: document.range(node))
      return nil
    case .mapping:
      var id: Located<String>?
      var only: TrackingConfig.DestinationList?
      var exclude: TrackingConfig.DestinationList?
      var properties: [TrackingConfig.Property] = []
      var wireName: Located<String>?
      var call: Located<TrackingConfig.Call>?
      let fields = self.fields(of: node, in: place, expected: "a mapping", as: Keys.Event.self)
      for (name, field, value) in fields {
        switch name {
        case .event:
          id = eventID(value, place: place)
        case .wireName:
          wireName = nonEmptyString(value, what: Place(place.subject, field: "'wire_name'"))
        case .call:
          call = self.call(value, place: place)
        case .destinations:
          only = stringList(value, what: Place(place.subject, field: "'destinations'")).map {
            TrackingConfig.DestinationList(keyRange: field.range, entries: $0)
          }
        case .exclude:
          exclude = stringList(value, what: Place(place.subject, field: "'exclude'")).map {
            TrackingConfig.DestinationList(keyRange: field.range, entries: $0)
          }
        case .properties:
          properties = self.properties(value, what: Place(place.subject, field: "'properties'"))
        }
      }
      if !fields.contains(where: { $0.name == .event }) { problems.append(.missingKey(.event(what: words(place), at: key.range))) }
      guard let id else { return nil }
      let hasDetails = only != nil || exclude != nil || !properties.isEmpty || wireName != nil || call != nil
      return TrackingConfig.EventRule(
        id: id,
        details: hasDetails
          ? TrackingConfig.EventRule.Details(only: only, exclude: exclude, properties: properties, wireName: wireName, call: call) : nil)
    }
  }

  /// `call: track` or `call: screen`.
  private mutating func call(_ node: YAMLNodeID, place: Place) -> Located<TrackingConfig.Call>? {
    let allowed = TrackingConfig.Call.allCases.map(\.rawValue)
    guard let text = document.stringValue(node), let value = TrackingConfig.Call(rawValue: text) else {
      let suggestion = document.stringValue(node).flatMap { Suggestions.closest(to: $0, in: allowed) }
      wrongType(
        .choice(what: words(Place(place.subject, field: "'call'")), found: found(node), allowed: allowed, suggestion: suggestion),
        at: document.range(node))
      return nil
    }
    return Located(value, at: document.range(node))
  }

  private mutating func eventID(_ node: YAMLNodeID, place: Place) -> Located<String>? {
    let range = document.range(node)
    switch document.value(node) {
    case .string(let text):
      return Located(text, at: range)
    case .null:
      wrongType(.noEventID(what: words(place)), at: range)
    case .int, .float, .bool, .sequence, .mapping:
      wrongType(.eventIDNotString(what: words(place), found: found(node)), at: range)
    }
    return nil
  }

  private mutating func properties(_ node: YAMLNodeID, what: Place) -> [TrackingConfig.Property] {
    var result: [TrackingConfig.Property] = []
    for (key, value, _) in entries(of: node, in: what, expected: "a mapping of property names to values") {
      var property = TrackingConfig.Property(
        key: key, value: PropertyValue(document.value(value)), valueRange: document.range(value), found: found(value))
      if isBinding(value) { property.binding = binding(value, key: key, place: what) }
      result.append(property)
    }
    return result
  }

  /// Whether a property's value is written as a binding: a mapping with one of the binding's keys, or a
  /// near miss of one (`fro:`), so that a typo gets a did-you-mean rather than "found a mapping".
  private func isBinding(_ node: YAMLNodeID) -> Bool {
    guard document.kind(node) == .mapping else { return false }
    return document.pairs(node).contains { pair in
      guard document.kind(pair.key) == .scalar else { return false }
      let key = document.text(pair.key)
      return Keys.Binding(rawValue: key) != nil || Suggestions.closest(to: key, in: Keys.Binding.names) != nil
    }
  }

  /// `{from: id, type: int, optional: true}`.
  private mutating func binding(_ node: YAMLNodeID, key property: Located<String>, place: Place) -> TrackingConfig.Binding {
    var binding = TrackingConfig.Binding(source: nil, path: nil, declaredType: nil, isOptional: false, range: document.range(node))
    let what = "property '\(property.value)' of \(words(Place(place.subject)))"
    let fields = self.fields(of: node, in: .text(what), expected: "a mapping", as: Keys.Binding.self)
    var classification = TrackingConfig.DataClassification(range: binding.range)
    for (name, field, value) in fields {
      switch name {
      case .from:
        if let source = string(value, what: .text("'from' of \(what)")) {
          binding.source = source
          binding.path = BindingPath.parse(source.value)
        }
      case .type:
        binding.declaredType = propertyType(value, what: "the type of \(what)")
      case .optional:
        guard case .bool(let optional) = document.value(value) else {
          wrongType(.notExpected(what: "'optional' of \(what)", expected: "true or false", found: found(value)), at: document.range(value))
          continue
        }
        binding.isOptional = optional
      case .data: classify(.data, field: field, value, what: what, into: &classification)
      case .linked: classify(.linked, field: field, value, what: what, into: &classification)
      case .tracking: classify(.tracking, field: field, value, what: what, into: &classification)
      case .purposes: classify(.purposes, field: field, value, what: what, into: &classification)
      }
    }
    if fields.contains(where: { PrivacyKeys.Classification(rawValue: $0.name.rawValue) != nil }) {
      binding.classification = finished(classification, wroteData: fields.contains { $0.name == .data }, key: property, what: what)
    }
    // A block mapping starts at its first key; a flow mapping at its '{'.
    binding.isFlowMapping = document.pairs(node).first.map { document.range($0.key).start != binding.range.start } ?? true
    if !fields.contains(where: { $0.name == .from }) {
      problems.append(.missingKey(.bindingSource(property: property.value, what: words(Place(place.subject)), at: property.range)))
    }
    return binding
  }

  /// One of `PropertyType`'s names.
  mutating func propertyType(_ node: YAMLNodeID, what: String) -> Located<PropertyType>? {
    let range = document.range(node)
    guard let text = document.stringValue(node), let type = PropertyType(rawValue: text) else {
      let suggestion = document.stringValue(node).flatMap(PropertyType.suggestion(for:))
      wrongType(.propertyType(what: what, found: found(node), suggestion: suggestion), at: range)
      return nil
    }
    return Located(type, at: range)
  }

  /// The plan's `properties`: shared names and their types.
  private mutating func propertyDeclarations(_ node: YAMLNodeID) -> [TrackingConfig.PropertyDeclaration] {
    var result: [TrackingConfig.PropertyDeclaration] = []
    for (name, value, _) in entries(
      of: node, in: .text("'properties'"),
      expected: "a mapping of property names to their types, such as '{product_id: string}', or to '{type: ..., data: ...}'")
    {
      result.append(propertyDeclaration(name, value))
    }
    return result
  }

  // MARK: Mappings

  /// The entries of a mapping, each key read as text (`keyNode` names it in the document): the one walk
  /// over a mapping that every section of the config goes through. Null counts as an empty mapping
  /// (`firebase:` with nothing after it); any other value is reported as the wrong type, `expected`
  /// saying what was expected ("a mapping of destination IDs to their settings"). A key that is not a
  /// string is reported and left out.
  mutating func entries(
    of node: YAMLNodeID, in place: Place, expected: String
  ) -> [(key: Located<String>, value: YAMLNodeID, keyNode: YAMLNodeID)] {
    if document.kind(node) != .mapping && !document.isNull(node) {
      wrongType(.notExpected(what: words(place), expected: expected, found: found(node)), at: document.range(node))
    }
    let pairs = document.pairs(node)
    var result: [(key: Located<String>, value: YAMLNodeID, keyNode: YAMLNodeID)] = []
    result.reserveCapacity(pairs.count)
    for pair in pairs {
      if let key = keyText(pair.key, in: place) { result.append((key, pair.value, pair.key)) }
    }
    return result
  }

  /// The entries of a mapping whose keys the format fixes (`Name`'s cases), read as `entries` reads
  /// them; a key that is not one of them is reported as unknown (`kind` says what a key is there: a
  /// "key", or a "page event"), with the closest allowed one, and left out.
  mutating func fields<Name: ConfigKey>(
    of node: YAMLNodeID, in place: Place, expected: String, as _: Name.Type, kind: String = "key"
  ) -> [(name: Name, key: Located<String>, value: YAMLNodeID)] {
    entries(of: node, in: place, expected: expected).compactMap { key, value, _ in
      guard let name = Name(rawValue: key.value) else {
        problems.append(.unknownKey(key, in: words(place), allowed: Name.names, kind: kind))
        return nil
      }
      return (name, key, value)
    }
  }

  // MARK: Values

  /// The text of a key; nil (after reporting) for keys that are not strings, and nil silently for a merge
  /// key left behind by a failed merge, which the YAML front end has reported.
  private mutating func keyText(_ node: YAMLNodeID, in what: Place) -> Located<String>? {
    guard document.kind(node) == .scalar else {
      wrongType(.keyNotString(in: words(what), found: document.value(node)), at: document.range(node))
      return nil
    }
    if document.isMergeKey(node) { return nil }
    return Located(document.text(node), at: document.range(node))
  }

  mutating func string(_ node: YAMLNodeID, what: Place) -> Located<String>? {
    guard let text = document.stringValue(node) else {
      wrongType(.notString(what: words(what), found: found(node)), at: document.range(node))
      return nil
    }
    return Located(text, at: document.range(node))
  }

  mutating func stringList(
    _ node: YAMLNodeID, what: Place, items: String = "destination IDs such as '[firebase]'"
  ) -> [Located<String>]? {
    guard document.kind(node) == .sequence else {
      wrongType(.notList(what: words(what), items: items, found: found(node)), at: document.range(node))
      return nil
    }
    var result: [Located<String>] = []
    for item in document.items(node) {
      guard let text = document.stringValue(item) else {
        wrongType(.entryNotString(in: words(what), found: found(item)), at: document.range(item))
        continue
      }
      result.append(Located(text, at: document.range(item)))
    }
    return result
  }

  // MARK: Reporting

  mutating func wrongType(_ kind: ConfigProblem.WrongType.Kind, at range: SourceRange) {
    problems.append(.wrongType(ConfigProblem.WrongType(kind: kind, range: range)))
  }

  func found(_ node: YAMLNodeID) -> FoundValue {
    FoundValue(node, in: document)
  }
}

/// The keys a place in the config allows (`ConfigDecoder.Keys`), in the order messages list them.
protocol ConfigKey: RawRepresentable<String>, CaseIterable, Equatable {}

extension ConfigKey {
  static var names: [String] { allCases.map(\.rawValue) }
}

extension TrackingConfig.PagePhase: ConfigKey {}
extension TrackingConfig.ApplicationEvent: ConfigKey {}
