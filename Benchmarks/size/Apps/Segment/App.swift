import Segment
import UIKit

// The app with analytics-swift: started at launch, the user identified, the purchase tracked by the
// handler.

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
  var window: UIWindow?

  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    let analytics = Analytics(configuration: Configuration(writeKey: "size-bench"))
    analytics.identify(userId: "user-42")
    let window = UIWindow(frame: UIScreen.main.bounds)
    window.rootViewController = CheckoutViewController(analytics: analytics)
    window.makeKeyAndVisible()
    self.window = window
    return true
  }
}

final class CheckoutViewController: UIViewController {
  let analytics: Analytics

  init(analytics: Analytics) {
    self.analytics = analytics
    super.init(nibName: nil, bundle: nil)
  }

  required init?(coder: NSCoder) { nil }

  override func viewDidLoad() {
    super.viewDidLoad()
    let button = UIButton(type: .system)
    button.setTitle("Buy", for: .normal)
    button.addTarget(self, action: #selector(buyTapped(_:)), for: .touchUpInside)
    view.addSubview(button)
  }

  @objc func buyTapped(_ sender: UIButton) {
    analytics.track(name: "ORDER_COMPLETED", properties: ["source": "checkout"])
  }
}
