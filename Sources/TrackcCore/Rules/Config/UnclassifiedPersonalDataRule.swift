/// A value read from the app whose name looks like personal data (`email`, `phone`, `latitude`,
/// `advertising_id`, ...) but that the plan does not classify: the privacy manifest trackc writes, and so
/// the App Store label, would leave it out. In every plan, whether it declares its privacy or not: the
/// manifest always declares what the runtime sends (the events, the anonymous ID, the device's context),
/// and this says where the plan sends more than that without saying what.
///
/// A guess from names (`PersonalDataNames`): the fix adds the suggested `data:`, to be checked by a person.
public enum UnclassifiedPersonalDataRule: PlanRule {
  public static let id = "unclassified-personal-data"
  public static let summary =
    "A bound property whose name looks like personal data should say what data it is ('data:'), or the privacy manifest leaves it out."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      privacy:
        consent: {analytics: {default: granted}}
      destinations:
        firebase: {wire_name: Firebase, purposes: [analytics], consent: analytics}
      screens:
        Profile:
          control_events:
            onSave(email:phone:):
              event: PROFILE_SAVE
              properties:
                1️⃣contact: {from: email}
                2️⃣phone_number:
                  from: phone
            onLocate(_:): {event: PROFILE_LOCATE, properties: {3️⃣lat: {from: self.here.latitude, type: double}}}
      """,
      expecting: [
        .warning(
          "property 'contact' of handler 'onSave(email:phone:)' of 'Profile' looks like personal data (email_address) but does not say what data it is"
        ),
        .warning(
          "property 'phone_number' of handler 'onSave(email:phone:)' of 'Profile' looks like personal data (phone_number) but does not say what data it is"
        ),
        .warning(
          "property 'lat' of handler 'onLocate(_:)' of 'Profile' looks like personal data (precise_location) but does not say what data it is"),
      ]),
    .passes(
      """
      version: 1
      privacy:
        identity: {anonymous_id: {data: device_id}}
      destinations:
        firebase: {wire_name: Firebase, purposes: [analytics, app_functionality]}
      properties:
        phone_number: {type: string, data: phone_number}
      screens:
        Profile:
          control_events:
            onSave(email:phone:):
              event: PROFILE_SAVE
              properties: {contact: {from: email, data: email_address}, phone_number: {from: phone}}
      """),
    // A plan that says nothing of privacy: its manifest declares what the runtime sends, and no more.
    .triggers(
      RuleExample.handlerConfig(
        "Profile", "onSave(email:)", event: "PROFILE_SAVE", properties: "{1️⃣email: {from: email}}"),
      expecting: [
        .warning(
          "property 'email' of handler 'onSave(email:)' of 'Profile' looks like personal data (email_address) but does not say what data it is")
      ]),
    .passes(
      RuleExample.handlerConfig(
        "Cart", "onAdd(quantity:)", event: "CART_ADD", properties: "{quantity: {from: quantity}, source: cart}")),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    let declared = Set((plan.config.propertyDeclarations ?? []).filter { $0.classification != nil }.map(\.name.value))
    for bound in plan.bindings {
      let property = plan.written(bound)
      guard let binding = property.binding, binding.classification == nil, !declared.contains(property.key.value) else { continue }
      let lastStep: String? = {
        guard case .success(let path)? = binding.path else { return nil }
        if let last = path.steps.last { return last }
        if case .parameter(let name) = path.root { return name }
        return nil
      }()
      guard let type = PersonalDataNames.guess(property.key.value) ?? lastStep.flatMap(PersonalDataNames.guess) else { continue }
      let event = plan[bound.event]
      context.report(
        Self.self,
        "property '\(property.key.value)' of \(plan.describe(event)) looks like personal data (\(type.rawValue)) but does not say what data it is",
        at: property.key.range,
        notes: [Diagnostic.Note("add 'data: \(type.rawValue)' (or another data type) to it, or declare it under 'properties'")],
        fixIt: fixIt(adding: type, to: binding, context: context))
    }
  }

  /// `data: <type>` added after `from`'s value: `, data: ...` in a flow mapping, a line of its own in a
  /// block one.
  static func fixIt(adding type: PersonalDataType, to binding: TrackingConfig.Binding, context: RuleContext) -> Diagnostic.FixIt? {
    guard let source = binding.source else { return nil }
    let at = SourceRange(at: source.range.end)
    let text =
      binding.isFlowMapping
      ? ", data: \(type.rawValue)" : "\n" + String(repeating: " ", count: max(0, binding.range.start.column - 1)) + "data: \(type.rawValue)"
    return Diagnostic.FixIt("add 'data: \(type.rawValue)'", replacing: context.location(at), with: text)
  }
}
