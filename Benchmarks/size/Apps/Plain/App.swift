import UIKit

// The app without analytics: the floor the other three are measured against. The same app delegate and
// screen as theirs, with nothing where they start a library, set the user and track the purchase.

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
  var window: UIWindow?

  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    let window = UIWindow(frame: UIScreen.main.bounds)
    window.rootViewController = CheckoutViewController()
    window.makeKeyAndVisible()
    self.window = window
    return true
  }
}

final class CheckoutViewController: UIViewController {
  override func viewDidLoad() {
    super.viewDidLoad()
    let button = UIButton(type: .system)
    button.setTitle("Buy", for: .normal)
    button.addTarget(self, action: #selector(buyTapped(_:)), for: .touchUpInside)
    view.addSubview(button)
  }

  @objc func buyTapped(_ sender: UIButton) {}
}
