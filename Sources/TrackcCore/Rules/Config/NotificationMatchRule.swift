/// A notification that no payload can select, or whose parameters no selected payload can give: the
/// entry point never opens from a notification, and nothing says so until someone wonders why.
///
/// A payload's value is read at a key path: a string, an integer or a Boolean (`NotificationPayload`).
/// So an empty `match` selects nothing (the generated reader never tries it), a key that `match` tests
/// cannot also be a dictionary that a longer key path goes through, and a parameter cannot be read
/// under a key `match` needs to be a value, or at a key `match` needs to be a dictionary.
public enum NotificationMatchRule: PlanRule {
  public static let id = "notification-match"
  public static let summary =
    "A notification's 'match' should be one a payload can satisfy (not empty, no key both a value and a dictionary), and its parameters readable beside it; a warning."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      """
      \(config)
        order: {screen: Order, 1️⃣notification: {match: {}}}
        chat: {screen: Chat, notification: {match: {type: chat, 2️⃣type.id: x}}}
        sale:
          screen: Sale
          notification:
            match: {type: sale, campaign.id: spring}
            parameters: {code: {from: 3️⃣payload.type.code}, campaign: {from: 4️⃣payload.campaign}}
      """,
      expecting: [
        .warning(
          "the notification of entry point 'order' has an empty 'match', which selects no payload: it never opens the app; list a key path the payloads carry and its value"
        ),
        .warning(
          "'match' of entry point 'chat' tests 'type' and 'type.id', so 'type' would be a value and a dictionary at once, which no payload is: the notification never opens the app"
        ),
        .warning(
          "parameter 'code' of entry point 'sale' reads 'payload.type.code', but 'match' needs 'type' to be a value, so there is nothing under it: the notification never opens the app"
        ),
        .warning(
          "parameter 'campaign' of entry point 'sale' reads 'payload.campaign', but 'match' needs it to be a dictionary (it tests a key under it), which is no value: the notification never opens the app"
        ),
      ]),
    .passes(
      """
      \(config)
        order: {screen: Order, notification: {match: {type: order}}}
        chat: {screen: Chat, notification: {match: {type: chat, chat.id: x}}}
        sale:
          screen: Sale
          notification:
            match: {type: sale, campaign.id: spring}
            parameters: {code: {from: payload.code}, campaign: {from: payload.campaign.id}}
      """),
  ]

  /// The examples' screens.
  private static let config = """
    version: 1
    screens:
      Order: {page_events: {enter: ORDER_ENTER}}
      Chat: {page_events: {enter: CHAT_ENTER}}
      Sale: {page_events: {enter: SALE_ENTER}}
    entry_points:
    """

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    for route in plan.entryPoints.routes {
      let entry = plan.config.entryPoints[route.entry]
      guard let written = entry.notification, let notification = route.notification else { continue }
      let name = "entry point '\(entry.name.value)'"
      if written.match.isEmpty {
        context.report(
          Self.self,
          "the notification of \(name) has an empty 'match', which selects no payload: it never opens the app; list a key path the payloads carry and its value",
          at: written.range)
        continue
      }
      // Keys `match` needs to be values; the dictionaries the longer ones go through.
      let values = Set(notification.match.map(\.path))
      func prefixes(_ path: String) -> [String] {
        let keys = path.split(separator: ".")
        return (1..<max(1, keys.count)).map { keys.prefix($0).joined(separator: ".") }
      }
      // Only the key paths the plan keeps (at most `EntryPointPlan.maximumKeyPathDepth` keys; the others
      // are errors of their own), so that the prefixes stay few.
      for (key, _) in written.match where values.contains(key.value) {
        guard let value = prefixes(key.value).first(where: values.contains) else { continue }
        context.report(
          Self.self,
          "'match' of \(name) tests '\(value)' and '\(Diagnostic.excerpt(key.value))', so '\(value)' would be a value and a dictionary at once, which no payload is: the notification never opens the app",
          at: key.range)
      }
      let dictionaries = Set(notification.match.flatMap { prefixes($0.path) })
      for parameter in notification.parameters {
        let range = written.parameters.first { $0.name.value == parameter.name }?.from?.range ?? written.range
        if let value = prefixes(parameter.path).first(where: values.contains) {
          context.report(
            Self.self,
            "parameter '\(parameter.name)' of \(name) reads 'payload.\(Diagnostic.excerpt(parameter.path))', but 'match' needs '\(value)' to be a value, so there is nothing under it: \(parameter.requirement == .required ? "the notification never opens the app" : "the parameter is always absent")",
            at: range)
        } else if dictionaries.contains(parameter.path) {
          context.report(
            Self.self,
            "parameter '\(parameter.name)' of \(name) reads 'payload.\(Diagnostic.excerpt(parameter.path))', but 'match' needs it to be a dictionary (it tests a key under it), which is no value: \(parameter.requirement == .required ? "the notification never opens the app" : "the parameter is always absent")",
            at: range)
        }
      }
    }
  }
}
