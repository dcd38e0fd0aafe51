import Testing
import TrackcCore

/// `trackc init`'s starter config, built from in-memory sources: it finds the screens of every kind, and
/// lints clean as written and with every suggested handler switched on, under either interception.
@Suite struct StarterConfigTests {
  static let sources: [(path: String, text: String)] = [
    ("Sources/Core/BaseViewController.swift", "open class BaseViewController: UIViewController {\n  @objc func onHelp(_ s: Any) {}\n}\n"),
    (
      "Sources/Home/Home.swift",
      """
      class HomeViewController: BaseViewController {
        @objc func open(item: Int) {}
        @objc func open(item: Int, at index: Int) {}
        func notExposed() {}
        override func viewDidAppear(_ animated: Bool) {}
      }
      class Helper {}
      """
    ),
    ("Sources/Search/Home.swift", "struct HomeViewController {}\n"),
    ("Sources/Settings/Settings.swift", "final class SettingsViewController: UITableViewController {}\n"),
    (
      "Sources/Account/Account.swift",
      """
      import SwiftUI

      final class AccountHostingController: UIHostingController<AccountView> {}

      struct AccountView: View {
        @State private var model = AccountModel()
        var body: some View { List {}.sheet(isPresented: .constant(false)) { OrdersView() } }
      }

      @Observable final class AccountModel {
        func onAppear() {}
        func signOut() {}
        private func refresh() {}
      }

      struct OrdersView: View {
        @StateObject var model = OrdersModel()
        var body: some View { Text("Orders") }
      }

      final class OrdersModel: ObservableObject {
        func reorder(_ id: String) async {}
        func cancel(_ id: String) {}
      }

      func showProfile() -> UIViewController { UIHostingController(rootView: ProfileView()) }

      struct ProfileView: View {
        var body: some View { Text("Profile").navigationTitle("Profile") }
      }

      struct Badge: View {
        var body: some View { Text("New") }
      }
      """
    ),
  ]

  static func lint(_ text: String) -> [Diagnostic] {
    var options = LintOptions()
    options.code = .sources(.files(sources))
    options.scan.useCache = false
    return Linter.lint(ConfigSource(path: "tracking.yaml", text: text), options: options).diagnostics
  }

  static func starter(_ interception: TrackingConfig.Interception) -> StarterConfig.Result {
    let registry = SourceScanner.scan(.files(Self.sources), options: ScanOptions(useCache: false)).registry
    return StarterConfig.make(registry: registry, sources: ["Sources"], interception: interception)
  }

  /// The handlers switched on, as a user would: the commented entries of the screens that are on.
  static func switchedOn(_ text: String) -> String {
    text.replacingOccurrences(of: "    # control_events:", with: "    control_events:").replacingOccurrences(of: "    #   ", with: "      ")
  }

  @Test func everyKindIsFoundAndTheConfigLintsCleanUnderObjCRuntime() {
    let starter = Self.starter(.objcRuntime)
    #expect(starter.counts == [.viewController: 2, .hostingController: 1, .swiftUIView: 2, .viewModel: 2], "\(starter.text)")
    #expect(starter.screenCount == 7)
    #expect(starter.summary == "3 view controllers (1 hosting), 2 SwiftUI screens (1 hosted), 2 view models")
    // Another module declares a HomeViewController (a struct), so the key is qualified.
    #expect(starter.text.contains("\n  Home.HomeViewController:  # view controller\n"))
    #expect(starter.text.contains("    #   open(item:at:): CTRL_HOME_OPEN_2\n"))
    #expect(starter.text.contains("\n  SettingsViewController:  # view controller\n    page_events:\n"), "through UITableViewController")
    #expect(starter.text.contains("\n  AccountHostingController:  # hosting controller\n"))
    // The hosting controller's view is its screen; a view shown by UIHostingController(rootView:) is reported as itself.
    #expect(!starter.text.contains("  AccountView:"))
    #expect(starter.text.contains("\n  ProfileView:  # SwiftUI view, the root of a hosting controller\n    page_events:\n"))
    #expect(
      starter.text.contains(
        "\n  # OrdersView:  # SwiftUI view, presented or navigated to  (add `.tracked(.ordersView)` to its body, then uncomment)\n"))
    #expect(
      starter.text.contains("\n  # AccountModel:  # view model, @Observable  (a view model is intercepted with interception: dynamic-replacement)\n"))
    #expect(!starter.text.contains("Badge"), "a component is not a screen")
    #expect(!starter.text.contains("notExposed"))
    #expect(!starter.text.contains("viewDidAppear"))
    #expect(!starter.text.contains("BaseViewController:"), "a base class is not a screen")
    #expect(Self.lint(starter.text).isEmpty, "\(Self.lint(starter.text))")
    #expect(Self.lint(Self.switchedOn(starter.text)).isEmpty, "\(Self.lint(Self.switchedOn(starter.text)))")
  }

  @Test func viewModelsAreScreensUnderDynamicReplacement() {
    let starter = Self.starter(.dynamicReplacement)
    #expect(starter.text.contains("interception: dynamic-replacement\n"))
    // Its onAppear() carries the enter event; no onDisappear(), so no leave event.
    #expect(
      starter.text.contains(
        "\n  AccountModel:  # view model, @Observable\n    page_events:\n      enter: PAGE_ACCOUNT_MODEL_ENTER\n    # control_events:\n    #   signOut(): CTRL_ACCOUNT_MODEL_SIGN_OUT\n"
      ), "\(starter.text)")
    // No lifecycle method: its handlers are all it has, commented out whole; the async one is left out.
    #expect(
      starter.text.contains("\n  # OrdersModel:  # view model, ObservableObject  (no page events (it declares no lifecycle method): map a handler)\n")
    )
    #expect(!starter.text.contains("reorder"))
    #expect(!starter.text.contains("refresh"))
    // A hosting controller's root is no screen under dynamic-replacement without its modifier.
    #expect(starter.text.contains("\n  # ProfileView:  # SwiftUI view, the root of a hosting controller  (add `.tracked(.profileView)`"))
    #expect(Self.lint(starter.text).isEmpty, "\(Self.lint(starter.text))")
    #expect(Self.lint(Self.switchedOn(starter.text)).isEmpty, "\(Self.lint(Self.switchedOn(starter.text)))")
  }

  @Test func noScreensStillLints() {
    let registry = SourceScanner.scan(.files([("Sources/A/A.swift", "struct A {}\n")]), options: ScanOptions(useCache: false)).registry
    let starter = StarterConfig.make(registry: registry, bases: ["UIViewController"], sources: ["Sources"])
    #expect(starter.screenCount == 0)
    #expect(starter.text.contains("screens: {}"))
    #expect(Self.lint(starter.text).isEmpty)
  }
}
