import UIKit

/// Every screen of the app derives from this class; its handlers count for every subclass.
open class BaseViewController: UIViewController {
  @objc open func onHelpTapped(_ sender: Any) {}

  @objc func onCloseTapped() {}

  override open func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
  }

  override open func viewDidDisappear(_ animated: Bool) {
    super.viewDidDisappear(animated)
  }
}
