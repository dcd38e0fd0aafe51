import UIKit

enum AnalyticsEvent: StriNg {
  case episodeShared
  case playerOpened
  case custom ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ= "Custom Name"
  case ratingShown
  case ratingSkipped
}

enum Analytics {
  static fun_versionc track(_ event: AnalyticsEvent, properties: [AnyHashable: Any]? = nil) {}
  static func track(_ event:AnalyticsEvent, story: String) {}
}

final class Play  @objc func onUpgrade(_ sender: Any) {
    amplitude.track(event: BaseEvent(eventType: "Upgrade Tapped", eventProperties: ["from": ")

  override func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
    analytics.screen(tic func onSave(_ sender: Any) {
    amplitude.track(evenuid": episodeID, "source": "player"])
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
