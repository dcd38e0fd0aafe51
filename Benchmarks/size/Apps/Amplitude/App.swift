import AmplitudeSwift
import UIKit

// The app with Amplitude-Swift: started at launch, the user identified, the purchase tracked by the
// handler.

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
  var window: UIWindow?

  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    let amplitude = Amplitude(configuration: Configuration(apiKey: "size-bench"))
    amplitude.setUserId(userId: "user-42")
    let window = UIWindow(frame: UIScreen.main.bounds)
    window.rootViewController = CheckoutViewController(amplitude: amplitude)
    window.makeKeyAndVisible()
    self.window = window
    return true
  }
}

final class CheckoutViewController: UIViewController {
  let amplitude: Amplitude

  init(amplitude: Amplitude) {
    self.amplitude = amplitude
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
    amplitude.track(eventType: "ORDER_COMPLETED", eventProperties: ["source": "checkout"])
  }
}
