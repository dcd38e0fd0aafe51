/// Small apps written for `trackc adopt`'s tests: each call shape the finder reads, and each reason it
/// leaves a call for, in the forms seen in open-source apps (a SDK instance's `track(name:)`, a static
/// wrapper taking an enum case, a `Pixel.fire(pixel:)` whose enum names its cases through a `switch`).
enum AdoptFixtures {
  static let cart = """
    import UIKit

    enum Events {
      static let couponApplied = "Coupon Applied"
    }

    final class CartViewController: UIViewController {
      @objc var total: Double = 0
      @objc var itemCount: Int = 0
      let analytics = Analytics(configuration: Configuration(writeKey: "key"))

      override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        analytics.track(name: "Cart Viewed", properties: ["items": self.itemCount])
      }

      override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        analytics.track(name: "Cart Left")
      }

      @objc func onCheckout(_ sender: UIButton) {
        let properties: [String: Any] = ["total": total, "source": "cart", "express": true, "count": 2]
        analytics.track(name: "Checkout Tapped", properties: properties)
        startCheckout()
      }

      @objc func onCoupon(_ sender: Any) {
        analytics.track(name: Events.couponApplied)
      }

      @objc func onShare(_ sender: Any) {
        DispatchQueue.main.async { self.analytics.track(name: "Share Tapped") }
      }

      @objc func onRetry(_ sender: Any) {
        for _ in 0..<2 { analytics.track(name: "Retry Tapped") }
      }

      @objc func onClear(_ sender: Any) {
        if itemCount > 0 { analytics.track(name: "Cart Cleared") }
      }

      @objc func onEmpty(_ sender: Any) {
        guard itemCount > 0 else { return }
        analytics.track(name: "Cart Emptied")
      }

      @objc func onRemove(_ sender: Any) {
        let name = "Item Removed"
        analytics.track(name: name)
      }

      @objc func onPay(_ sender: Any) {
        let amount = total * 2
        analytics.track(name: "Pay Tapped", properties: ["amount": amount])
      }

      @objc func onBoth(_ sender: Any) {
        analytics.track(name: "First")
        analytics.track(name: "Second")
      }

      @objc func onFilter(_ sender: Any) {
        analytics.track(name: "Filter Tapped", properties: filterProperties())
      }

      @objc func onHelp(_ sender: Any) {
        analytics.screen(title: "Help")
      }

      @objc func onResult(_ sender: Any) {
        _ = analytics.track(name: "Result Used")
      }

      func notExposed() {
        analytics.track(name: "Hidden Tapped")
      }

      func startCheckout() {}
      func filterProperties() -> [String: Any] { [:] }
    }

    final class CartStore {
      let analytics = Analytics(configuration: Configuration(writeKey: "key"))
      func save() {
        analytics.track(name: "Cart Saved")
      }
    }
    """

  /// A wrapper taking an enum whose raw values, in snake_case, are the names (as a podcast app's is).
  static let podcasts = """
    import UIKit

    enum AnalyticsEvent: String {
      case episodeShared
      case playerOpened
      case custom = "Custom Name"
      case ratingShown
      case ratingSkipped
    }

    enum Analytics {
      static func track(_ event: AnalyticsEvent, properties: [AnyHashable: Any]? = nil) {}
      static func track(_ event: AnalyticsEvent, story: String) {}
    }

    final class PlayerViewController: UIViewController {
      @objc var episodeID: String = ""

      override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        Analytics.track(.playerOpened)
      }

      @objc func shareTapped(_ sender: Any) {
        Analytics.track(.episodeShared, properties: ["episode_uuid": episodeID, "source": "player"])
      }

      @objc func customTapped(_ sender: Any) {
        Analytics.track(.custom)
      }

      @objc func storyTapped(_ sender: Any) {
        Analytics.track(.episodeShared, story: "intro")
      }

      @objc func rateTapped(_ sender: Any) {
        Analytics.track(.ratingShown)
        if episodeID.isEmpty { Analytics.track(.ratingSkipped) }
      }
    }
    """

  /// A wrapper taking an enum whose `name` switches over its cases (as a browser's pixels do).
  static let pixels = """
    import UIKit

    public enum Pixel {
      public enum Event {
        case settingsOpened
        case tabClosed(count: Int)
        case dynamicOne(name: String)

        public var name: String {
          switch self {
          case .settingsOpened: return "m_settings_opened"
          case .tabClosed: return "m_tab_closed"
          case .dynamicOne(let name): return "m_dynamic_\\(name)"
          }
        }
      }

      public static func fire(pixel: Event, withAdditionalParameters params: [String: String] = [:], onComplete: @escaping (Error?) -> Void = { _ in }) {}
    }

    final class SettingsViewController: UIViewController {
      override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        Pixel.fire(pixel: .settingsOpened)
      }

      @objc func closeTab(_ sender: Any) {
        Pixel.fire(pixel: .tabClosed(count: 1), withAdditionalParameters: ["source": "settings"])
      }

      @objc func dynamicTapped(_ sender: Any) {
        Pixel.fire(pixel: .dynamicOne(name: "x"))
      }

      @objc func completionTapped(_ sender: Any) {
        Pixel.fire(pixel: .settingsOpened) { _ in }
      }
    }
    """

  /// The other SDKs' shapes.
  static let sdks = """
    import UIKit

    final class ProfileViewController: UIViewController {
      let amplitude = Amplitude(configuration: Configuration(apiKey: "key"))
      @objc var plan: String = "free"

      @objc func onSave(_ sender: Any) {
        amplitude.track(eventType: "Profile Saved", eventProperties: ["plan": plan])
      }

      @objc func onUpgrade(_ sender: Any) {
        amplitude.track(event: BaseEvent(eventType: "Upgrade Tapped", eventProperties: ["from": "profile"]))
      }

      @objc func onLogout(_ sender: Any) {
        Analytics.logEvent("logout_tapped", parameters: ["screen": "profile"])
      }

      @objc func onInvite(_ sender: Any) {
        Mixpanel.mainInstance().track(event: "Invite Sent", properties: ["count": 1])
      }

      let analytics = Analytics(configuration: Configuration(writeKey: "key"))

      override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        analytics.screen(title: "Profile", properties: ["tab": "main"])
      }
    }
    """

  static let all: [(path: String, text: String)] = [
    ("Sources/App/Cart.swift", cart), ("Sources/App/Player.swift", podcasts), ("Sources/App/Settings.swift", pixels),
    ("Sources/App/Profile.swift", sdks),
  ]
}
