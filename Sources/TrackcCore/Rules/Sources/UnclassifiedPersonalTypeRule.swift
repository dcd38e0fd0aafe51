/// A bound value whose Swift type looks like personal data (`EmailAddress`, `PhoneNumber`,
/// `CLLocationDegrees`, `PersonNameComponents`) but that the plan does not classify, in any plan (the
/// privacy manifest would leave it out). The names alone are `unclassified-personal-data`'s; this rule reads what the
/// code says the value is, and stays quiet where that rule has spoken.
public enum UnclassifiedPersonalTypeRule: CodeRule {
  public static let id = "unclassified-personal-type"
  public static let summary =
    "A bound value whose Swift type looks like personal data should say what data it is ('data:'), or the privacy manifest leaves it out."
  public static let severity = Diagnostic.Severity.warning

  /// A screen whose state holds a card number, of a type of its own.
  private static let checkout = [
    "Sources/Checkout/Checkout.swift": """
    struct CardNumber: CustomStringConvertible { var description: String }
    class CheckoutViewController {
      var card = CardNumber(description: "")
      func pay(_ sender: Any) {}
    }
    """
  ]

  public static let examples: [RuleExample] = [
    .triggers(
      config(card: "1️⃣card: {from: self.card, type: string}"),
      swift: checkout,
      expecting: [
        .warning(
          "property 'card' of handler 'pay(_:)' of 'CheckoutViewController' reads a 'CardNumber', which looks like personal data (payment_info), but does not say what data it is"
        )
      ]),
    // What a generic argument says comes along the path: `Holder<EmailAddress>`'s `value: T`.
    .triggers(
      config(card: "1️⃣receipt: {from: self.receipt.value}"),
      swift: [
        "Sources/Checkout/Checkout.swift": """
        typealias EmailAddress = String
        struct Holder<T> { var value: T }
        class CheckoutViewController {
          var receipt: Holder<EmailAddress>
          func pay(_ sender: Any) {}
        }
        """
      ],
      expecting: [
        .warning(
          "property 'receipt' of handler 'pay(_:)' of 'CheckoutViewController' reads a 'EmailAddress', which looks like personal data (email_address), but does not say what data it is"
        )
      ]),
    .passes(
      config(card: "card: {from: self.card, type: string, data: payment_info}"),
      swift: checkout),
  ]

  /// The examples' config, which differs only in what it says of the card.
  private static func config(card: String) -> String {
    """
    version: 1
    interception: dynamic-replacement
    privacy:
      identity: {anonymous_id: {data: device_id}}
    destinations:
      firebase: {wire_name: Firebase, purposes: [app_functionality]}
    screens:
      CheckoutViewController:
        control_events:
          pay(_:): {event: CHECKOUT_PAY, properties: {\(card)}}
    """
  }

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    let plan = code.plan
    let declared = Set((plan.config.propertyDeclarations ?? []).filter { $0.classification != nil }.map(\.name.value))
    code.forEachBinding { site in
      guard let binding = site.property.binding, binding.classification == nil, !declared.contains(site.property.key.value),
        PersonalDataNames.guess(site.property.key.value) == nil, !(binding.path.map(nameLooksPersonal) ?? false)
      else { return }
      var typeName: String
      let declaration: SourceLocation
      // The type as written and each alias followed (`CLLocationDegrees` is a `Double`): the names say
      // what the value is.
      var names: [String]
      switch site.resolution {
      case .resolved(let value):
        typeName = value.valueType.name
        names = [value.writtenType] + value.aliases + [typeName]
        declaration = value.declaration
      case .outsideSources(let value):
        typeName = value.typeName
        // With the aliases and generic arguments on the way (`T` of a `Holder<CLLocation>` is a `CLLocation`).
        names = [typeName] + value.aliases
        declaration = value.declaration
      default:
        return
      }
      guard let (name, type) = names.lazy.compactMap({ name in PersonalDataNames.guess(name).map { (name, $0) } }).first else { return }
      typeName = name
      context.report(
        Self.self,
        "\(site.subject) reads a '\(typeName)', which looks like personal data (\(type.rawValue)), but does not say what data it is",
        at: site.property.key.range,
        notes: [
          Diagnostic.Note("the value is declared here", at: declaration),
          Diagnostic.Note("add 'data: \(type.rawValue)' (or another data type) to it, or declare it under 'properties'"),
        ],
        fixIt: UnclassifiedPersonalDataRule.fixIt(adding: type, to: binding, context: context))
    }
  }

  /// Whether the path's last name looks like personal data (then `unclassified-personal-data` reports it).
  private static func nameLooksPersonal(_ path: Result<BindingPath, BindingPath.ParseError>) -> Bool {
    guard case .success(let path) = path else { return false }
    if let last = path.steps.last { return PersonalDataNames.guess(last) != nil }
    if case .parameter(let name) = path.root { return PersonalDataNames.guess(name) != nil }
    return false
  }
}
