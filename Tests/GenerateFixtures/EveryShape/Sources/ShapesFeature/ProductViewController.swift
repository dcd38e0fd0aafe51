import ShapesKit
import UIKit

/// A product, opened from a link, a notification or the catalog: its initializer takes the entry point's
/// parameters (`entry-point-signature` checks them).
public final class ProductViewController: BaseViewController {
  let productID: Int
  let referrer: String?

  public init(id: Int, ref: String?) {
    productID = id
    referrer = ref
    super.init(nibName: nil, bundle: nil)
  }

  @available(*, unavailable)
  required init?(coder: NSCoder) { fatalError("init(coder:) is not used") }

  @objc func didTapBuy(_ sender: UIButton) {}
}
