import CoreLocation
import CoreMedia
import ShapesKit
import UIKit

/// Under `interception: objc-runtime` (objc-runtime.yaml): the runtime replaces each mapped handler's
/// implementation on its class, so that every way UIKit calls one reports it, and reads the bound values
/// by key path from the handler's arguments and the screen's `@objc` state. A handler of every shape of
/// Objective-C signature the generated replacements take.
class FeedViewController: BaseViewController, UITextFieldDelegate {
  @objc var selectedTab = "for-you"
  @objc var screenTitle: String?
  @objc var cart = FeedCart()

  /// Target-action (`addTarget`), an object argument.
  @objc func onItemTapped(_ sender: UIButton) {}

  /// Interface Builder's action of a refresh control.
  @IBAction func onRefresh(_ sender: UIRefreshControl) {}

  /// Target-action with the event: two object arguments.
  @objc func onLongPress(_ sender: UIButton, forEvent event: UIEvent) {}

  /// A gesture recognizer's action.
  @objc func onSwipe(_ recognizer: UISwipeGestureRecognizer) {}

  /// A bar button item's action, no argument.
  @objc func onShare() {}

  /// A notification observed by selector.
  @objc func onKeyboardWillShow(_ notification: Notification) {}

  /// `perform(_:with:)` and Objective-C callers: scalars and a C struct.
  @objc func didMoveItem(from source: Int, to destination: Int) {}
  @objc func didDrop(at point: CGPoint, scale: CGFloat) {}
  @objc func setFiltersEnabled(_ enabled: Bool) {}

  /// Apple's C structs, passed by value (each one's registers by its layout, as the SDK declares it).
  @objc func didChangeInsets(_ insets: UIEdgeInsets) {}
  @objc func didChangeMargins(_ margins: NSDirectionalEdgeInsets) {}
  @objc func didPickLocation(_ coordinate: CLLocationCoordinate2D) {}
  @objc func didSeek(to time: CMTime) {}

  /// Apple's enums and option sets: their raw integers (Int32, Int, UInt), nested ones too, and typed
  /// string constants (an `NSString`).
  @objc func didChangeAuthorization(_ status: CLAuthorizationStatus) {}
  @objc func didPressKey(with flags: UIKeyModifierFlags) {}
  @objc func didReceive(_ events: UIControl.Event) {}
  @objc func didChangeEditing(_ style: UITableViewCell.EditingStyle) {}
  @objc func didObserve(_ name: NSNotification.Name) {}

  /// A throwing method: Objective-C's error out-parameter and a `BOOL` result.
  @objc func saveDraft() throws {}

  /// A text field's delegate (UITextFieldDelegate): a `BOOL` result.
  func textFieldShouldReturn(_ textField: UITextField) -> Bool { true }
}

/// A subclass that overrides a mapped handler and calls `super`: both implementations are replaced, and
/// the call is one event.
final class PromoFeedViewController: FeedViewController {
  override func onItemTapped(_ sender: UIButton) {
    super.onItemTapped(sender)
  }
}

/// A subclass that inherits the handlers: the superclass's replacements report its calls.
final class ArchiveFeedViewController: FeedViewController {}

final class FeedCart: NSObject {
  @objc(cartTotal) var total: Double = 0
  @objc var itemCount = 0
}

/// A table view controller: a row's selection is a delegate method UIKit calls by its Objective-C selector
/// (`tableView:didSelectRowAtIndexPath:`), the row read from the index path.
final class StoriesTableViewController: UITableViewController {
  @objc func onStoryTapped(_ sender: UIControl) {}

  override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}
}

extension StoriesTableViewController {
  /// A nested class: the runtime finds it by its mangled name.
  final class FilterViewController: UIViewController {
    @objc func onApplyFilters(_ sender: Any) {}
  }
}
