import Testing
import TrackcCore

/// `trackc init`'s starter config, built from in-memory sources: it lints clean as written and with
/// every suggested handler switched on.
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
    ("Sources/Settings/Settings.swift", "final class SettingsViewController: UIViewController {}\n"),
  ]

  static func lint(_ text: String) -> [Diagnostic] {
    var options = LintOptions()
    options.code = .sources(.files(sources))
    options.scan.useCache = false
    return Linter.lint(ConfigSource(path: "tracking.yaml", text: text), options: options).diagnostics
  }

  @Test func starterConfigLintsCleanAsWrittenAndSwitchedOn() {
    let registry = SourceScanner.scan(.files(Self.sources), options: ScanOptions(useCache: false)).registry
    let starter = StarterConfig.make(registry: registry, bases: ["UIViewController"], sources: ["Sources"])
    #expect(starter.screenCount == 2)
    #expect(starter.handlerCount == 3)
    // Another module declares a HomeViewController (a struct), so the key is qualified.
    #expect(starter.text.contains("\n  Home.HomeViewController:\n"))
    #expect(starter.text.contains("    #   open(item:at:): CTRL_HOME_OPEN_2\n"))
    #expect(!starter.text.contains("notExposed"))
    #expect(!starter.text.contains("viewDidAppear"))
    #expect(!starter.text.contains("BaseViewController:"), "a base class is not a screen")
    let written = starter.text.replacingOccurrences(of: "\nsources: ['Sources']", with: "")
    #expect(Self.lint(written).isEmpty, "\(Self.lint(written))")
    let everything = written.replacingOccurrences(of: "    # control_events:", with: "    control_events:")
      .replacingOccurrences(of: "    #   ", with: "      ")
    #expect(Self.lint(everything).isEmpty, "\(Self.lint(everything))")
  }

  @Test func noScreensStillLints() {
    let registry = SourceScanner.scan(.files([("Sources/A/A.swift", "struct A {}\n")]), options: ScanOptions(useCache: false)).registry
    let starter = StarterConfig.make(registry: registry, bases: ["UIViewController"], sources: ["Sources"])
    #expect(starter.screenCount == 0)
    #expect(starter.text.contains("screens: {}"))
    #expect(Self.lint(starter.text.replacingOccurrences(of: "\nsources: ['Sources']", with: "")).isEmpty)
  }
}
