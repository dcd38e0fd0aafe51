import UIKit

/// The app's own base view controller, in a module of its own: its lifecycle methods carry the page
/// events of the screens that inherit them (in ShapesFeature), whose state the generated replacements
/// here read through a cast.
open class BaseViewController: UIViewController {
  /// The screen's name for support logs.
  open var screenName: String { "base" }

  override open func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
  }

  override open func viewDidDisappear(_ animated: Bool) {
    super.viewDidDisappear(animated)
  }
}
