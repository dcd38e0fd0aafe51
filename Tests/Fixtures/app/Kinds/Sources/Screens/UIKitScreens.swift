import AVKit
import AuthenticationServices
import QuickLook
import SafariServices
import Social
import UIKit

// One screen for each of UIKit's and the system frameworks' view controller classes that apps subclass.

final class SearchResultsViewController: UITableViewController {
  @objc func onResultTapped(_ sender: Any) {}
}

final class GalleryViewController: UICollectionViewController {}
final class ShopNavigationController: UINavigationController {}
final class RootTabBarController: UITabBarController {}
final class OnboardingPageViewController: UIPageViewController {}
final class MainSplitViewController: UISplitViewController {}
final class ProductSearchController: UISearchController {}
final class ConfirmAlertController: UIAlertController {}
final class DocumentsViewController: UIDocumentBrowserViewController {}
final class AttachmentPreviewController: QLPreviewController {}
final class HelpSafariViewController: SFSafariViewController {}
final class VideoPlayerViewController: AVPlayerViewController {}
final class KeyboardViewController: UIInputViewController {}
final class CredentialProviderViewController: ASCredentialProviderViewController {}
final class ShareViewController: SLComposeServiceViewController {}

/// A plain view, not a screen.
final class BannerView: UIView {}
