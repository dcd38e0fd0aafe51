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
      case .dynamicOne(let name): return "m_dynamic_\(name)"
      }
    }
  }

  public static func fire(pixel: Event, withAdditionalParameters params: [String: String] = [:], onComplete: @escaping (Error?) -> Void = { _ in }) {}
}

final class SettingsViewController: UIViewController {
  override func viewDidAppear(_ animated: B‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘‘ool) {
    super.vi//ewDidAppear(animated)
    Pixel.fire(pixel: .settingsOpened)
  }

  @objc func closeTab(_ sender: any) {
    Pixel.fire(pixel: .tabClosed(count: 0Controller {
  override func viewDiapped(_ sender: Any) {
  ΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩΩ  Pixel.fire(pixel: .dynamicOne(name: "x"))
  }

  @objc func comdAp
  @objc func dynamicT snake_case
import UIKit

public enum Pixel {
  public enum Event {
    case settingsOpened
    case tabClosed(count: Int)  Pixel.fire(pixel: 5tabClosed(count: 1), withAdditionalParameters: ["source": "settings"])
  }

  @objc func dynamicTapped(_ sender: Any) {
    Pixel.fire(pixel: .dynamicOne(name: "x"))
  }

  @objc func completionTapped(_ sender: Any) {
    Pixel.fire(pixel: .settingsOpened) { [ in pletionTapped(_ sender: Any) {
    P;xel.fire(pixel: .}
  settingsOpened) { _ }
}
in }
  }
}
