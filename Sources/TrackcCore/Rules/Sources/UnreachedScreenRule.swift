/// The config to code check of SwiftUI screens: a SwiftUI view listed with page events that nothing
/// reports. A view's appearance is reported by the generated `.tracked(_:)` modifier on it; under
/// `interception: objc-runtime`, by the hosting controller whose root view it is (unless that controller
/// is a screen of the plan itself, whose appearance is then the controller's); under
/// `dynamic-replacement`, by the view's own lifecycle methods (`conventions.lifecycle`, such as an
/// `onAppear()` its body calls). A hosting controller whose root erases the view's type (`AnyView`, a
/// generic wrapper view) reports no screen: that view needs `.tracked(_:)`.
public enum UnreachedScreenRule: CodeRule {
  public static let id = "unreached-screen"
  public static let summary =
    "A SwiftUI screen with page events must carry .tracked(_:) (or be a hosting controller's root view, under objc-runtime; or declare its lifecycle methods, under dynamic-replacement)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      screens:
        SettingsView: {page_events: {1️⃣enter: SETTINGS_ENTER, leave: SETTINGS_LEAVE}}
        ProfileView: {page_events: {enter: PROFILE_ENTER}}
      """,
      swift: [
        "Sources/Settings/SettingsView.swift": """
        import SwiftUI
        struct SettingsView: View {
          var body: some View { Form {} }
        }
        struct ProfileView: View {
          var body: some View { Text("Profile") }
        }
        final class ProfileViewController: UIHostingController<ProfileView> {}
        """
      ],
      expecting: [
        .error(
          "SwiftUI screen 'SettingsView' has enter and leave events that nothing reports: add '.tracked(.settingsView)' to its body, or show it as the root view of a UIHostingController"
        )
      ]),
    .triggers(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        ProfileView: {page_events: {1️⃣enter: PROFILE_ENTER}}
      """,
      swift: [
        "Sources/Settings/ProfileView.swift": """
        import SwiftUI
        struct ProfileView: View {
          var body: some View { Text("Profile") }
        }
        func makeProfile() -> UIViewController { UIHostingController(rootView: ProfileView()) }
        """
      ],
      expecting: [
        .error(
          "SwiftUI screen 'ProfileView' has enter events that nothing reports: add '.tracked(.profileView)' to its body, or declare the lifecycle method that carries them (conventions.lifecycle); a hosting controller reports its root view under interception: objc-runtime only"
        )
      ]),
    .triggers(
      """
      version: 1
      screens:
        ReceiptView: {page_events: {1️⃣enter: RECEIPT_ENTER}}
        OrderView: {page_events: {2️⃣enter: ORDER_ENTER}}
        PaymentView: {page_events: {3️⃣enter: PAYMENT_ENTER}}
        RefundView: {page_events: {4️⃣enter: REFUND_ENTER}}
      """,
      swift: [
        "Sources/Receipt/ReceiptView.swift": """
        import SwiftUI
        struct ReceiptView: View {
          var body: some View { Text("Receipt") }
        }
        struct OrderView: View {
          var body: some View { Text("Order") }
        }
        struct Card<Content: View>: View {
          var content: Content
          var body: some View { content.padding() }
        }
        func makeReceipt() -> UIViewController { UIHostingController(rootView: AnyView(ReceiptView())) }
        func makeOrder() -> UIViewController { UIHostingController(rootView: Card(content: OrderView())) }
        struct PaymentView: View {
          var body: some View { Text("Payment") }
        }
        struct RefundView: View {
          var body: some View { Text("Refund") }
        }
        typealias Erased = AnyView
        func erase(_ view: some View) -> Erased { AnyView(view) }
        func makePayment() -> UIViewController { UIHostingController(rootView: NavigationStack { PaymentView() }) }
        func makeRefund() -> UIViewController { UIHostingController(rootView: erase(RefundView())) }
        """
      ],
      expecting: [
        .error(
          "SwiftUI screen 'ReceiptView' has enter events that nothing reports: its hosting controller's root is 'AnyView', which erases the view's type, so the hosting controller reports no screen; add '.tracked(.receiptView)' to its body"
        ),
        .error(
          "SwiftUI screen 'OrderView' has enter events that nothing reports: its hosting controller's root is 'Card', which erases the view's type, so the hosting controller reports no screen; add '.tracked(.orderView)' to its body"
        ),
        .error(
          "SwiftUI screen 'PaymentView' has enter events that nothing reports: its hosting controller's root is 'NavigationStack', which erases the view's type, so the hosting controller reports no screen; add '.tracked(.paymentView)' to its body"
        ),
        .error(
          "SwiftUI screen 'RefundView' has enter events that nothing reports: its hosting controller's root is 'AnyView', which erases the view's type, so the hosting controller reports no screen; add '.tracked(.refundView)' to its body"
        ),
      ]),
    .passes(
      """
      version: 1
      screens:
        SettingsView: {page_events: {enter: SETTINGS_ENTER, leave: SETTINGS_LEAVE}}
        ProfileView: {page_events: {enter: PROFILE_ENTER}}
        AccountView: {page_events: {enter: ACCOUNT_ENTER}}
      """,
      swift: [
        "Sources/Settings/SettingsView.swift": """
        import SwiftUI
        struct SettingsView: View {
          var body: some View { Form {}.tracked(.settingsView) }
        }
        struct AccountView: View {
          var body: some View { Text("Account") }
        }
        func makeAccountScreen() -> some View { AccountView().padding() }
        func makeAccount() -> UIViewController { UIHostingController(rootView: makeAccountScreen()) }
        struct ProfileView: View {
          var body: some View { Text("Profile") }
        }
        func makeProfile() -> UIViewController {
          let profile = ProfileView()
          return UIHostingController(rootView: profile)
        }
        """
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    let plan = code.plan
    let cases = SwiftUIScreenCases(code)
    guard !cases.entries.isEmpty else { return }
    let tracked = Set(code.index.swiftUI.trackedUses.map(\.caseName))
    for entry in cases.entries where !tracked.contains(entry.caseName) {
      let written = plan.written(entry.screen)
      let hosted = code.index.swiftUI.isReportedByHostingController(entry.type, screens: code.mappedTypes)
      if plan.interception == .objcRuntime && hosted { continue }
      let unreached = written.pageEvents.filter {
        plan.interception == .objcRuntime || code.lifecycleMethod(for: $0.phase.value, of: entry.type) == nil
      }
      guard let first = unreached.first else { continue }
      let declared = code.index[entry.type]
      let phases = unreached.map(\.phase.value.rawValue).joined(separator: " and ")
      var notes = [Diagnostic.Note("'\(declared.name)' is declared here", at: declared.nameLocation)]
      let erased = plan.interception == .objcRuntime ? code.index.swiftUI.erasedRoots[entry.type] : nil
      if let erased { notes.append(Diagnostic.Note("its hosting controller is made here", at: erased.location.sourceLocation)) }
      let fix =
        if let erased {
          "its hosting controller's root is '\(erased.wrapper)', which erases the view's type, so the hosting controller reports no screen; add '.tracked(.\(entry.caseName))' to its body"
        } else if plan.interception == .objcRuntime {
          "add '.tracked(.\(entry.caseName))' to its body, or show it as the root view of a UIHostingController"
        } else {
          "add '.tracked(.\(entry.caseName))' to its body, or declare the lifecycle method that carries them (conventions.lifecycle)"
            + (hosted ? "; a hosting controller reports its root view under interception: objc-runtime only" : "")
        }
      context.report(
        Self.self, "SwiftUI screen '\(written.name.value)' has \(phases) events that nothing reports: \(fix)", at: first.phase.range,
        notes: notes)
    }
  }
}
