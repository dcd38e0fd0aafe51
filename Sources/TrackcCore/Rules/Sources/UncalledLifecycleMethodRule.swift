/// A SwiftUI screen whose page events ride on a lifecycle method (`onAppear()`, under
/// `dynamic-replacement`) that its own code never calls: the replacement reports the event when the
/// method runs, and SwiftUI never calls a view's method of that name by itself, so the event never fires.
/// The view's body must call it (`.onAppear { onAppear() }`, `.onAppear(perform: onAppear)`), directly or
/// through the methods and properties it calls or reads: a call from a method nothing in the body reaches
/// (a `start()` no one calls, an `init`) does not count.
///
/// Read from the view's code in the files whose bodies the scanner reads (those that import SwiftUI or
/// declare a `some View`); a call from another type's code is not seen.
public enum UncalledLifecycleMethodRule: CodeRule {
  public static let id = "uncalled-lifecycle-method"
  public static let summary =
    "Under dynamic-replacement, a SwiftUI screen's lifecycle method that carries page events (onAppear(), onDisappear()) must be called by its body."
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        ReceiptView: {page_events: {1️⃣enter: RECEIPT_ENTER, leave: RECEIPT_LEAVE}}
      """,
      swift: [
        "Sources/Receipt/ReceiptView.swift": """
        import SwiftUI
        struct ReceiptView: View {
          var body: some View { Text("Receipt").onDisappear(perform: onDisappear) }
          func onAppear() {}
          func onDisappear() {}
        }
        """
      ],
      expecting: [
        .warning(
          "SwiftUI screen 'ReceiptView' declares 'onAppear()', which carries its enter event, but its body never calls it, so the event never fires: call it from the body ('.onAppear { onAppear() }'), or add '.tracked(.receiptView)'"
        )
      ]),
    .triggers(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        ReceiptView: {page_events: {1️⃣enter: RECEIPT_ENTER, leave: RECEIPT_LEAVE}}
      """,
      swift: [
        "Sources/Receipt/ReceiptView.swift": """
        import SwiftUI
        struct ReceiptView: View {
          var body: some View { content }
          var content: some View { Text("Receipt").onDisappear(perform: finish) }
          func start() { onAppear() }
          func finish() { onDisappear() }
          func onAppear() {}
          func onDisappear() {}
        }
        """
      ],
      expecting: [
        .warning(
          "SwiftUI screen 'ReceiptView' declares 'onAppear()', which carries its enter event, but its body never calls it, so the event never fires: call it from the body ('.onAppear { onAppear() }'), or add '.tracked(.receiptView)'"
        )
      ]),
    .passes(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        ReceiptView: {page_events: {enter: RECEIPT_ENTER, leave: RECEIPT_LEAVE}}
      """,
      swift: [
        "Sources/Receipt/ReceiptView.swift": """
        import SwiftUI
        struct ReceiptView: View {
          var body: some View {
            Text("Receipt")
              .onAppear { onAppear() }
              .onDisappear(perform: onDisappear)
          }
          func onAppear() {}
          func onDisappear() {}
        }
        """
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    let plan = code.plan
    guard plan.interception == .dynamicReplacement else { return }
    let swiftUI = code.index.swiftUI
    let cases = SwiftUIScreenCases(code)
    let tracked = Set(swiftUI.trackedUses.map(\.caseName))
    for entry in cases.entries where !tracked.contains(entry.caseName) {
      let written = plan.written(entry.screen)
      var reported = Set<MethodReference>()
      for page in written.pageEvents {
        guard let method = code.lifecycleMethod(for: page.phase.value, of: entry.type), reported.insert(method).inserted else { continue }
        let declared = code.index[method]
        // Called by the view's code, or by the code of the type that declares it (a superclass does not
        // exist for a struct; an extension in a file whose body is not read is not seen).
        let callers = [entry.type, method.type]
        guard !callers.contains(where: { swiftUI.calledMethods[$0]?.contains(declared.baseName) == true }) else { continue }
        let phases = written.pageEvents.filter { code.lifecycleMethod(for: $0.phase.value, of: entry.type) == method }
          .map(\.phase.value.rawValue).joined(separator: " and ")
        context.report(
          Self.self,
          "SwiftUI screen '\(written.name.value)' declares '\(declared.name)', which carries its \(phases) event, but its body never calls it, so the event never fires: call it from the body ('.\(declared.baseName) { \(declared.baseName)() }'), or add '.tracked(.\(entry.caseName))'",
          at: page.phase.range, notes: [Diagnostic.Note("'\(declared.name)' is declared here", at: declared.nameLocation)])
      }
    }
  }
}
