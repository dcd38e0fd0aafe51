import AppCore
import UIKit

final class HomeViewController: BaseViewController {
  @IBOutlet private weak var favoriteButton: UIButton!

  @objc func onFavBtnPressed(_ sender: UIButton) {
    favoriteButton.isSelected.toggle()
  }

  @IBAction private func onBannerTapped(_ sender: Any) {}

  @objc(openProductWithID:) func openProduct(id: String) {}

  @objc func open(item: Int) {}

  @objc func open(item: Int, at index: Int) {}

  #if DEBUG
    @objc func onDebugMenuPressed(_ sender: Any) {}
  #endif

  func reloadFeed() {}

  /// Shares the whole feed.
  ///
  /// - Note: @tracked
  @objc func onShareFeed(_ sender: Any) {}

  /// Called only from Swift (`retry()`), past the Objective-C runtime.
  @objc func onRetryTapped() {}

  func retry() {
    onRetryTapped()
  }

  /// State bound by the bindings fixture: one exposed to Objective-C, one not.
  @objc var feedTitle: String = ""
  var selectedTab: String = ""
}
