import UIKit

/// A product: a button wired with `addTarget`, an image a tap gesture recognizer zooms, a share bar
/// button item. The product's ID is `@objc` state, which the plan's bindings read by key path.
final class ProductViewController: UIViewController {
  @objc private(set) var productID: String
  private let product: Product
  private let catalog: Catalog
  private let imageView = UIImageView(image: UIImage(systemName: "bag"))

  init(product: Product, catalog: Catalog) {
    self.product = product
    self.catalog = catalog
    productID = product.id
    super.init(nibName: nil, bundle: nil)
    title = product.name
  }

  required init?(coder: NSCoder) { fatalError("init(coder:) is not used") }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.backgroundColor = .systemBackground
    navigationItem.rightBarButtonItem = UIBarButtonItem(barButtonSystemItem: .action, target: self, action: #selector(share(_:)))

    imageView.contentMode = .scaleAspectFit
    imageView.isUserInteractionEnabled = true
    imageView.addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(zoomImage(_:))))

    let addButton = UIButton(configuration: .filled())
    addButton.setTitle("Add to cart", for: .normal)
    addButton.addTarget(self, action: #selector(addToCart(_:)), for: .touchUpInside)

    let stack = UIStackView(arrangedSubviews: [imageView, addButton])
    stack.axis = .vertical
    stack.spacing = 24
    stack.translatesAutoresizingMaskIntoConstraints = false
    view.addSubview(stack)
    NSLayoutConstraint.activate([
      stack.centerXAnchor.constraint(equalTo: view.centerXAnchor),
      stack.centerYAnchor.constraint(equalTo: view.centerYAnchor),
      imageView.heightAnchor.constraint(equalToConstant: 160),
    ])
  }

  /// Tracked (CTRL_PRODUCT_ADD, with the product's ID): the button's action.
  @objc func addToCart(_ sender: UIButton) {
    catalog.add(product)
  }

  /// Tracked (CTRL_PRODUCT_ZOOM): wired only by the tap gesture recognizer, whose action UIKit sends
  /// through the Objective-C runtime, which the hooks see.
  @objc func zoomImage(_ recognizer: UITapGestureRecognizer) {
    UIView.animate(withDuration: 0.2) {
      self.imageView.transform = self.imageView.transform.isIdentity ? CGAffineTransform(scaleX: 1.5, y: 1.5) : .identity
    }
  }

  /// Tracked (CTRL_PRODUCT_SHARE): the share bar button item's action.
  @objc func share(_ sender: UIBarButtonItem) {
    let sheet = UIActivityViewController(activityItems: [product.name], applicationActivities: nil)
    sheet.popoverPresentationController?.barButtonItem = sender
    present(sheet, animated: true)
  }
}
