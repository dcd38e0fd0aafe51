/// An entry of `conventions.framework_classes` that cannot be placed in the class hierarchy: its name is
/// not a class name, its superclass is neither an Apple class trackc knows nor another entry (a typo:
/// with a did-you-mean), or the entries inherit from each other in a circle.
public enum FrameworkClassRule: PlanRule {
  public static let id = "framework-class"
  public static let summary =
    "Every entry of conventions.framework_classes must name a class and a superclass trackc knows (Apple's, or another entry)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      conventions:
        framework_classes:
          DSViewController: 1️⃣UIViewControler
          DSListViewController: 2️⃣DSList
          3️⃣DS.Sheet<T>: UIViewController
      screens: {}
      """,
      expecting: [
        .error(
          "superclass 'UIViewControler' of 'DSViewController' is neither an Apple class trackc knows nor another entry of framework_classes; did you mean 'UIViewController'?"
        ), .error("superclass 'DSList' of 'DSListViewController' is neither an Apple class trackc knows nor another entry of framework_classes"),
        .error("'DS.Sheet<T>' is not a class name; write the class as Swift names it, without module or generic arguments"),
      ]),
    .passes(
      """
      version: 1
      conventions:
        framework_classes:
          DSListViewController: DSViewController
          DSViewController: UITableViewController
      screens: {}
      """),
  ]

  public static func check(_ plan: ResolvedPlan, in context: inout RuleContext) {
    let entries = plan.config.conventions.frameworkClasses
    guard !entries.isEmpty else { return }
    let known = FrameworkClasses(plan.config.conventions)
    let names = Set(entries.map(\.name.value))
    for entry in entries {
      guard SwiftIdentifier.isValid(Substring(entry.name.value), as: .declaration) else {
        context.report(
          Self.self, "'\(entry.name.value)' is not a class name; write the class as Swift names it, without module or generic arguments",
          at: entry.name.range)
        continue
      }
      let superclass = entry.superclass.value
      if !known.contains(superclass) {
        let suggestion = Suggestions.closest(to: superclass, in: known.names)
        context.report(
          Self.self,
          "superclass '\(superclass)' of '\(entry.name.value)' is neither an Apple class trackc knows nor another entry of framework_classes"
            + (suggestion.map { "; did you mean '\($0)'?" } ?? ""),
          at: entry.superclass.range,
          fixIt: suggestion.map { context.fixIt(replacing: entry.superclass.range, with: $0) })
      } else if names.contains(superclass), known.ancestry(of: superclass).contains(entry.name.value) {
        context.report(
          Self.self, "'\(entry.name.value)' and '\(superclass)' inherit from each other; a class hierarchy has no circles", at: entry.superclass.range
        )
      }
    }
  }
}
