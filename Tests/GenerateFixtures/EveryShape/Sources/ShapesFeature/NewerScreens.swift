import ShapesKit
import UIKit

/// A screen newer than the app's deployment target: its page events come from BaseViewController's
/// lifecycle (an older type), whose generated replacement reads this screen's state only where iOS 17 is.
@available(iOS 17, *)
final class ARPreviewViewController: BaseViewController {
  var modelName = "chair"

  @objc func didPlace(_ sender: UIButton) {}
}

/// A deprecated screen, still tracked: its generated replacements are deprecated too, so they compile
/// without a warning.
@available(*, deprecated, message: "Replaced by CatalogViewController")
final class LegacyPromoViewController: BaseViewController {
  func didTapPromo() {}
}
