/// The Swift names the generated routes give what the config names: a case per entry point, a label per
/// parameter, a type per enumeration parameter, a case per shortcut condition. Derived (ASCII, camel
/// case), so each is an identifier by construction; `entry-point-name` reports two names that would be
/// the same.
enum RouteNames {
  /// Members the generated `Route` has, which a case may not be called.
  static let reservedMembers: Set<String> = [
    "url", "entryPoint", "openEvent", "parse", "init", "shortcuts", "linkRules", "start", "step", "accept", "self", "Type", "hashValue",
    "hash", "notificationRoute", "shortcutRoute", "Condition",
  ]

  /// `order_shipped` -> `orderShipped`.
  static func caseName(_ name: String) -> ValidIdentifier {
    let identifier = SwiftSource.identifier(fromEventID: name)
    return reservedMembers.contains(identifier.bare) ? ValidIdentifier(derived: identifier.bare + "_") : identifier
  }

  /// `order_id` -> `orderId`.
  static func label(_ name: String) -> ValidIdentifier {
    SwiftSource.identifier(fromEventID: name)
  }

  /// `product` and `tab` -> `ProductTab`: the enumeration type of a parameter.
  static func enumerationType(route: String, parameter: String) -> ValidIdentifier {
    let words = caseName(route).bare + "_" + label(parameter).bare
    let camel = SwiftSource.identifier(fromEventID: words).bare
    return ValidIdentifier(derived: camel.prefix(1).uppercased() + camel.dropFirst())
  }
}
