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

  /// The whole config, its screens in file order.
  ///
  /// `streamed` holds screens already decoded while the document was being read (`ScreenStream`, on
  /// another core, for configs of 256 KB and up): a screen is taken from there when the pair it was
  /// decoded from is the pair the document holds, and decoded here otherwise. Below that size the
  /// screens are decoded here, on one thread: decoding them in parallel chunks bought nothing (a 240 KB
  /// config of 200 screens, `--timings`, medians of 15: 3.3 ms pinned to one core, 3.4 ms on two).
  /// Each streamed screen is moved out of `streamed`, not copied: a copy retains every string and array
  /// of the screen, and releasing the originals at the end costs as much again (1.5 ms and 0.5 ms of the
  /// 6.0 MB benchmark config's lint, `perf record`).
  static func decode(_ document: YAMLDocument, streamed: consuming [YAMLNodeID: ScreenStream.Decoded] = [:]) -> (
    config: TrackingConfig?, problems: [ConfigProblem]
  ) {
    var decoder = ConfigDecoder(document: document)
    guard let (head, screenPairs) = decoder.decodeHead() else { return (nil, decoder.problems) }
    var config = head
    var problems = decoder.problems
    decoder.problems.removeAll()
    config.screens.reserveCapacity(screenPairs.count)
    for index in screenPairs.indices {
      let pair = screenPairs[index]
      if let done = streamed.removeValue(forKey: pair.value), done.key == pair.key {
        if let screen = done.screen { config.screens.append(screen) }
        problems += done.problems
      } else if let screen = decoder.screen(pair) {
        config.screens.append(screen)
      }
      problems += decoder.problems
      decoder.problems.removeAll(keepingCapacity: true)
    }
    return (config, problems)
  }

  enum Keys {
    static let root = [
      "version", "sources", "interception", "conventions", "destinations", "defaults", "properties", "screens", "links", "entry_points",
    ]
    static let conventions = ["event_id_pattern", "require_tracking", "require_screens", "lifecycle", "framework_classes"]
    static let requireTracking = ["suffix", "tag"]
    static let lifecycle = ["enter", "leave"]
    static let destination = ["description"]
    static let defaults = ["destinations"]
    static let screen = ["page_events", "control_events"]
    static let pageEvents = TrackingConfig.PagePhase.allCases.map(\.rawValue)
    static let event = ["event", "destinations", "exclude", "properties"]
    static let binding = ["from", "type", "optional"]
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

  /// Decodes everything but the screens, and returns the screens' pairs to decode with `screen(_:)`
  /// (possibly on other threads, with other decoders).
  mutating func decodeHead() -> (TrackingConfig, YAMLPairs)? {
    guard let root = document.root, !document.isNull(root) else {
      problems.append(.empty(at: document.root.map { document.range($0).start } ?? .start))
      return nil
    }
    guard document.kind(root) == .mapping else {
      wrongType(.topLevel(found: document.value(root)), at: document.range(root))
      return nil
    }
    var config = TrackingConfig()
    var screenPairs = document.noPairs
    var seen = Set<String>()
    for pair in document.pairs(root) {
      guard let key = keyText(pair.key, in: .text("the config")) else { continue }
      seen.insert(key.value)
      if key.value == "screens" {
        screenPairs = screens(pair.value, key: key)
      } else {
        decodeTopLevelEntry(key, pair.value, into: &config)
      }
    }
    let start = document.range(root).start
    if !seen.contains("version") { problems.append(.missingKey(.version(at: start))) }
    if !seen.contains("screens") { problems.append(.missingKey(.screens(at: start))) }
    return (config, screenPairs)
  }

  /// One top-level entry other than `screens`.
  mutating func decodeTopLevelEntry(_ key: Located<String>, _ value: YAMLNodeID, into config: inout TrackingConfig) {
    switch key.value {
    case "version": config.version = version(value)
    case "sources": config.sources = stringList(value, what: .text("'sources'"), items: "paths to Swift sources such as '[Sources/App]'")
    case "interception": config.interception = interception(value)
    case "conventions": config.conventions = conventions(value)
    case "destinations": config.destinations = destinations(value)
    case "defaults": config.defaults = defaults(value)
    case "properties": config.propertyDeclarations = propertyDeclarations(value)
    case "links": config.links = links(value, key: key)
    case "entry_points": config.entryPoints = entryPoints(value)
    default: unknownKey(key, in: "the config", allowed: Keys.root)
    }
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
    for pair in mappingPairs(node, what: .text("'conventions'"), expected: "a mapping of convention names to values") {
      guard let key = keyText(pair.key, in: .text("'conventions'")) else { continue }
      switch key.value {
      case "event_id_pattern": conventions.eventIDPattern = string(pair.value, what: .text("'event_id_pattern'"))
      case "require_tracking": conventions.requireTracking = trackingMarker(pair.value, key: key)
      case "require_screens":
        conventions.requireScreens = stringList(pair.value, what: .text("'require_screens'"), items: "base class names such as '[UIViewController]'")
      case "lifecycle": conventions.lifecycle = lifecycle(pair.value)
      case "framework_classes": conventions.frameworkClasses = frameworkClasses(pair.value)
      default: unknownKey(key, in: "'conventions'", allowed: Keys.conventions)
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
    let place = Place.text("'require_tracking'")
    for pair in mappingPairs(node, what: place, expected: "a mapping with 'suffix' and/or 'tag'") {
      guard let field = keyText(pair.key, in: place) else { continue }
      switch field.value {
      case "suffix": marker.suffix = nonEmptyString(pair.value, what: .text("'suffix'"))
      case "tag": marker.tag = nonEmptyString(pair.value, what: .text("'tag'"))
      default: unknownKey(field, in: words(place), allowed: Keys.requireTracking)
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
    let place = Place.text("'lifecycle'")
    for pair in mappingPairs(node, what: place, expected: "a mapping with 'enter' and/or 'leave'") {
      guard let field = keyText(pair.key, in: place) else { continue }
      switch field.value {
      case "enter": lifecycle.enter = stringOrList(pair.value, what: .text("'enter' in 'lifecycle'"), items: "method names such as '[onAppear()]'")
      case "leave": lifecycle.leave = stringOrList(pair.value, what: .text("'leave' in 'lifecycle'"), items: "method names such as '[onDisappear()]'")
      default: unknownKey(field, in: words(place), allowed: Keys.lifecycle)
      }
    }
    return lifecycle
  }

  /// `conventions.framework_classes`: class names to their superclasses.
  private mutating func frameworkClasses(_ node: YAMLNodeID) -> [TrackingConfig.FrameworkClass] {
    var result: [TrackingConfig.FrameworkClass] = []
    let place = Place.text("'framework_classes'")
    for pair in mappingPairs(node, what: place, expected: "a mapping of class names to their superclasses, such as '{DSViewController: UIViewController}'") {
      guard let name = keyText(pair.key, in: place),
        let superclass = string(pair.value, what: .text("the superclass of '\(name.value)' in 'framework_classes'"))
      else { continue }
      result.append(TrackingConfig.FrameworkClass(name: name, superclass: superclass))
    }
    return result
  }

  /// One string, or a list of them.
  private mutating func stringOrList(_ node: YAMLNodeID, what: Place, items: String) -> [Located<String>]? {
    if document.kind(node) == .sequence { return stringList(node, what: what, items: items) }
    return string(node, what: what).map { [$0] }
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
    for pair in mappingPairs(node, what: .text("'destinations'"), expected: "a mapping of destination IDs to their settings") {
      guard let id = keyText(pair.key, in: .text("'destinations'")) else { continue }
      guard !id.value.isEmpty else {
        wrongType(.emptyDestinationID, at: id.range)
        continue
      }
      var destination = TrackingConfig.Destination(id: id, description: nil)
      let place = Place.text("destination '\(id.value)'")
      for field in mappingPairs(pair.value, what: place, expected: "a mapping (use '{}' for a destination without settings)") {
        guard let key = keyText(field.key, in: place) else { continue }
        switch key.value {
        case "description": destination.description = string(field.value, what: .text("'description'"))
        default: unknownKey(key, in: words(place), allowed: Keys.destination)
        }
      }
      result.append(destination)
    }
    return result
  }

  private mutating func defaults(_ node: YAMLNodeID) -> TrackingConfig.Defaults {
    var defaults = TrackingConfig.Defaults()
    for pair in mappingPairs(node, what: .text("'defaults'"), expected: "a mapping") {
      guard let key = keyText(pair.key, in: .text("'defaults'")) else { continue }
      switch key.value {
      case "destinations": defaults.destinations = stringList(pair.value, what: .text("'destinations' in 'defaults'"))
      default: unknownKey(key, in: "'defaults'", allowed: Keys.defaults)
      }
    }
    return defaults
  }

  private mutating func screens(_ node: YAMLNodeID, key: Located<String>) -> YAMLPairs {
    guard document.kind(node) == .mapping else {
      wrongType(.screens(found: found(node)), at: document.isNull(node) ? key.range : document.range(node))
      return document.pairs(node)
    }
    return document.pairs(node)
  }

  /// One entry of `screens`; nil when its key is not a string.
  mutating func screen(_ pair: YAMLPair) -> TrackingConfig.Screen? {
    guard let name = keyText(pair.key, in: .text("'screens'")) else { return nil }
    var screen = TrackingConfig.Screen(name: name, typeName: SwiftTypeName.parse(name.value))
    let place = Place(.screen(pair.key))
    for field in mappingPairs(pair.value, what: place, expected: "a mapping with 'page_events' and/or 'control_events'") {
      guard let section = keyText(field.key, in: place) else { continue }
      switch section.value {
      case "page_events": screen.pageEvents = pageEvents(field.value, screen: pair.key)
      case "control_events": screen.controlEvents = controlEvents(field.value, screen: pair.key)
      default: unknownKey(section, in: words(place), allowed: Keys.screen)
      }
    }
    screen.isEmptyAsWritten = isEmptyScreen(pair.value)
    return screen
  }

  private func isEmptyScreen(_ node: YAMLNodeID) -> Bool {
    if document.isNull(node) { return true }
    guard document.kind(node) == .mapping else { return false }
    return document.pairs(node).allSatisfy { pair in
      guard Keys.screen.contains(where: { document.textEquals(pair.key, $0) }) else { return false }
      return document.isNull(pair.value) || (document.kind(pair.value) == .mapping && document.pairs(pair.value).isEmpty)
    }
  }

  private mutating func pageEvents(_ node: YAMLNodeID, screen: YAMLNodeID) -> [TrackingConfig.PageEvent] {
    var result: [TrackingConfig.PageEvent] = []
    let place = Place(.pageEvents(screen: screen))
    for pair in mappingPairs(node, what: place, expected: "a mapping with 'enter' and/or 'leave'") {
      guard let key = keyText(pair.key, in: place) else { continue }
      guard let phase = TrackingConfig.PagePhase(rawValue: key.value) else {
        unknownKey(key, in: words(place), allowed: Keys.pageEvents, kind: "page event")
        continue
      }
      if let event = eventRule(pair.value, key: key, place: Place(.pageEvent(phase, screen: screen))) {
        result.append(TrackingConfig.PageEvent(phase: Located(phase, at: key.range), event: event))
      }
    }
    return result
  }

  private mutating func controlEvents(_ node: YAMLNodeID, screen: YAMLNodeID) -> [TrackingConfig.ControlEvent] {
    let place = Place(.controlEvents(screen: screen))
    let pairs = mappingPairs(node, what: place, expected: "a mapping from handler names to event IDs")
    var result: [TrackingConfig.ControlEvent] = []
    result.reserveCapacity(pairs.count)
    for pair in pairs {
      guard let key = keyText(pair.key, in: place) else { continue }
      if let event = eventRule(pair.value, key: key, place: Place(.handler(pair.key, screen: screen))) {
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
      var hasEventKey = false
      for pair in document.pairs(node) {
        guard let field = keyText(pair.key, in: place) else { continue }
        switch field.value {
        case "event":
          hasEventKey = true
          id = eventID(pair.value, place: place)
        case "destinations":
          only = stringList(pair.value, what: Place(place.subject, field: "'destinations'")).map {
            TrackingConfig.DestinationList(keyRange: field.range, entries: $0)
          }
        case "exclude":
          exclude = stringList(pair.value, what: Place(place.subject, field: "'exclude'")).map {
            TrackingConfig.DestinationList(keyRange: field.range, entries: $0)
          }
        case "properties":
          properties = self.properties(pair.value, what: Place(place.subject, field: "'properties'"))
        default:
          unknownKey(field, in: words(place), allowed: Keys.event)
        }
      }
      if !hasEventKey { problems.append(.missingKey(.event(what: words(place), at: key.range))) }
      guard let id else { return nil }
      let hasDetails = only != nil || exclude != nil || !properties.isEmpty
      return TrackingConfig.EventRule(
        id: id, details: hasDetails ? TrackingConfig.EventRule.Details(only: only, exclude: exclude, properties: properties) : nil)
    }
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
    for pair in mappingPairs(node, what: what, expected: "a mapping of property names to values") {
      guard let key = keyText(pair.key, in: what) else { continue }
      var property = TrackingConfig.Property(
        key: key, value: PropertyValue(document.value(pair.value)), valueRange: document.range(pair.value), found: found(pair.value))
      if isBinding(pair.value) { property.binding = binding(pair.value, key: key, place: what) }
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
      return Keys.binding.contains(key) || Suggestions.closest(to: key, in: Keys.binding) != nil
    }
  }

  /// `{from: id, type: int, optional: true}`.
  private mutating func binding(_ node: YAMLNodeID, key property: Located<String>, place: Place) -> TrackingConfig.Binding {
    var binding = TrackingConfig.Binding(source: nil, path: nil, declaredType: nil, isOptional: false, range: document.range(node))
    let what = "property '\(property.value)' of \(words(Place(place.subject)))"
    var hasSource = false
    for pair in document.pairs(node) {
      guard let field = keyText(pair.key, in: .text(what)) else { continue }
      switch field.value {
      case "from":
        hasSource = true
        if let source = string(pair.value, what: .text("'from' of \(what)")) {
          binding.source = source
          binding.path = BindingPath.parse(source.value)
        }
      case "type":
        binding.declaredType = propertyType(pair.value, what: "the type of \(what)")
      case "optional":
        guard case .bool(let optional) = document.value(pair.value) else {
          wrongType(.notExpected(what: "'optional' of \(what)", expected: "true or false", found: found(pair.value)), at: document.range(pair.value))
          continue
        }
        binding.isOptional = optional
      default:
        unknownKey(field, in: what, allowed: Keys.binding)
      }
    }
    if !hasSource { problems.append(.missingKey(.bindingSource(property: property.value, what: words(Place(place.subject)), at: property.range))) }
    return binding
  }

  /// One of `PropertyType`'s names.
  private mutating func propertyType(_ node: YAMLNodeID, what: String) -> Located<PropertyType>? {
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
    let place = Place.text("'properties'")
    for pair in mappingPairs(node, what: place, expected: "a mapping of property names to their types, such as '{product_id: string}'") {
      guard let name = keyText(pair.key, in: place) else { continue }
      result.append(
        TrackingConfig.PropertyDeclaration(name: name, type: propertyType(pair.value, what: "the type of property '\(name.value)' in 'properties'")))
    }
    return result
  }

  // MARK: Values

  /// The pairs of a mapping; null counts as empty (`firebase:` with nothing after it), anything else is
  /// a wrong-type error.
  mutating func mappingPairs(_ node: YAMLNodeID, what: Place, expected: String) -> YAMLPairs {
    let kind = document.kind(node)
    if kind != .mapping && !document.isNull(node) {
      wrongType(.notExpected(what: words(what), expected: expected, found: found(node)), at: document.range(node))
    }
    return document.pairs(node)
  }

  /// The text of a key; nil (after reporting) for keys that are not strings, and nil silently for a merge
  /// key left behind by a failed merge, which the YAML front end has reported.
  mutating func keyText(_ node: YAMLNodeID, in what: Place) -> Located<String>? {
    guard document.kind(node) == .scalar else {
      wrongType(.keyNotString(in: words(what), found: document.value(node)), at: document.range(node))
      return nil
    }
    if document.isMergeKey(node) { return nil }
    return Located(document.text(node), at: document.range(node))
  }

  private mutating func string(_ node: YAMLNodeID, what: Place) -> Located<String>? {
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

  mutating func unknownKey(_ key: Located<String>, in what: String, allowed: [String], kind: String = "key") {
    problems.append(.unknownKey(key, in: what, allowed: allowed, kind: kind))
  }

  mutating func wrongType(_ kind: ConfigProblem.WrongType.Kind, at range: SourceRange) {
    problems.append(.wrongType(ConfigProblem.WrongType(kind: kind, range: range)))
  }

  private func found(_ node: YAMLNodeID) -> FoundValue {
    FoundValue(node, in: document)
  }
}
