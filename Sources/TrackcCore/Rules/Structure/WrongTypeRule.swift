/// A value of the wrong kind: a list where a mapping belongs, a number where an event ID belongs.
public enum WrongTypeRule: StructureRule {
  public static let id = "wrong-type"
  public static let summary = "Every value must have the type the config format expects there."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      "1️⃣- version: 1\n- screens: {}\n",
      expecting: [.error("the top level of a trackc config must be a mapping with 'version' and 'screens', found a sequence")]),
    .triggers(
      """
      version: 1
      defaults: {destinations: 1️⃣firebase}
      screens:
        Home:
          page_events: 2️⃣[HOME_ENTER]
          control_events:
            onFav(_:): 3️⃣42
            onShare(_:): {event: 4️⃣[A, B]}
            5️⃣[a, b]: C
            onOpen(id:): {event: OPEN, properties: {id: {from: 6️⃣[id], type: 7️⃣Int, optional: 8️⃣yes}}}
      """,
      expecting: [
        .error("'destinations' in 'defaults' must be a list of destination IDs such as '[firebase]', found a string 'firebase'"),
        .error("'page_events' of 'Home' must be a mapping with 'enter' and/or 'leave', found a sequence"),
        .error("the event ID of handler 'onFav(_:)' of 'Home' must be a string, found an integer 42; quote it if it is meant as text"),
        .error("the event ID of handler 'onShare(_:)' of 'Home' must be a string, found a sequence"),
        .error("keys in 'control_events' of 'Home' must be strings, found a sequence"),
        .error("'from' of property 'id' of handler 'onOpen(id:)' of 'Home' must be a string, found a sequence"),
        .error(
          "the type of property 'id' of handler 'onOpen(id:)' of 'Home' must be one of 'string', 'int', 'double', 'bool', found a string 'Int'; did you mean 'int'?"
        ), .error("'optional' of property 'id' of handler 'onOpen(id:)' of 'Home' must be true or false, found a string 'yes'"),
      ]),
    .triggers(
      "version: 1\nscreens:\n  Home:\n    page_events:\n      enter: {event: HOME_ENTER, call: 1️⃣trak, wire_name: 2️⃣''}\n",
      expecting: [
        .error("'call' of the enter event of 'Home' must be 'track' or 'screen', found a string 'trak'; did you mean 'track'?"),
        .error("'wire_name' of the enter event of 'Home' cannot be empty"),
      ]),
    .triggers(
      "version: 1\nproperties: {product_id: 1️⃣text, position: 2️⃣[int]}\nscreens: {}\n",
      expecting: [
        .error(
          "the type of property 'product_id' in 'properties' must be one of 'string', 'int', 'double', 'bool', found a string 'text'; did you mean 'string'?"
        ), .error("the type of property 'position' in 'properties' must be one of 'string', 'int', 'double', 'bool', found a sequence"),
      ]),
    .passes(
      """
      version: 1
      conventions: {event_id_pattern: '^[A-Z0-9_]+$'}
      destinations: {firebase: {wire_name: Firebase}}
      defaults: {destinations: [firebase]}
      screens:
        Home:
          page_events: {enter: HOME_ENTER}
          control_events:
            onFav(_:): HOME_FAV
            onShare(_:): {event: "42"}
            onOpen(id:): {event: OPEN, properties: {id: {from: id, type: string, optional: true}}}
      properties: {product_id: string}
      """),
  ]

  // Found by the config decoder (`ConfigProblem.wrongType`), which knows what each place expects.
  static func report(_ problem: ConfigProblem.WrongType, in context: inout RuleContext) {
    context.report(Self.self, message(problem.kind), at: problem.range)
  }

  static func message(_ kind: ConfigProblem.WrongType.Kind) -> String {
    switch kind {
    case .topLevel(let found):
      return "the top level of a trackc config must be a mapping with 'version' and 'screens', found \(found.kindDescription)"
    case .interception(let found, let allowed, let suggestion):
      let modes = allowed.map { "'\($0)'" }.joined(separator: " or ")
      return "'interception' must be \(modes), found \(found)" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    case .screens(let found):
      return "'screens' must be a mapping from screen type names to their events, found \(found)"
    case .empty(let what):
      return "\(what) cannot be empty"
    case .emptyDestinationID:
      return "a destination ID cannot be empty"
    case .eventIsSequence(let what):
      return "\(what) must be an event ID or a mapping with 'event', found a sequence"
    case .noEventID(let what):
      return "\(what) has no event ID"
    case .eventIDNotString(let what, let found):
      switch found {
      case .integer, .number, .boolean:
        return "the event ID of \(what) must be a string, found \(found); quote it if it is meant as text"
      default:
        return "the event ID of \(what) must be a string, found \(found)"
      }
    case .notExpected(let what, let expected, let found):
      return "\(what) must be \(expected), found \(found)"
    case .keyNotString(let what, let found):
      return "keys in \(what) must be strings, found \(found.kindDescription)"
    case .notString(let what, let found):
      return "\(what) must be a string, found \(found)"
    case .notList(let what, let items, let found):
      return "\(what) must be a list of \(items), found \(found)"
    case .entryNotString(let what, let found):
      return "entries of \(what) must be strings, found \(found)"
    case .propertyType(let what, let found, let suggestion):
      let allowed = PropertyType.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
      return "\(what) must be one of \(allowed), found \(found)" + (suggestion.map { "; did you mean '\($0.rawValue)'?" } ?? "")
    case .choice(let what, let found, let allowed, let suggestion):
      let words = allowed.map { "'\($0)'" }.joined(separator: " or ")
      return "\(what) must be \(words), found \(found)" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    }
  }
}
