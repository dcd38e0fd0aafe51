/// UIKit's delegate and data-source protocols, as far as a handler may be one of their methods: each
/// requirement's Swift name and the Objective-C selector UIKit calls it by, which Swift gives a method
/// that satisfies the requirement (`tableView(_:didSelectRowAt:)` is `tableView:didSelectRowAtIndexPath:`,
/// not the selector its Swift name would derive). The sources cannot say this: the protocols are in the
/// SDK. Written here because no library lists them; `ObjCProtocolTableTests` compiles a
/// `#selector(Protocol.method)` for every entry against the iOS SDK and checks the selector Swift emits.
///
/// With it, a method of a class that conforms to one of these protocols (in its declaration, an
/// extension, or through a framework class such as `UITableViewController`) is exposed to Objective-C
/// under the requirement's selector, as Swift exposes it, and so reachable by `interception:
/// objc-runtime`.
public enum ObjCProtocols {
  /// Requirement Swift names to selectors, by protocol.
  public static let requirements: [String: [String: String]] = [
    "UIScrollViewDelegate": [
      "scrollViewDidScroll(_:)": "scrollViewDidScroll:",
      "scrollViewDidZoom(_:)": "scrollViewDidZoom:",
      "scrollViewWillBeginDragging(_:)": "scrollViewWillBeginDragging:",
      "scrollViewDidEndDragging(_:willDecelerate:)": "scrollViewDidEndDragging:willDecelerate:",
      "scrollViewWillBeginDecelerating(_:)": "scrollViewWillBeginDecelerating:",
      "scrollViewDidEndDecelerating(_:)": "scrollViewDidEndDecelerating:",
      "scrollViewDidEndScrollingAnimation(_:)": "scrollViewDidEndScrollingAnimation:",
      "scrollViewDidScrollToTop(_:)": "scrollViewDidScrollToTop:",
      "scrollViewShouldScrollToTop(_:)": "scrollViewShouldScrollToTop:",
      "scrollViewDidChangeAdjustedContentInset(_:)": "scrollViewDidChangeAdjustedContentInset:",
    ],
    "UITableViewDelegate": [
      "tableView(_:didSelectRowAt:)": "tableView:didSelectRowAtIndexPath:",
      "tableView(_:didDeselectRowAt:)": "tableView:didDeselectRowAtIndexPath:",
      "tableView(_:performPrimaryActionForRowAt:)": "tableView:performPrimaryActionForRowAtIndexPath:",
      "tableView(_:accessoryButtonTappedForRowWith:)": "tableView:accessoryButtonTappedForRowWithIndexPath:",
      "tableView(_:didHighlightRowAt:)": "tableView:didHighlightRowAtIndexPath:",
      "tableView(_:didUnhighlightRowAt:)": "tableView:didUnhighlightRowAtIndexPath:",
      "tableView(_:shouldHighlightRowAt:)": "tableView:shouldHighlightRowAtIndexPath:",
      "tableView(_:willDisplay:forRowAt:)": "tableView:willDisplayCell:forRowAtIndexPath:",
      "tableView(_:didEndDisplaying:forRowAt:)": "tableView:didEndDisplayingCell:forRowAtIndexPath:",
      "tableView(_:heightForRowAt:)": "tableView:heightForRowAtIndexPath:",
      "tableView(_:didBeginMultipleSelectionInteractionAt:)": "tableView:didBeginMultipleSelectionInteractionAtIndexPath:",
    ],
    "UITableViewDataSource": [
      "tableView(_:numberOfRowsInSection:)": "tableView:numberOfRowsInSection:",
      "numberOfSections(in:)": "numberOfSectionsInTableView:",
      "tableView(_:commit:forRowAt:)": "tableView:commitEditingStyle:forRowAtIndexPath:",
      "tableView(_:moveRowAt:to:)": "tableView:moveRowAtIndexPath:toIndexPath:",
    ],
    "UICollectionViewDelegate": [
      "collectionView(_:didSelectItemAt:)": "collectionView:didSelectItemAtIndexPath:",
      "collectionView(_:didDeselectItemAt:)": "collectionView:didDeselectItemAtIndexPath:",
      "collectionView(_:performPrimaryActionForItemAt:)": "collectionView:performPrimaryActionForItemAtIndexPath:",
      "collectionView(_:didHighlightItemAt:)": "collectionView:didHighlightItemAtIndexPath:",
      "collectionView(_:didUnhighlightItemAt:)": "collectionView:didUnhighlightItemAtIndexPath:",
      "collectionView(_:shouldSelectItemAt:)": "collectionView:shouldSelectItemAtIndexPath:",
      "collectionView(_:shouldHighlightItemAt:)": "collectionView:shouldHighlightItemAtIndexPath:",
      "collectionView(_:willDisplay:forItemAt:)": "collectionView:willDisplayCell:forItemAtIndexPath:",
      "collectionView(_:didEndDisplaying:forItemAt:)": "collectionView:didEndDisplayingCell:forItemAtIndexPath:",
    ],
    "UICollectionViewDataSource": [
      "collectionView(_:numberOfItemsInSection:)": "collectionView:numberOfItemsInSection:",
      "numberOfSections(in:)": "numberOfSectionsInCollectionView:",
      "collectionView(_:moveItemAt:to:)": "collectionView:moveItemAtIndexPath:toIndexPath:",
    ],
    "UITextFieldDelegate": [
      "textFieldShouldBeginEditing(_:)": "textFieldShouldBeginEditing:",
      "textFieldDidBeginEditing(_:)": "textFieldDidBeginEditing:",
      "textFieldShouldEndEditing(_:)": "textFieldShouldEndEditing:",
      "textFieldDidEndEditing(_:)": "textFieldDidEndEditing:",
      "textFieldDidEndEditing(_:reason:)": "textFieldDidEndEditing:reason:",
      "textField(_:shouldChangeCharactersIn:replacementString:)": "textField:shouldChangeCharactersInRange:replacementString:",
      "textFieldDidChangeSelection(_:)": "textFieldDidChangeSelection:",
      "textFieldShouldClear(_:)": "textFieldShouldClear:",
      "textFieldShouldReturn(_:)": "textFieldShouldReturn:",
    ],
    "UITextViewDelegate": [
      "textViewShouldBeginEditing(_:)": "textViewShouldBeginEditing:",
      "textViewDidBeginEditing(_:)": "textViewDidBeginEditing:",
      "textViewShouldEndEditing(_:)": "textViewShouldEndEditing:",
      "textViewDidEndEditing(_:)": "textViewDidEndEditing:",
      "textView(_:shouldChangeTextIn:replacementText:)": "textView:shouldChangeTextInRange:replacementText:",
      "textViewDidChange(_:)": "textViewDidChange:",
      "textViewDidChangeSelection(_:)": "textViewDidChangeSelection:",
    ],
    "UISearchBarDelegate": [
      "searchBarShouldBeginEditing(_:)": "searchBarShouldBeginEditing:",
      "searchBarTextDidBeginEditing(_:)": "searchBarTextDidBeginEditing:",
      "searchBarShouldEndEditing(_:)": "searchBarShouldEndEditing:",
      "searchBarTextDidEndEditing(_:)": "searchBarTextDidEndEditing:",
      "searchBar(_:textDidChange:)": "searchBar:textDidChange:",
      "searchBar(_:shouldChangeTextIn:replacementText:)": "searchBar:shouldChangeTextInRange:replacementText:",
      "searchBarSearchButtonClicked(_:)": "searchBarSearchButtonClicked:",
      "searchBarBookmarkButtonClicked(_:)": "searchBarBookmarkButtonClicked:",
      "searchBarCancelButtonClicked(_:)": "searchBarCancelButtonClicked:",
      "searchBarResultsListButtonClicked(_:)": "searchBarResultsListButtonClicked:",
      "searchBar(_:selectedScopeButtonIndexDidChange:)": "searchBar:selectedScopeButtonIndexDidChange:",
    ],
    "UISearchResultsUpdating": [
      "updateSearchResults(for:)": "updateSearchResultsForSearchController:"
    ],
    "UISearchControllerDelegate": [
      "willPresentSearchController(_:)": "willPresentSearchController:",
      "didPresentSearchController(_:)": "didPresentSearchController:",
      "willDismissSearchController(_:)": "willDismissSearchController:",
      "didDismissSearchController(_:)": "didDismissSearchController:",
    ],
    "UIGestureRecognizerDelegate": [
      "gestureRecognizerShouldBegin(_:)": "gestureRecognizerShouldBegin:",
      "gestureRecognizer(_:shouldRecognizeSimultaneouslyWith:)": "gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:",
    ],
    "UIPickerViewDelegate": [
      "pickerView(_:didSelectRow:inComponent:)": "pickerView:didSelectRow:inComponent:",
      "pickerView(_:widthForComponent:)": "pickerView:widthForComponent:",
      "pickerView(_:rowHeightForComponent:)": "pickerView:rowHeightForComponent:",
    ],
    "UIPickerViewDataSource": [
      "numberOfComponents(in:)": "numberOfComponentsInPickerView:",
      "pickerView(_:numberOfRowsInComponent:)": "pickerView:numberOfRowsInComponent:",
    ],
    "UITabBarControllerDelegate": [
      "tabBarController(_:shouldSelect:)": "tabBarController:shouldSelectViewController:",
      "tabBarController(_:didSelect:)": "tabBarController:didSelectViewController:",
    ],
    "UITabBarDelegate": [
      "tabBar(_:didSelect:)": "tabBar:didSelectItem:"
    ],
    "UINavigationControllerDelegate": [
      "navigationController(_:willShow:animated:)": "navigationController:willShowViewController:animated:",
      "navigationController(_:didShow:animated:)": "navigationController:didShowViewController:animated:",
    ],
    "UIAdaptivePresentationControllerDelegate": [
      "presentationControllerShouldDismiss(_:)": "presentationControllerShouldDismiss:",
      "presentationControllerWillDismiss(_:)": "presentationControllerWillDismiss:",
      "presentationControllerDidDismiss(_:)": "presentationControllerDidDismiss:",
      "presentationControllerDidAttemptToDismiss(_:)": "presentationControllerDidAttemptToDismiss:",
    ],
    "UISheetPresentationControllerDelegate": [
      "sheetPresentationControllerDidChangeSelectedDetentIdentifier(_:)": "sheetPresentationControllerDidChangeSelectedDetentIdentifier:"
    ],
    "UIPageViewControllerDelegate": [
      "pageViewController(_:willTransitionTo:)": "pageViewController:willTransitionToViewControllers:",
      "pageViewController(_:didFinishAnimating:previousViewControllers:transitionCompleted:)":
        "pageViewController:didFinishAnimating:previousViewControllers:transitionCompleted:",
    ],
    "UIImagePickerControllerDelegate": [
      "imagePickerController(_:didFinishPickingMediaWithInfo:)": "imagePickerController:didFinishPickingMediaWithInfo:",
      "imagePickerControllerDidCancel(_:)": "imagePickerControllerDidCancel:",
    ],
    "UIDocumentPickerDelegate": [
      "documentPicker(_:didPickDocumentsAt:)": "documentPicker:didPickDocumentsAtURLs:",
      "documentPickerWasCancelled(_:)": "documentPickerWasCancelled:",
    ],
    "UIColorPickerViewControllerDelegate": [
      "colorPickerViewControllerDidFinish(_:)": "colorPickerViewControllerDidFinish:"
    ],
    "UIFontPickerViewControllerDelegate": [
      "fontPickerViewControllerDidCancel(_:)": "fontPickerViewControllerDidCancel:",
      "fontPickerViewControllerDidPickFont(_:)": "fontPickerViewControllerDidPickFont:",
    ],
  ]

  /// The protocols each protocol above inherits from (its requirements are the protocol's too).
  static let inherited: [String: [String]] = [
    "UITableViewDelegate": ["UIScrollViewDelegate"],
    "UICollectionViewDelegate": ["UIScrollViewDelegate"],
    "UITextViewDelegate": ["UIScrollViewDelegate"],
  ]

  /// The protocols UIKit's classes conform to themselves, which their subclasses inherit: a table view
  /// controller is its table's delegate and data source.
  static let adoptedByFrameworkClasses: [String: [String]] = [
    "UITableViewController": ["UITableViewDelegate", "UITableViewDataSource"],
    "UICollectionViewController": ["UICollectionViewDelegate", "UICollectionViewDataSource"],
  ]

  /// The selector of the requirement a method named `swiftName` satisfies, in a type that conforms to
  /// `protocols` (as written: `UITableViewDelegate`, `UIKit.UITableViewDelegate`) and inherits from
  /// `frameworkAncestry` (`UITableViewController`, `UIViewController`, ...); nil when none matches.
  static func selector(of swiftName: String, conformingTo protocols: [String], frameworkAncestry: [String]) -> String? {
    var pending = protocols.map { WrittenTypeName($0).base } + frameworkAncestry.flatMap { adoptedByFrameworkClasses[$0] ?? [] }
    var seen = Set<String>()
    while let name = pending.popLast() {
      guard seen.insert(name).inserted else { continue }
      if let selector = requirements[name]?[swiftName] { return selector }
      pending += inherited[name] ?? []
    }
    return nil
  }
}
