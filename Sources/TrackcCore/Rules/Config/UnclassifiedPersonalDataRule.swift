/// A value read from the app whose name looks like personal data (`email`, `phone`, `latitude`,
/// `advertising_id`, ...) but that the plan does not classify, in a plan that declares its privacy: the
/// manifest and the App Store label would leave it out. Also the anonymous ID every event carries, when
/// `privacy.identity` does not say what it is.
///
/// Only for plans that say something about privacy, so a plan that says nothing lints as it did. A
/// guess from names (`PersonalDataNames`): the fix adds the suggested `data:`, to be checked by a person.
public enum UnclassifiedPersonalDataRule: PlanRule {
  public static let id = "unclassified-personal-data"
  public static let summary =
    "In a plan that declares its privacy, a bound property whose name looks like personal data should say what data it is ('data:')."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      1️⃣privacy:
        consent: {analytics: {default: granted}}
      destinations:
        firebase: {purposes: [analytics], consent: analytics}
      screens:
        Profile:
          control_events:
            onSave(email:phone:):
              event: PROFILE_SAVE
              properties:
                2️⃣contact: {from: email}
                3️⃣phone_number:
                  from: phone
            onLocate(_:): {event: PROFILE_LOCATE, properties: {4️⃣lat: {from: self.here.latitude, type: double}}}
      """,
      expecting: [
        .warning("every event carries the anonymous ID, which 'privacy' does not classify"),
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
        firebase: {purposes: [analytics, app_functionality]}
      properties:
        phone_number: {type: string, data: phone_number}
      screens:
        Profile:
          control_events:
            onSave(email:phone:):
              event: PROFILE_SAVE
              properties: {contact: {from: email, data: email_address}, phone_number: {from: phone}}
      """),
    .passes(
      RuleExample.handlerConfig(
        "Profile", "onSave(email:)", event: "PROFILE_SAVE", properties: "{email: {from: email}}")),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    guard plan.privacy.isDeclared else { return }
    if let privacy = plan.config.privacy, privacy.identity?.anonymousID == nil {
      context.report(
        Self.self, "every event carries the anonymous ID, which 'privacy' does not classify", at: privacy.range,
        notes: [Diagnostic.Note("say what it is under 'identity', for example 'identity: {anonymous_id: {data: device_id}}'")])
    }
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
