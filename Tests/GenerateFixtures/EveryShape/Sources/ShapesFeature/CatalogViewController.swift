import ShapesKit
import UIKit

/// The catalog: a view controller whose page events come from its base class's lifecycle (in ShapesKit),
/// with handlers of every shape a replacement repeats and bound properties of every type a binding reads.
public final class CatalogViewController: BaseViewController {
  public enum Tab: String { case featured, sale }

  public var selectedTab = Tab.featured
  public var query: String?
  public var visibleCount = 0
  override public var screenName: String { "catalog" }

  /// Every type of value, optional and not, from the handler's arguments.
  public func didSelect(_ product: Product, at index: Int) {}

  /// A storyboard action with static properties of every type.
  @IBAction public func didTapFilter(_ sender: UIBarButtonItem) {}

  /// Throws, and returns what it added.
  public func addToCart(_ product: Product, quantity: Int) throws -> Int { quantity }

  /// An escaping closure.
  public func refresh(completion: @escaping @MainActor () -> Void) { completion() }

  /// Newer than the app's deployment target: its replacement is marked so too.
  @available(iOS 17, *)
  public func share(_ product: Product) {}

  /// Off the main actor, as its replacement.
  nonisolated public func logImpression(_ productID: String) {}
}
