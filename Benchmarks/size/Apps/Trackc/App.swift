import TrackcRuntime
import UIKit

// The app with trackc: started at launch with the registry generated from tracking.yaml beside this file,
// the user identified; the purchase is tracked by the replaced handler (`interception: objc-runtime`, the
// default), so the screen holds no tracking call.

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
  var window: UIWindow?

  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    let tracker = try? Trackc.start(Tracking.registry, endpoint: URL(string: "https://collector.example.com")!, writeKey: "size-bench")
    tracker?.identify(userID: "user-42")
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
