import Foundation
import ShapesKit
import UIKit

/// Screens nested in a namespace.
public enum CheckoutFlow {
  public final class PaymentViewController: BaseViewController {
    public enum Tab: String { case items, billing }

    var total: Decimal = 0

    /// The `order` entry point's parameters.
    public init(id: UUID, tab: Tab) {
      super.init(nibName: nil, bundle: nil)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { fatalError("init(coder:) is not used") }

    func pay(amount: Decimal, express: Bool) {}
  }
}
