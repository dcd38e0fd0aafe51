import SwiftUI
import UIKit

/// The cart: a stepper wired with `addTarget`, and a checkout button whose action is a `UIAction`
/// closure. Swift calls a method from a closure directly, past the Objective-C runtime, so the handler the
/// closure calls is `dynamic`: Swift then sends it as an Objective-C message, which the hooks see
/// (lint's `handler-called-directly` reports a mapped handler whose only callers Swift calls directly).
final class CartViewController: UIViewController {
  private let catalog: Catalog
  @objc private(set) var quantity: Double = 1

  init(catalog: Catalog) {
    self.catalog = catalog
    super.init(nibName: nil, bundle: nil)
    title = "Cart"
  }

  required init?(coder: NSCoder) { fatalError("init(coder:) is not used") }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.backgroundColor = .systemBackground
    let stepper = UIStepper()
    stepper.minimumValue = 1
    stepper.addTarget(self, action: #selector(quantityChanged(_:)), for: .valueChanged)
    let checkout = UIButton(configuration: .filled(), primaryAction: UIAction(title: "Check out") { [weak self] _ in self?.startCheckout() })
    let stack = UIStackView(arrangedSubviews: [stepper, checkout])
    stack.axis = .vertical
    stack.spacing = 24
    stack.translatesAutoresizingMaskIntoConstraints = false
    view.addSubview(stack)
    NSLayoutConstraint.activate([
      stack.centerXAnchor.constraint(equalTo: view.centerXAnchor), stack.centerYAnchor.constraint(equalTo: view.centerYAnchor),
    ])
  }

  /// Tracked (CTRL_CART_QUANTITY, with the stepper's value): the stepper's action.
  @objc func quantityChanged(_ sender: UIStepper) {
    quantity = sender.value
  }

  /// Tracked (CTRL_CART_CHECKOUT): called from the button's `UIAction`, as an Objective-C message since it
  /// is `dynamic`. Shows the SwiftUI checkout in a hosting controller, whose appearance is the checkout
  /// screen's.
  @objc dynamic func startCheckout() {
    let model = CheckoutModel(total: catalog.total * quantity)
    present(UIHostingController(rootView: CheckoutView(model: model)), animated: true)
  }
}
